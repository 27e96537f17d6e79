import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { traceStats } from './stats';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 10_000 };

describe.each(testDatabases())('traceStats on $name', (target) => {
  let database: Database;
  const session = uid('stats-session');

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database?.close();
  });

  it('is all zeros on an empty store, with no average', async () => {
    expect(await traceStats(testContext(database))).toEqual({
      traceCount: 0,
      runningCount: 0,
      completedCount: 0,
      errorCount: 0,
      totalCost: 0,
      totalTokens: 0,
      avgDuration: null,
    });
  });

  it('counts by status and sums cost, tokens and average duration, filtered by session and dates', async () => {
    const traces = [
      makeTrace({ sessionId: session, status: 'COMPLETED', totalCost: 0.5, totalTokens: 100, totalDuration: 1000, startedAt: '2026-03-01T00:00:00.000Z' }),
      makeTrace({ sessionId: session, status: 'ERROR', totalCost: 0.25, totalTokens: 50, totalDuration: 3000, startedAt: '2026-03-02T00:00:00.000Z' }),
      makeTrace({ sessionId: session, status: 'RUNNING', totalCost: null, totalTokens: null, totalDuration: null, startedAt: '2026-03-03T00:00:00.000Z' }),
      makeTrace({ sessionId: 'other', status: 'COMPLETED', totalCost: 10, totalTokens: 1, totalDuration: 5, startedAt: '2026-03-02T12:00:00.000Z' }),
    ];
    await ingestTraces(testContext(database), validateIngestBody({ traces }, limits));

    expect(await traceStats(testContext(database), { sessionId: session })).toEqual({
      traceCount: 3,
      runningCount: 1,
      completedCount: 1,
      errorCount: 1,
      totalCost: 0.75,
      // The running trace sent no total: its model call's 1,500 tokens, summed at ingest.
      totalTokens: 1650,
      avgDuration: 2000,
    });
    const all = await traceStats(testContext(database));
    expect(all.traceCount).toBe(4);
    expect(all.completedCount).toBe(2);
    expect(all.totalCost).toBeCloseTo(10.75);

    // from and to are inclusive bounds on startedAt.
    const window = await traceStats(testContext(database), { from: '2026-03-02T00:00:00.000Z', to: '2026-03-02T12:00:00Z' });
    expect(window).toMatchObject({ traceCount: 2, errorCount: 1, completedCount: 1, totalTokens: 51 });
    const sessionWindow = await traceStats(testContext(database), { sessionId: session, from: '2026-03-02T00:00:00.001Z' });
    expect(sessionWindow).toMatchObject({ traceCount: 1, runningCount: 1, avgDuration: null, totalCost: 0 });
  });

  it('refuses dates that are not ISO 8601 and a reversed window', async () => {
    await expect(traceStats(testContext(database), { from: 'yesterday' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('from'),
    });
    await expect(traceStats(testContext(database), { to: '2026-02-30T00:00:00Z' })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(
      traceStats(testContext(database), { from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' }),
    ).rejects.toMatchObject({ message: 'from must not be after to' });
  });
});
