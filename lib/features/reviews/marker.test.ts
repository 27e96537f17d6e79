// The review marker on every test database (migration review_marker): each decision point's
// count of decision.correct scores equals a recount after every way scores are written and
// removed, with reviewers racing each other, score deletes and trace deletes; and the queue
// reads it (a reviewed decision leaves, a deleted review brings it back).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteScore } from '@/lib/features/scores/delete';
import { saveScores } from '@/lib/features/scores/save';
import { validateScore, validateScoresBody } from '@/lib/features/scores/validate';
import type { Database } from '@/lib/db/open';
import { deleteTraceOrThrow } from '@/lib/features/retention/delete';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import type { SpanBatchTrace } from '@/lib/features/ingest/span-batch';
import { upsertSpanBatch } from '@/lib/features/ingest/upsert-spans';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { expectReviewMarkersExact } from '@/test/support/derived';
import { makeTrace } from '@/test/support/fixtures';
import { asPerson } from '@/test/support/scores';
import { nextReview } from './';

vi.setConfig({ testTimeout: 60_000 });

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };
const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 10, minute)).toISOString();
const dp = (id: string) => ({ id, type: 'TOOL_SELECTION', chosen: 'search', alternatives: ['sql'], timestamp: at(0) });
const correct = (traceId: string, decisionPointId: string, value: boolean, id?: string) => ({
  ...(id ? { id } : {}),
  traceId,
  decisionPointId,
  name: 'decision.correct',
  value,
});

async function markers(db: Database): Promise<Record<string, number>> {
  const rows = await db.sql.query<{ k: string; n: number }>(`SELECT "traceId" || '/' || "id" AS k, "reviews" AS n FROM "DecisionPoint" ORDER BY 1`);
  return Object.fromEntries(rows.map((r) => [r.k, r.n]));
}

/** One OTLP request for a trace: one span, with a decision point and scores as given. */
function otlpRequest(traceId: string, spanId: string, decisionIds: string[], scores: SpanBatchTrace['scores']): SpanBatchTrace {
  const start = new Date(Date.UTC(2026, 0, 2, 11));
  return {
    traceId,
    spans: [
      {
        id: spanId,
        parentSpanId: null,
        name: 'root',
        type: 'AGENT',
        input: null,
        output: null,
        tokenCount: null,
        costUsd: null,
        durationMs: 5,
        status: 'COMPLETED',
        statusMessage: null,
        startedAt: start,
        endedAt: new Date(start.getTime() + 5),
        metadata: null,
      },
    ],
    events: [],
    decisionPoints: decisionIds.map((id) => ({
      id,
      type: 'TOOL_SELECTION' as const,
      reasoning: null,
      chosen: { name: 'search' },
      alternatives: [{ name: 'sql' }],
      contextSnapshot: null,
      durationMs: null,
      costUsd: null,
      parentSpanId: spanId,
      timestamp: start,
      inferred: false,
    })),
    root: null,
    provisionalName: 'root',
    sessionId: null,
    tags: null,
    scores,
  };
}

describe.each(testDatabases())('the review marker on $name', (target) => {
  let db: Database;

  beforeAll(async () => {
    db = await target.open();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    await db.close();
    vi.restoreAllMocks();
  });
  beforeEach(async () => {
    await truncateAll(db);
    await db.sql.exec('TRUNCATE "Score", "ReviewHold"');
    const traces = Array.from({ length: 4 }, (_, k) =>
      makeTrace({ id: `m-${k}`, name: 'support', status: 'COMPLETED', startedAt: at(k + 1), decisionPoints: [dp('d1'), dp('d2')] }),
    );
    await ingestTraces(testContext(db), validateIngestBody({ traces }, limits));
  });

  it('counts racing reviewers, score deletes and a trace delete exactly', async () => {
    const people = Array.from({ length: 6 }, (_, k) => asPerson(db, `p${k}`));
    // Each person reviews every decision of m-0..m-2 twice over (ids so some are rewritten), in shuffled orders.
    const writes = people.flatMap((p, k) =>
      [0, 1].map((round) => {
        const keys = ['m-0/d1', 'm-0/d2', 'm-1/d1', 'm-1/d2', 'm-2/d1', 'm-2/d2'];
        const order = k % 2 === 0 ? keys : [...keys].reverse();
        return saveScores(
          p,
          validateScoresBody({
            scores: order.map((key) => {
              const [t, d] = key.split('/');
              return correct(t, d, (k + round) % 2 === 0, round === 1 && k < 3 ? `${t}-${d}-by-${k}` : undefined);
            }),
          }),
        );
      }),
    );
    await Promise.all(writes);
    const byP0 = await db.sql.query<{ id: string }>(`SELECT "id" FROM "Score" WHERE "authorUserId" = 'p0' AND "traceId" = 'm-1'`);
    expect(byP0.length).toBeGreaterThan(0);
    await Promise.all([
      ...byP0.map((s) => deleteScore(asPerson(db, 'p0'), s.id)),
      deleteTraceOrThrow(testContext(db), 'm-2'),
      saveScores(people[1], validateScoresBody({ scores: [correct('m-0', 'd1', true), correct('m-3', 'd2', false)] })),
      // A write to the trace being deleted either lands first or finds it gone.
      saveScores(people[2], validateScoresBody({ scores: [correct('m-2', 'd1', true)] })).catch((err: Error) => {
        expect(err.message).toContain('not found');
      }),
    ]);
    await expectReviewMarkersExact(db);
    const kept = await markers(db);
    expect(kept['m-0/d1']).toBe(13);
    expect(kept['m-1/d1']).toBe(12 - byP0.length / 2);
    expect(kept['m-3/d1']).toBe(0);
    expect(kept['m-3/d2']).toBe(1);
    expect(kept['m-2/d1']).toBeUndefined();
  });

  it('follows updates by id (name, target) and deletes, and the queue reads it', async () => {
    const ada = asPerson(db, 'ada');
    const pick = async () => {
      await db.sql.exec('TRUNCATE "ReviewHold"');
      const next = await nextReview(ada, {});
      return { item: next.item && `${next.item.traceId}/${next.item.decisionPointId}`, progress: next.progress };
    };
    expect(await pick()).toEqual({ item: 'm-3/d1', progress: { reviewed: 0, total: 8 } });
    await saveScores(ada, validateScoresBody({ scores: [correct('m-3', 'd1', true, 'r1')] }));
    expect(await pick()).toEqual({ item: 'm-3/d2', progress: { reviewed: 1, total: 8 } });
    // The same id now scores another decision (by hand: the API never moves a score): the first is unreviewed again.
    await db.sql.query(`UPDATE "Score" SET "decisionPointId" = 'd2', "value" = 0 WHERE "id" = 'r1'`);
    expect(await pick()).toEqual({ item: 'm-3/d1', progress: { reviewed: 1, total: 8 } });
    // Renamed: no longer a review.
    await saveScores(ada, validateScoresBody({ scores: [{ id: 'r1', traceId: 'm-3', decisionPointId: 'd2', name: 'decision.note', value: 'x' }] }));
    expect((await pick()).progress).toEqual({ reviewed: 0, total: 8 });
    await saveScores(ada, validateScoresBody({ scores: [correct('m-3', 'd1', true, 'r2'), correct('m-3', 'd2', true, 'r3')] }));
    expect(await pick()).toEqual({ item: 'm-2/d1', progress: { reviewed: 2, total: 8 } });
    await deleteScore(ada, 'r2');
    expect(await pick()).toEqual({ item: 'm-3/d1', progress: { reviewed: 1, total: 8 } });
    await expectReviewMarkersExact(db);
    await db.sql.exec('TRUNCATE "Score"');
    expect(Object.values(await markers(db)).every((n) => n === 0)).toBe(true);
  });

  it('counts a JSON batch scoring its own decisions, and OTLP scores naming a decision that arrives later', async () => {
    const batch = makeTrace({ id: 'm-json', startedAt: at(9), decisionPoints: [dp('d1'), dp('d2')] });
    await ingestTraces(
      testContext(db),
      validateIngestBody({ traces: [{ ...batch, scores: [{ decisionPointId: 'd1', name: 'decision.correct', value: true }] }] }, limits),
    );
    const traceId = '0123456789abcdef0123456789abcdef';
    const score = validateScore({ id: 'late-1', decisionPointId: 'late', name: 'decision.correct', value: false }, 'otlp', traceId);
    await upsertSpanBatch(db.sql, [otlpRequest(traceId, 'aaaaaaaaaaaaaaaa', ['early'], [score])], { maxChildrenPerTrace: 100 });
    await upsertSpanBatch(db.sql, [otlpRequest(traceId, 'bbbbbbbbbbbbbbbb', ['late'], [])], { maxChildrenPerTrace: 100 });
    const kept = await markers(db);
    expect(kept['m-json/d1']).toBe(1);
    expect(kept['m-json/d2']).toBe(0);
    expect(kept[`${traceId}/early`]).toBe(0);
    expect(kept[`${traceId}/late`]).toBe(1);
    await expectReviewMarkersExact(db);
  });
});
