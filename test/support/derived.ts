// What the triggers and stored counts must equal after any mix of writes and deletes: a
// full recount from the rows themselves. Used by the deletion, retention, insights
// rollup and paths tests.
import { expect } from 'vitest';
import { compactPathsOnce } from '@/lib/features/paths/compact';
import { forkId, pathId } from '@/lib/features/paths/ids';
import { livePathsCtes, PATH_ID_OF_TRACE, tracePathIsSql, traceThroughForkSql } from '@/lib/features/query/path-sql';
import { storedTracesOfWindowSql, tracesOfWindowSql } from '@/lib/features/query/window-sql';
import { pathOf, type PathDecision, type Step } from '@/lib/features/paths/steps';
import type { Database } from '@/lib/db/open';
import { SPAN_JSON } from '@/lib/features/traces/detail';
import { raw, sql, type Sql } from '@/lib/db/sql';

/**
 * Asserts the per-status counts, the "TraceName" table, each trace's child counts, the
 * insights rollups, the search words and the stored paths equal a recount.
 */
export async function expectDerivedExact(db: Database): Promise<void> {
  // As readers see them (counters plus deltas), then the counters alone once folded.
  for (const table of ['"TraceStatusTotal"', '"TraceStatusCount"']) {
    if (table === '"TraceStatusCount"') await db.sql.query(sql`SELECT "trace_status_count_fold"()`);
    const counts = await db.sql.query<{ status: string; kept: number; actual: number }>(
      sql`SELECT c.status::text AS status, c.count::int AS kept, (SELECT count(*)::int FROM "Trace" t WHERE t.status = c.status) AS actual
         FROM ${raw(table)} c ORDER BY c.status`,
    );
    expect(counts.map((c) => [c.status, c.kept]), table).toEqual(counts.map((c) => [c.status, c.actual]));
  }
  const [names] = await db.sql.query<{ missing: number; stale: number; wrong: number }>(
    sql`SELECT (SELECT count(*)::int FROM "Trace" t WHERE NOT EXISTS (SELECT 1 FROM "TraceName" n WHERE n."traceId" = t.id)) AS missing,
            (SELECT count(*)::int FROM "TraceName" n WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t.id = n."traceId")) AS stale,
            (SELECT count(*)::int FROM "TraceName" n JOIN "Trace" t ON t.id = n."traceId" WHERE n."nameLower" <> lower(t.name)) AS wrong`,
  );
  expect(names).toEqual({ missing: 0, stale: 0, wrong: 0 });
  const [children] = await db.sql.query<{ off: number; orphans: number }>(
    sql`SELECT (SELECT count(*)::int FROM "Trace" t
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
  await expectPathsExact(db);
  await expectStoredSpanPagesExact(db);
}

/** Every trace's stored span pages, where ready, joined, equal its spans' JSON built now. */
export async function expectStoredSpanPagesExact(db: Database): Promise<void> {
  const rows = await db.sql.query<{ traceId: string; same: boolean }>(
    sql`SELECT h."traceId",
            coalesce((SELECT string_agg(p."spans", ',' ORDER BY p."page") FROM "StoredSpanPage" p WHERE p."traceId" = h."traceId"), '')
              = coalesce((SELECT string_agg(${raw(SPAN_JSON)}::text, ',' ORDER BY c."startedAt", c."id") FROM "Span" c WHERE c."traceId" = h."traceId"), '') AS same
       FROM "StoredSpanPages" h WHERE h."token" IS NULL`,
  );
  expect(rows.filter((r) => !r.same).map((r) => r.traceId)).toEqual([]);
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
      sql`WITH t AS (SELECT ARRAY(SELECT ROW("id", "name", "status", "startedAt", "totalCost", "totalTokens")::"insights_trace" FROM "Trace") AS traces),
            kept AS (SELECT ${raw(key)}, ${raw(sums)} FROM (SELECT * FROM "${raw(table)}" UNION ALL SELECT * FROM "${raw(delta)}") x GROUP BY ${raw(key)} HAVING ${raw(nonZero)}),
            fresh AS (SELECT * FROM "${raw(recount)}"((SELECT traces FROM t), true))
       SELECT (SELECT json_agg(x) FROM (SELECT * FROM kept EXCEPT ALL SELECT * FROM fresh) x) AS kept_only,
              (SELECT json_agg(x) FROM (SELECT * FROM fresh EXCEPT ALL SELECT * FROM kept) x) AS recount_only,
              (SELECT count(*)::int FROM "${raw(delta)}") AS deltas`,
    );
    expect({ kept_only: diff.kept_only, recount_only: diff.recount_only }, `${table} against a recount`).toEqual({ kept_only: null, recount_only: null });
    if (compacted) expect(diff.deltas, `${delta} rows left after compaction`).toBe(0);
  }
  // Each name's folded traces, all hours and statuses (migration insights_name_totals).
  const [totals] = await db.sql.query<{ diff: unknown[] | null }>(
    sql`WITH folded AS (SELECT "name", sum("traces")::int AS "traces" FROM "InsightsNameHour" GROUP BY 1 HAVING sum("traces") <> 0)
     SELECT json_agg(x) AS diff FROM (
       (SELECT * FROM "InsightsNameTotal" EXCEPT ALL SELECT * FROM folded) UNION ALL (SELECT * FROM folded EXCEPT ALL SELECT * FROM "InsightsNameTotal")
     ) x`,
  );
  expect(totals.diff, 'InsightsNameTotal against the folded name rows').toBeNull();
}

/**
 * Puts every trace back in the search queue without its words, as a writer that queues
 * (OTLP, plain SQL) leaves a trace: a JSON batch writes its traces' words itself
 * (migration search_words_at_ingest), so tests of the indexer and of searching queued
 * traces start from here.
 */
export async function requeueForSearch(db: Database): Promise<void> {
  await db.sql.exec('DELETE FROM "SearchDoc"');
  await db.sql.exec('INSERT INTO "SearchQueue" ("traceId") SELECT "id" FROM "Trace"');
}

/**
 * Asserts what search relies on (migration search_deferred_index): every trace that is not
 * queued for the indexer has exactly the words of its current rows (or no doc, when it has
 * none). With `drained`, also that the queue is empty.
 */
export async function expectSearchWordsExact(db: Database, { drained = false } = {}): Promise<void> {
  const [row] = await db.sql.query<{ wrong: number; queued: number }>(
    sql`SELECT (SELECT count(*)::int FROM "Trace" t LEFT JOIN "SearchDoc" d ON d."traceId" = t.id
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
    sql`SELECT d."traceId", d."id", d."reviews" AS kept, c.n AS actual
       FROM "DecisionPoint" d
       CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM "Score" s
                            WHERE s."traceId" = d."traceId" AND s."decisionPointId" = d."id" AND s."name" = 'decision.correct') c
      WHERE d."reviews" <> c.n`,
  );
  expect(rows, 'decision points whose review marker is not the count of their decision.correct scores').toEqual([]);
}

/**
 * Asserts every trace's path as readers see it (stored, or computed for marked traces)
 * equals pathOf over its decisions read back from the rows, and that the list's path and
 * fork filters select exactly the traces of each path and fork, and that the fleet read's
 * traces carry their status, cost, duration and decision reviews. `compacted`: first stores every marked
 * trace's path, then asserts no mark is left and the stored rows alone (one per trace: its
 * path id, its steps and fork ids in "DecisionPath", its copied figures) are the answer.
 */
export async function expectPathsExact(db: Database, { compacted = false } = {}): Promise<void> {
  if (compacted) while ((await compactPathsOnce(db.sql)) > 0);
  const rows = await db.sql.query<{ traceId: string; id: string; type: PathDecision['type']; chosen: PathDecision['chosen']; timestamp: Date; parentStartedAt: Date | null }>(
    sql`SELECT d."traceId", d."id", d."type"::text AS type, d."chosen", d."timestamp", s."startedAt" AS "parentStartedAt"
       FROM "DecisionPoint" d LEFT JOIN "Span" s ON s."traceId" = d."traceId" AND s."id" = d."parentSpanId"`,
  );
  const traces = await db.sql.query<{ id: string }>(sql`SELECT "id" FROM "Trace"`);
  const decisions = new Map<string, PathDecision[]>(traces.map((t) => [t.id, []]));
  for (const r of rows) decisions.get(r.traceId)!.push(r);
  const expected = new Map([...decisions].map(([id, ds]) => [id, pathOf(ds)]));

  const seen = await db.sql.query<{ id: string; pathId: string; steps: Step[] }>(sql`
    WITH ${livePathsCtes(sql`SELECT "id" FROM "Trace"`)}
    SELECT t."id", ${PATH_ID_OF_TRACE} AS "pathId", coalesce(l."steps", dp."steps", '[]'::jsonb) AS steps
      FROM "Trace" t
      LEFT JOIN "TracePath" tp ON tp."traceId" = t."id"
      LEFT JOIN marked mk ON mk.id = t."id"
      LEFT JOIN live l ON l."traceId" = t."id"
      LEFT JOIN "DecisionPath" dp ON dp."id" = ${PATH_ID_OF_TRACE}`);
  const byTrace = (list: Array<[string, unknown]>) => Object.fromEntries(list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  expect(byTrace(seen.map((s) => [s.id, [s.pathId, s.steps]]))).toEqual(byTrace([...expected].map(([id, steps]) => [id, [pathId(steps), steps]])));

  // Each trace's figures the paths read counts, recounted from the rows.
  const figures = new Map(
    (
      await db.sql.query<{
        id: string;
        name: string;
        startedAt: Date;
        status: string;
        cost: number | null;
        duration: number | null;
        reviewed: number;
        judgedRight: number;
      }>(
        sql`SELECT t."id", t."name", t."startedAt", t."status"::text AS status,
                coalesce(t."totalCost", (SELECT sum(s."costUsd") FROM "Span" s WHERE s."traceId" = t."id")) AS cost,
                CASE WHEN t."status" <> 'RUNNING' THEN round(extract(epoch FROM t."endedAt" - t."startedAt") * 1000) END::float8 AS duration,
                (SELECT count(*)::int FROM "Score" sc WHERE sc."traceId" = t."id" AND sc."decisionPointId" IS NOT NULL
                    AND sc."name" = 'decision.correct' AND sc."dataType" = 'BOOLEAN') AS reviewed,
                (SELECT count(*)::int FROM "Score" sc WHERE sc."traceId" = t."id" AND sc."decisionPointId" IS NOT NULL
                    AND sc."name" = 'decision.correct' AND sc."dataType" = 'BOOLEAN' AND sc."value" = 1) AS "judgedRight"
           FROM "Trace" t`,
      )
    ).map((f) => [f.id, f]),
  );
  // The fleet read's traces of a window holding every trace, from the stored rows and from "Trace".
  const everything = { from: '1970-01-01T00:00:00.000Z', to: '9999-01-01T00:00:00.000Z' };
  const windowed = [...figures.values()].map(
    (f) => [f.id, [pathId(expected.get(f.id)!), f.status, f.cost, f.duration, f.reviewed, f.judgedRight]] as [string, unknown],
  );
  for (const ctes of [storedTracesOfWindowSql(everything), tracesOfWindowSql(everything)]) {
    const read = await db.sql.query<{ id: string; path_id: string; status: string; cost: number | null; duration: number | null; reviewed: number; judged_right: number }>(sql`
      WITH ${ctes} SELECT pt.id, pt.path_id, pt.status::text AS status, pt.cost::float8 AS cost, pt.duration::float8 AS duration,
                          pt.reviewed::int AS reviewed, pt.judged_right::int AS judged_right FROM per_trace pt`);
    expect(byTrace(read.map((r) => [r.id, [r.path_id, r.status, r.cost, r.duration, r.reviewed, r.judged_right]])), 'the fleet read\'s traces').toEqual(
      byTrace(windowed),
    );
  }

  if (compacted) {
    const [{ marks }] = await db.sql.query<{ marks: number }>(sql`SELECT count(*)::int AS marks FROM "TracePathDirty"`);
    expect(marks).toBe(0);
    // One row per trace, the empty path's for a trace without decisions (no "DecisionPath" row).
    const stored = await db.sql.query<{ traceId: string; pathId: string; steps: Step[] | null; forkIds: string[] | null }>(
      sql`SELECT tp."traceId", tp."pathId", dp."steps", dp."forkIds" FROM "TracePath" tp LEFT JOIN "DecisionPath" dp ON dp."id" = tp."pathId"`,
    );
    expect(byTrace(stored.map((s) => [s.traceId, [s.pathId, s.steps, s.forkIds]]))).toEqual(
      byTrace(
        [...expected].map(([id, steps]) => [
          id,
          [pathId(steps), steps.length ? steps : null, steps.length ? steps.map((_, i) => forkId(steps.slice(0, i))) : null],
        ]),
      ),
    );
    const copies = await db.sql.query<{
      traceId: string;
      name: string;
      startedAt: Date;
      status: string;
      costUsd: number | null;
      durationMs: number | null;
      reviewed: number;
      judgedRight: number;
    }>(sql`SELECT tp."traceId", tp."name", tp."startedAt", tp."status"::text AS status, tp."costUsd", tp."durationMs", tp."reviewed", tp."judgedRight" FROM "TracePath" tp`);
    expect(
      byTrace(copies.map((c) => [c.traceId, [c.name, c.startedAt.toISOString(), c.status, c.costUsd, c.durationMs, c.reviewed, c.judgedRight]])),
      'the stored figures',
    ).toEqual(byTrace([...figures.values()].map((f) => [f.id, [f.name, f.startedAt.toISOString(), f.status, f.cost, f.duration, f.reviewed, f.judgedRight]])));
  }

  // The filters, for the first paths and the forks at their first two positions.
  const select = async (condition: Sql) =>
    (await db.sql.query<{ id: string }>(sql`SELECT t."id" FROM "Trace" t WHERE ${condition}`)).map((r) => r.id).sort();
  const paths = new Map<string, string[]>();
  const forks = new Map<string, string[]>();
  for (const [id, steps] of expected) {
    paths.set(pathId(steps), [...(paths.get(pathId(steps)) ?? []), id]);
    for (let i = 0; i < Math.min(2, steps.length); i++) {
      const key = `${forkId(steps.slice(0, i))}\u0000${steps[i].label}`;
      forks.set(key, [...(forks.get(key) ?? []), id]);
    }
  }
  for (const [id, ids] of [...paths].slice(0, 8)) expect(await select(tracePathIsSql(raw('t."id"'), id)), `path ${id}`).toEqual(ids.sort());
  for (const [key, ids] of [...forks].slice(0, 8)) {
    const [fork, label] = key.split('\u0000');
    expect(await select(traceThroughForkSql(raw('t."id"'), fork, label)), `fork ${fork} ${label}`).toEqual(ids.sort());
  }
}
