// Numbers near the largest double: refused on the way in with a 400 naming the field, and
// rows stored before the bounds are brought within them, so no sum or average over them
// can overflow (PostgreSQL's float8 SUM raises "value out of range" instead).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapOtlpSpans } from '@/lib/features/otlp/map';
import { validateScoresBody } from '@/lib/features/scores/validate';
import { spanCost } from '@/lib/features/pricing/span-cost';
import { event, span } from '@/test/support/otlp-spans';
import { overviewInsights, parseOverviewParams } from '@/lib/features/insights/overview';
import { decisionInsights, parseDecisionParams } from '@/lib/features/insights/decisions';
import { parsePathParams, pathInsights } from '@/lib/features/paths';
import type { Database } from '@/lib/db/open';
import { testContext } from '@/test/support/context';
import { testDatabases } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { listTraces } from './list';
import { parseListParams } from '@/lib/features/query/list-params';
import { traceStats } from './stats';
import { validateIngestBody } from '@/lib/features/ingest/validate';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };
const HUGE = 1.7e308;
const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 10, minute)).toISOString();
const window = new URLSearchParams({ from: '2026-01-02T00:00:00.000Z', to: '2026-01-03T00:00:00.000Z' });

const batch = (trace: Record<string, unknown>) => () => validateIngestBody({ traces: [makeTrace(trace)] }, limits);
const child = (field: 'spans' | 'decisionPoints', values: Record<string, unknown>) => {
  const trace = makeTrace() as unknown as Record<string, Array<Record<string, unknown>>>;
  return batch({ [field]: [{ ...trace[field][0], ...values }] });
};

describe('bounds on the way in', () => {
  it.each([
    ['a trace cost', batch({ totalCost: HUGE }), 'traces[0].totalCost must be from -1000000 to 1000000'],
    ['a negative trace cost', batch({ totalCost: -1_000_001 }), 'traces[0].totalCost must be from -1000000 to 1000000'],
    ['trace tokens', batch({ totalTokens: 1e12 + 1 }), 'traces[0].totalTokens must be from -1000000000000 to 1000000000000'],
    ['a trace duration', batch({ totalDuration: 1e14 }), 'traces[0].totalDuration must be from -10000000000000 to 10000000000000'],
    ['a span cost', child('spans', { costUsd: 2e6 }), 'traces[0].spans[0].costUsd must be from -1000000 to 1000000'],
    ['span tokens', child('spans', { tokenCount: HUGE }), 'traces[0].spans[0].tokenCount must be from -1000000000000 to 1000000000000'],
    ['a span duration', child('spans', { durationMs: HUGE }), 'traces[0].spans[0].durationMs must be from -10000000000000 to 10000000000000'],
    ['a decision cost', child('decisionPoints', { costUsd: HUGE }), 'traces[0].decisionPoints[0].costUsd must be from -1000000 to 1000000'],
    ['a decision duration', child('decisionPoints', { durationMs: -HUGE }), 'traces[0].decisionPoints[0].durationMs must be from -10000000000000 to 10000000000000'],
    ['a score in a batch', batch({ scores: [{ name: 'q', value: HUGE }] }), 'traces[0].scores[0].value must be from -1000000000 to 1000000000'],
    ['a score', () => validateScoresBody({ scores: [{ traceId: 't', name: 'q', value: -1e9 - 1 }] }), 'scores[0].value must be from -1000000000 to 1000000000'],
  ])('%s beyond its bound is a 400 naming the field', (_name, run, message) => {
    expect(run).toThrow(message);
  });

  it('accepts each bound exactly', () => {
    expect(() => batch({ totalCost: 1e6, totalTokens: -1e12, totalDuration: 1e13, scores: [{ name: 'q', value: -1e9 }] })()).not.toThrow();
  });

  it('OTLP clamps a span\'s cost, tokens and duration and a decision\'s, and drops a score event beyond its bound', () => {
    const [trace] = mapOtlpSpans([
      span({
        endTimeUnixNano: 2n ** 64n - 1n,
        attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 1e300, 'gen_ai.usage.output_tokens': 1, 'gen_ai.usage.cost': 1e300 },
        events: [
          event('crossroads.decision', { 'crossroads.decision.type': 'ROUTING', 'crossroads.decision.cost_usd': 1e300, 'crossroads.decision.duration_ms': -1e300 }),
          event('crossroads.score', { 'crossroads.score.name': 'q', 'crossroads.score.value': 1e300 }),
        ],
      }),
    ]).traces;
    expect(trace.spans[0]).toMatchObject({ tokenCount: 1e12, durationMs: 1e13 });
    expect(trace.decisionPoints[0]).toMatchObject({ costUsd: 1e6, durationMs: -1e13 });
    expect(trace.scores ?? []).toEqual([]);
    // Its cost as stored, whichever way a span's cost comes.
    expect(spanCost(trace.spans[0], []).costUsd).toBe(1e6);
    const price = { label: 'gpt-4o', model: 'gpt-4o', inputPerMillion: 1, outputPerMillion: 1, cacheReadPerMillion: 1, cacheWritePerMillion: 1 };
    expect(spanCost({ ...trace.spans[0], costUsd: null }, [price])).toMatchObject({ costUsd: 1e6, costSource: 'custom' });
  });
});

describe.each(testDatabases())('huge numbers on $name', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
    const traces = ['big-1', 'big-2'].map((id, i) => makeTrace({ id, name: 'big', startedAt: at(i), totalCost: 1, totalTokens: 10, totalDuration: 100 }));
    await ingestTraces(testContext(db), validateIngestBody({ traces }, limits));
  });
  afterAll(async () => {
    await db.close();
  });

  it('rows stored before the bounds are clamped to them, and lists, stats, insights and paths answer', async () => {
    // As a server without the bounds stored them.
    await db.sql.exec(`
      UPDATE "Trace" SET "totalCost" = ${HUGE}, "totalTokens" = ${HUGE}, "totalDuration" = ${HUGE};
      UPDATE "Span" SET "costUsd" = ${HUGE}, "tokenCount" = ${HUGE}, "durationMs" = -${HUGE};
      UPDATE "DecisionPoint" SET "costUsd" = ${HUGE}, "durationMs" = ${HUGE};
      INSERT INTO "Score" ("id", "traceId", "name", "dataType", "value", "source", "authorKind", "authorName")
        VALUES ('huge-1', 'big-1', 'q', 'NUMERIC', ${HUGE}, 'API', 'key', 'k'), ('huge-2', 'big-2', 'q', 'NUMERIC', ${HUGE}, 'API', 'key', 'k'),
               ('huge-3', 'big-1', 'q', 'NUMERIC', -${HUGE}, 'API', 'key', 'k')`);
    const migration = path.resolve(import.meta.dirname, '../../../prisma/migrations/20261206000000_number_bounds/migration.sql');
    await db.sql.exec(await readFile(migration, 'utf8'));

    const ctx = testContext(db);
    const list = await listTraces(ctx, parseListParams(new URLSearchParams('sort=cost&order=desc')));
    expect(list.traces.map((t) => t.totalCost)).toEqual([1e6, 1e6]);
    expect((await listTraces(ctx, parseListParams(new URLSearchParams('sort=score.q')))).total).toBe(2);
    expect(await traceStats(ctx)).toMatchObject({ totalCost: 2e6, totalTokens: 2e12, avgDuration: 1e13 });
    expect((await overviewInsights(ctx, parseOverviewParams(window))).totals).toMatchObject({ costUsd: 2e6 });
    await decisionInsights(ctx, parseDecisionParams(window));
    await pathInsights(ctx, parsePathParams(window));
    const [row] = await db.sql.query<{ max: number; min: number }>(`SELECT max("value") AS max, min("value") AS min FROM "Score"`);
    expect(row).toEqual({ max: 1e9, min: -1e9 });
  });
});
