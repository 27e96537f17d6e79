// The score figures read from the score rollups (migration 20261203010000_score_rollups)
// equal the figures computed from the scores of the window's traces, on every test
// database, after every way scores and traces change: JSON batches with scores, concurrent
// POST /api/scores batches, OTLP traces scored while running whose root then moves their
// status and hour, updates by id (value, name, data type, target), score deletes, trace,
// session and hand-run deletes, a hand-run status change; before and after the deltas are
// folded in, for windows with and without edges and with a status filter; and the scores
// over time (score-series.ts) read from them equal those read from rows. The rollups equal
// a recount, the review markers too, and the review queue's progress read from the
// rollups equals a count of the decision points.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextReview } from '@/lib/features/reviews';
import type { ReviewFilters } from '@/lib/features/reviews';
import { deleteScore } from '@/lib/features/scores/delete';
import { saveScores } from '@/lib/features/scores/save';
import { validateScore, validateScoresBody } from '@/lib/features/scores/validate';
import type { Database } from '@/lib/db/open';
import { deleteSessionTraces, deleteTraceOrThrow } from '@/lib/features/retention/delete';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import type { SpanBatchTrace } from '@/lib/features/ingest/span-batch';
import { upsertSpanBatch } from '@/lib/features/ingest/upsert-spans';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import type { RunStatus } from '@/lib/features/traces/types';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { expectReviewMarkersExact, expectRollupsExact } from '@/test/support/derived';
import { makeTrace } from '@/test/support/fixtures';
import { asKey, asPerson } from '@/test/support/scores';
import { compactInsights } from './compact';
import { reviewFiguresFromRollups, reviewFiguresFromTraces, type ReviewFigures } from './reviews';
import { rollupPlan } from './rollups';
import { scoreSeries, scoreSeriesFromTraces } from './score-series';
import { sql } from '@/lib/db/sql';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const BASE = Date.UTC(2026, 5, 1);
const HOUR = 3_600_000;
const TOOLS = ['search', 'calc', 'weather', 'mail'];
const limits = { maxBatchTraces: 1000, maxChildrenPerTrace: 100 };

// A small deterministic generator (mulberry32), so a failure replays.
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Traces with decision points and scores sent with them (on the trace, its span, its decisions). */
function jsonTraces(seed: number, count: number): Record<string, unknown>[] {
  const r = random(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  return Array.from({ length: count }, (_, i) => {
    const start = BASE + Math.floor(r() * 50 * HOUR);
    const decisions = Array.from({ length: Math.floor(r() * 4) }, (_, j) => {
      const tool = pick(TOOLS);
      return {
        id: `d${j}`,
        type: pick(['TOOL_SELECTION', 'ROUTING'] as const),
        chosen: r() < 0.5 ? tool : { tool },
        alternatives: TOOLS.filter((t) => t !== tool).slice(0, 2),
        timestamp: new Date(start + j).toISOString(),
      };
    });
    const scores: Record<string, unknown>[] = [];
    if (r() < 0.7) scores.push({ name: 'quality', value: Math.round(r() * 1000) / 1000 });
    if (r() < 0.5) scores.push({ spanId: 's1', name: 'tone', value: pick(['curt', 'friendly', 'neutral']) });
    if (r() < 0.3) scores.push({ name: 'helpful', value: r() < 0.5 });
    for (const d of decisions) {
      if (r() < 0.6) scores.push({ decisionPointId: d.id, name: 'decision.correct', value: r() < 0.5 });
      if (r() < 0.3) scores.push({ decisionPointId: d.id, name: 'decision.better_option', value: pick(TOOLS) });
    }
    return makeTrace({
      id: `sr-${seed}-${i}`,
      name: `agent-${i % 3}`,
      sessionId: `ss-${i % 5}`,
      status: pick(['COMPLETED', 'ERROR', 'RUNNING'] as const),
      startedAt: new Date(start).toISOString(),
      endedAt: null,
      decisionPoints: decisions,
      events: [],
      scores,
    });
  });
}

/** An OTLP request for one trace: one span (the root when `root` is set) with a decision point. */
function otlpSpan(traceId: string, k: number, startMs: number, root: { status: RunStatus } | null): SpanBatchTrace {
  const id = root ? 'aaaaaaaaaaaaaaaa' : `${k}`.padStart(16, 'b');
  const start = new Date(startMs);
  return {
    traceId,
    spans: [
      {
        id,
        parentSpanId: root ? null : 'aaaaaaaaaaaaaaaa',
        name: root ? 'root' : `llm-${k}`,
        type: root ? 'AGENT' : 'LLM_CALL',
        input: null,
        output: null,
        tokenCount: null,
        costUsd: null,
        durationMs: 5,
        status: root?.status ?? 'COMPLETED',
        statusMessage: null,
        startedAt: start,
        endedAt: new Date(startMs + 5),
        metadata: null,
      },
    ],
    events: [],
    decisionPoints: [
      {
        id: `dp-${k}`,
        type: 'TOOL_SELECTION',
        reasoning: null,
        chosen: { name: TOOLS[k % TOOLS.length] },
        alternatives: TOOLS.map((name) => ({ name })),
        contextSnapshot: null,
        durationMs: null,
        costUsd: null,
        parentSpanId: id,
        timestamp: start,
        inferred: true,
      },
    ],
    root: root ? { name: `otlp run ${k}`, status: root.status, endedAt: new Date(startMs + 5), totalDuration: 5, metadata: null } : null,
    provisionalName: `llm-${k}`,
    sessionId: 'ss-otlp',
    tags: null,
  };
}

// Arrays whose order the statement leaves open (judged) or breaks ties in by another key (better), sorted.
const normalised = (f: ReviewFigures) => ({
  judged: [...f.judged].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  better: [...f.better].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  scores: f.scores,
});

describe.each(testDatabases())('score insights from rollups on $name', ({ open }) => {
  let db: Database;
  const otlpIds = ['0123456789abcdef0123456789abcd01', '0123456789abcdef0123456789abcd02'];

  beforeAll(async () => {
    db = await open();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    await truncateAll(db);
    // OTLP traces first seen through a child span (the trace RUNNING, in a later hour).
    for (const [t, traceId] of otlpIds.entries()) {
      for (let k = 1; k <= 3; k++) {
        await upsertSpanBatch(db.sql, [otlpSpan(traceId, k, BASE + 30 * HOUR + k * 60_000 + t, null)], limits);
      }
    }
    await Promise.all([
      ...Array.from({ length: 4 }, (_, b) => ingestTraces(testContext(db), validateIngestBody({ traces: jsonTraces(b + 1, 30) }, limits))),
    ]);
    const r = random(99);
    const people = ['ana', 'bo', 'cy'].map((id) => asPerson(db, id));
    const key = asKey(db);
    const decisions = await db.sql.query<{ traceId: string; id: string }>(sql`SELECT "traceId", "id" FROM "DecisionPoint" ORDER BY 1, 2`);
    // Concurrent reviewers and a key, some scores with ids (rewritten below), the OTLP traces scored while running.
    await Promise.all([
      ...people.map((p, k) =>
        saveScores(
          p,
          validateScoresBody({
            scores: decisions
              .filter((_, i) => i % 3 === k || i % 5 === 0)
              .flatMap((d, i) => [
                { id: `rv-${k}-${i}`, traceId: d.traceId, decisionPointId: d.id, name: 'decision.correct', value: r() < 0.5 },
                ...(i % 4 === 0 ? [{ traceId: d.traceId, decisionPointId: d.id, name: 'decision.better_option', value: TOOLS[i % 4] }] : []),
              ]),
          }),
        ),
      ),
      saveScores(
        key,
        validateScoresBody({
          scores: [
            ...otlpIds.flatMap((traceId) => [
              { traceId, name: 'quality', value: 0.25 },
              { id: `otlp-review-${traceId}`, traceId, decisionPointId: 'dp-1', name: 'decision.correct', value: true },
              { traceId, decisionPointId: 'dp-2', name: 'decision.better_option', value: 'calc' },
            ]),
            { sessionId: 'ss-1', name: 'tone', value: 'curt' },
          ],
        }),
      ),
    ]);
  });
  afterAll(async () => {
    await db.close();
    vi.restoreAllMocks();
  });

  const windows: Array<{ label: string; from: number; to: number; status?: RunStatus }> = [
    { label: 'whole hours', from: BASE + 2 * HOUR, to: BASE + 40 * HOUR },
    { label: 'partial edges', from: BASE + 2 * HOUR + 17 * 60_000, to: BASE + 45 * HOUR + 1 },
    { label: 'everything, edges', from: BASE - 5 * HOUR + 59 * 60_000, to: BASE + 60 * HOUR + 30 * 60_000 },
    { label: 'ERROR only, edges', from: BASE + 90 * 60_000, to: BASE + 49 * HOUR + 15 * 60_000, status: 'ERROR' },
    { label: 'RUNNING only, whole hours', from: BASE, to: BASE + 72 * HOUR, status: 'RUNNING' },
  ];

  const compare = async (w: (typeof windows)[number]) => {
    const params = { from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString(), ...(w.status ? { status: w.status } : {}) };
    const plan = rollupPlan(params);
    expect(plan, w.label).not.toBeNull();
    const fromTraces = await reviewFiguresFromTraces(testContext(db), params);
    expect(normalised(await reviewFiguresFromRollups(testContext(db), plan!)), w.label).toEqual(normalised(fromTraces));
    // Scores over time (GET /api/insights/scores), hourly and daily, all names and one.
    for (const series of [
      { ...params, bucket: 'hour' as const },
      { ...params, bucket: 'day' as const },
      { ...params, bucket: 'hour' as const, scoreName: 'decision.correct' },
    ]) {
      expect(rollupPlan(series, series.bucket), w.label).not.toBeNull();
      expect(await scoreSeries(testContext(db), series), `${w.label} series`).toEqual(await scoreSeriesFromTraces(testContext(db), series));
    }
    return fromTraces;
  };

  // The queue's progress (from the rollups) against a count of the decision points.
  const compareProgress = async () => {
    const cases: ReviewFilters[] = [
      {},
      { type: 'TOOL_SELECTION' },
      { type: 'TOOL_SELECTION', option: 'search' },
      { option: 'calc' },
      { status: 'ERROR' },
      { from: new Date(BASE + 3 * HOUR + 5 * 60_000).toISOString(), to: new Date(BASE + 30 * HOUR + 59 * 60_000).toISOString() },
      { from: new Date(BASE + 10 * HOUR).toISOString(), type: 'ROUTING' },
    ];
    for (const f of cases) {
      await db.sql.exec('TRUNCATE "ReviewHold"');
      const { progress } = await nextReview(asPerson(db, 'progress'), f);
      const [expected] = await db.sql.query<{ reviewed: number; total: number }>(
        sql`SELECT (count(*) FILTER (WHERE EXISTS (SELECT 1 FROM "Score" s WHERE s."traceId" = d."traceId" AND s."decisionPointId" = d."id"
                                                 AND s."name" = 'decision.correct')))::int AS reviewed, count(*)::int AS total
           FROM "DecisionPoint" d JOIN "Trace" t ON t."id" = d."traceId"
          WHERE (${f.type ?? null}::text IS NULL OR d."type"::text = ${f.type ?? null}) AND (${f.option ?? null}::text IS NULL OR "insights_option_label"(d."chosen") = ${f.option ?? null})
            AND (${f.status ?? null}::text IS NULL OR t."status"::text = ${f.status ?? null}) AND (${f.from ?? null}::timestamptz IS NULL OR t."startedAt" >= ${f.from ?? null})
            AND (${f.to ?? null}::timestamptz IS NULL OR t."startedAt" < ${f.to ?? null})`,
      );
      expect(progress, JSON.stringify(f)).toEqual(expected);
    }
  };

  const checkAll = async (opts: { compacted?: boolean } = {}) => {
    const answers: ReviewFigures[] = [];
    for (const w of windows) answers.push(await compare(w));
    await expectRollupsExact(db, opts);
    await expectReviewMarkersExact(db);
    await compareProgress();
    return answers;
  };

  it('answers as the scores do after inserts, updates by id, deletes, status changes and trace deletes', async () => {
    const first = await checkAll();
    // The data is not trivial: reviews, better options and scores of every type in the widest window.
    expect(first[2].judged.length).toBeGreaterThan(3);
    expect(first[2].better.length).toBeGreaterThan(3);
    expect(new Set(first[2].scores.map((s) => s.dataType))).toEqual(new Set(['NUMERIC', 'CATEGORICAL', 'BOOLEAN']));

    // OTLP: scores naming a decision of a later request, then that decision.
    for (const traceId of otlpIds) {
      const request = otlpSpan(traceId, 8, BASE + 31 * HOUR, null);
      request.decisionPoints = [];
      request.scores = [
        validateScore({ id: `late-${traceId}`, decisionPointId: 'dp-7', name: 'decision.correct', value: true }, 'otlp', traceId),
        validateScore({ decisionPointId: 'dp-7', name: 'decision.better_option', value: 'web' }, 'otlp', traceId),
      ];
      await upsertSpanBatch(db.sql, [request], limits);
    }
    await checkAll();
    for (const traceId of otlpIds) await upsertSpanBatch(db.sql, [otlpSpan(traceId, 7, BASE + 31 * HOUR + 60_000, null)], limits);
    await checkAll();

    // The OTLP traces' roots arrive: an earlier start (another hour) and a status, with their scores moving along.
    for (const [t, traceId] of otlpIds.entries()) {
      await upsertSpanBatch(db.sql, [otlpSpan(traceId, 0, BASE + 20 * HOUR + 7, { status: t === 0 ? 'ERROR' : 'COMPLETED' })], limits);
    }
    await checkAll();
    await compactInsights(testContext(db));
    await checkAll({ compacted: true });

    // Updates by id: the value, the name, the data type, the target (another trace's decision).
    const ana = asPerson(db, 'ana');
    const [other] = await db.sql.query<{ traceId: string; id: string }>(
      sql`SELECT "traceId", "id" FROM "DecisionPoint" WHERE "traceId" LIKE 'sr-3-%' ORDER BY 1 DESC, 2 LIMIT 1`,
    );
    const [a, b, c] = await db.sql.query<{ id: string; traceId: string; decisionPointId: string }>(
      sql`SELECT "id", "traceId", "decisionPointId" FROM "Score" WHERE "id" LIKE 'rv-0-%' ORDER BY "id" LIMIT 3`,
    );
    await saveScores(
      ana,
      validateScoresBody({
        scores: [
          { id: a.id, traceId: a.traceId, decisionPointId: a.decisionPointId, name: 'decision.correct', value: false },
          { id: b.id, traceId: b.traceId, decisionPointId: b.decisionPointId, name: 'decision.better_option', value: 'mail' },
        ],
      }),
    );
    // The API never moves a score to another target (a 409); the triggers follow any UPDATE all the same.
    await db.sql.query(sql`UPDATE "Score" SET "traceId" = ${other.traceId}, "decisionPointId" = ${other.id}, "value" = 1 WHERE "id" = ${c.id}`);
    await db.sql.query(
      sql`UPDATE "Score" SET "decisionPointId" = NULL, "name" = 'quality', "dataType" = 'NUMERIC', "value" = 3, "stringValue" = NULL WHERE "id" = ${`otlp-review-${otlpIds[0]}`}`,
    );
    await checkAll();

    // Deletes: scores one by one, a trace, a session, by hand; and a status changed by hand.
    const some = await db.sql.query<{ id: string }>(sql`SELECT "id" FROM "Score" WHERE "id" LIKE 'rv-1-%' ORDER BY "id" LIMIT 5`);
    await Promise.all(some.map((s) => deleteScore(asPerson(db, 'bo'), s.id)));
    await deleteTraceOrThrow(testContext(db), otlpIds[1]);
    await deleteSessionTraces(testContext(db), 'ss-2');
    await db.sql.query(sql`DELETE FROM "Trace" WHERE "id" IN (SELECT "id" FROM "Trace" WHERE "sessionId" = 'ss-3' ORDER BY "id" LIMIT 4)`);
    await db.sql.query(sql`UPDATE "Trace" SET "status" = 'COMPLETED' WHERE "status" = 'RUNNING' AND "sessionId" = 'ss-4'`);
    await checkAll();
    expect(await compactInsights(testContext(db))).toBeGreaterThan(0);
    const last = await checkAll({ compacted: true });
    expect(last[2].judged.length).toBeGreaterThan(0);
  });
});
