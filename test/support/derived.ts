// What the triggers and stored counts must equal after any mix of writes and deletes: a
// full recount from the rows themselves. Used by the deletion, retention and insights
// rollup tests.
import { expect } from 'vitest';
import type { Database } from '@/lib/storage/open';

/**
 * Asserts the per-status counts, the "TraceName" table, each trace's child counts, the
 * insights rollups and the search words equal a recount.
 */
export async function expectDerivedExact(db: Database): Promise<void> {
  const counts = await db.sql.query<{ status: string; kept: number; actual: number }>(
    `SELECT c.status::text AS status, c.count::int AS kept, (SELECT count(*)::int FROM "Trace" t WHERE t.status = c.status) AS actual
       FROM "TraceStatusCount" c ORDER BY c.status`,
  );
  expect(counts.map((c) => [c.status, c.kept])).toEqual(counts.map((c) => [c.status, c.actual]));
  const [names] = await db.sql.query<{ missing: number; stale: number; wrong: number }>(
    `SELECT (SELECT count(*)::int FROM "Trace" t WHERE NOT EXISTS (SELECT 1 FROM "TraceName" n WHERE n."traceId" = t.id)) AS missing,
            (SELECT count(*)::int FROM "TraceName" n WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = n."traceId")) AS stale,
            (SELECT count(*)::int FROM "TraceName" n JOIN "Trace" t ON t.id = n."traceId" WHERE n."nameLower" <> lower(t.name)) AS wrong`,
  );
  expect(names).toEqual({ missing: 0, stale: 0, wrong: 0 });
  const [children] = await db.sql.query<{ off: number; orphans: number }>(
    `SELECT (SELECT count(*)::int FROM "Trace" t
              WHERE t."spanCount" <> (SELECT count(*) FROM "Span" s WHERE s."traceId" = t.id)
                 OR t."eventCount" <> (SELECT count(*) FROM "Event" e WHERE e."traceId" = t.id)
                 OR t."decisionPointCount" <> (SELECT count(*) FROM "DecisionPoint" d WHERE d."traceId" = t.id)) AS off,
            (SELECT count(*)::int FROM "Span" s WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = s."traceId"))
          + (SELECT count(*)::int FROM "Event" e WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = e."traceId"))
          + (SELECT count(*)::int FROM "DecisionPoint" d WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = d."traceId")) AS orphans`,
  );
  expect(children).toEqual({ off: 0, orphans: 0 });
  await expectRollupsExact(db);
  await expectSearchWordsExact(db);
}

// Each insights rollup table plus its unfolded deltas, summed by key, keys whose figures
// are all zero left out (what deletes leave behind), against the same rows computed from
// scratch by the functions the triggers use (migration 20261125000000_insights_rollups).
const ROLLUPS = [
  ['InsightsTraceHour', 'InsightsTraceDelta', 'insights_trace_rows', ['hour', 'status'], ['traces', 'costUsd', 'tokens']],
  ['InsightsTypeHour', 'InsightsTypeDelta', 'insights_type_rows', ['hour', 'status', 'type'],
    ['decisions', 'traces', 'durationSum', 'durationCount', 'costSum', 'costCount']],
  ['InsightsOptionHour', 'InsightsOptionDelta', 'insights_option_rows', ['hour', 'status', 'type', 'label'], ['chosen', 'offered', 'chosenTraces']],
  ['InsightsNameHour', 'InsightsNameDelta', 'insights_name_rows', ['hour', 'status', 'name'], ['traces', 'retries', 'escalations']],
  // The score rollups (migration 20261203010000_score_rollups).
  ['InsightsScoreHour', 'InsightsScoreDelta', 'insights_score_rows', ['hour', 'status', 'name', 'dataType', 'category'], ['scores', 'valueSum', 'valueCount']],
  ['InsightsReviewHour', 'InsightsReviewDelta', 'insights_review_rows', ['hour', 'status', 'type', 'label'], ['reviews', 'judgedRight', 'decisions']],
  ['InsightsBetterHour', 'InsightsBetterDelta', 'insights_better_rows', ['hour', 'status', 'type', 'label', 'better'], ['scores']],
] as const;

/**
 * Asserts every insights rollup key (rollup row plus deltas) equals a recount from the
 * traces and their children (numeric sums compared by value), and the name totals the
 * folded name rows. `compacted`: and that no delta is left, the rollup rows alone being
 * the answer.
 */
export async function expectRollupsExact(db: Database, { compacted = false } = {}): Promise<void> {
  for (const [table, delta, recount, keys, figures] of ROLLUPS) {
    const key = keys.map((k) => `"${k}"`).join(', ');
    const sums = figures.map((f) => `sum("${f}") AS "${f}"`).join(', ');
    const nonZero = figures.map((f) => `sum("${f}") <> 0`).join(' OR ');
    const [diff] = await db.sql.query<{ kept_only: unknown[] | null; recount_only: unknown[] | null; deltas: number }>(
      `WITH t AS (SELECT ARRAY(SELECT ROW("id", "name", "status", "startedAt", "totalCost", "totalTokens")::"insights_trace" FROM "Trace") AS traces),
            kept AS (SELECT ${key}, ${sums} FROM (SELECT * FROM "${table}" UNION ALL SELECT * FROM "${delta}") x GROUP BY ${key} HAVING ${nonZero}),
            fresh AS (SELECT * FROM "${recount}"((SELECT traces FROM t), true))
       SELECT (SELECT json_agg(x) FROM (SELECT * FROM kept EXCEPT ALL SELECT * FROM fresh) x) AS kept_only,
              (SELECT json_agg(x) FROM (SELECT * FROM fresh EXCEPT ALL SELECT * FROM kept) x) AS recount_only,
              (SELECT count(*)::int FROM "${delta}") AS deltas`,
    );
    expect({ kept_only: diff.kept_only, recount_only: diff.recount_only }, `${table} against a recount`).toEqual({ kept_only: null, recount_only: null });
    if (compacted) expect(diff.deltas, `${delta} rows left after compaction`).toBe(0);
  }
  // Each name's folded traces, all hours and statuses (migration insights_name_totals).
  const [totals] = await db.sql.query<{ diff: unknown[] | null }>(
    `WITH folded AS (SELECT "name", sum("traces")::int AS "traces" FROM "InsightsNameHour" GROUP BY 1 HAVING sum("traces") <> 0)
     SELECT json_agg(x) AS diff FROM (
       (SELECT * FROM "InsightsNameTotal" EXCEPT ALL SELECT * FROM folded) UNION ALL (SELECT * FROM folded EXCEPT ALL SELECT * FROM "InsightsNameTotal")
     ) x`,
  );
  expect(totals.diff, 'InsightsNameTotal against the folded name rows').toBeNull();
}

/**
 * Asserts what search relies on (migration search_deferred_index): every trace that is not
 * queued for the indexer has exactly the words of its current rows (or no doc, when it has
 * none). With `drained`, also that the queue is empty.
 */
export async function expectSearchWordsExact(db: Database, { drained = false } = {}): Promise<void> {
  const [row] = await db.sql.query<{ wrong: number; queued: number }>(
    `SELECT (SELECT count(*)::int FROM "Trace" t LEFT JOIN "SearchDoc" d ON d."traceId" = t.id
              WHERE NOT EXISTS (SELECT 1 FROM "SearchQueue" q WHERE q."traceId" = t.id)
                AND d."words" IS DISTINCT FROM "crossroads_trace_words"(t.id)) AS wrong,
            (SELECT count(*)::int FROM "SearchQueue" q WHERE EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = q."traceId")) AS queued`,
  );
  expect(row.wrong, 'traces whose search words are not those of their rows').toBe(0);
  if (drained) expect(row.queued, 'traces still queued for search indexing').toBe(0);
}

/**
 * Asserts each decision point's review marker (migration review_marker) equals a recount of
 * its decision.correct scores.
 */
export async function expectReviewMarkersExact(db: Database): Promise<void> {
  const rows = await db.sql.query<{ traceId: string; id: string; kept: number; actual: number }>(
    `SELECT d."traceId", d."id", d."reviews" AS kept, c.n AS actual
       FROM "DecisionPoint" d
       CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM "Score" s
                            WHERE s."traceId" = d."traceId" AND s."decisionPointId" = d."id" AND s."name" = 'decision.correct') c
      WHERE d."reviews" <> c.n`,
  );
  expect(rows, 'decision points whose review marker is not the count of their decision.correct scores').toEqual([]);
}
