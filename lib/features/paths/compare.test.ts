// "Compare with a successful run" on every test database: the completed run of the same
// name sharing the longest path prefix, the most recent among equals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { successfulMatch } from './compare';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };
const t0 = Date.UTC(2026, 2, 1, 12, 0, 0);
const iso = (ms: number) => new Date(t0 + ms).toISOString();

function run(id: string, name: string, status: 'COMPLETED' | 'ERROR' | 'RUNNING', start: number, tools: string[]) {
  return makeTrace({
    id,
    name,
    sessionId: null,
    status,
    startedAt: iso(start),
    endedAt: status === 'RUNNING' ? null : iso(start + 1000),
    spans: [],
    events: [],
    decisionPoints: tools.map((tool, i) => ({ id: `d${i}`, type: 'TOOL_SELECTION', chosen: tool, alternatives: [], timestamp: iso(start + 10 + i) })),
  });
}

describe.each(testDatabases())('successfulMatch on $name', (target) => {
  let database: Database;
  const ctx = () => testContext(database);
  const name = `compare-${process.pid}`;
  const id = { failing: uid('fail'), short: uid('short'), oldLong: uid('old'), newLong: uid('new'), erroredLonger: uid('err'), other: uid('other'), lonely: uid('lonely') };

  beforeAll(async () => {
    database = await target.open();
    await truncateAll(database);
    const traces = [
      run(id.failing, name, 'ERROR', 50_000, ['plan', 'search', 'search', 'answer']),
      run(id.short, name, 'COMPLETED', 40_000, ['plan', 'answer']),
      // Shares plan>search×2 with the failing run: two of them, the later one wins.
      run(id.oldLong, name, 'COMPLETED', 10_000, ['plan', 'search', 'search', 'check']),
      run(id.newLong, name, 'COMPLETED', 20_000, ['plan', 'search', 'search', 'ask']),
      // Shares the whole path but did not complete.
      run(id.erroredLonger, name, 'ERROR', 30_000, ['plan', 'search', 'search', 'answer']),
      run(id.other, `${name}-other`, 'COMPLETED', 30_000, ['plan', 'search', 'search', 'answer']),
      run(id.lonely, `${name}-lonely`, 'ERROR', 30_000, ['plan']),
    ];
    await ingestTraces(ctx(), validateIngestBody({ traces }, limits));
  });

  afterAll(async () => {
    await database?.close();
  });

  it('picks the completed run of the same name with the longest shared prefix, the most recent among equals', async () => {
    expect(await successfulMatch(ctx(), id.failing)).toEqual({ traceId: id.newLong, sharedSteps: 2, pathSteps: 3 });
  });

  it('counts repeats: a different repeat count ends the shared prefix', async () => {
    // The short run's path plan>answer shares only plan with plan>search×2>answer.
    expect(await successfulMatch(ctx(), id.short)).toEqual({ traceId: id.newLong, sharedSteps: 1, pathSteps: 2 });
  });

  it('answers no run when the name has no other completed run, and 404 for an unknown trace', async () => {
    expect(await successfulMatch(ctx(), id.lonely)).toEqual({ traceId: null, sharedSteps: 0, pathSteps: 1 });
    await expect(successfulMatch(ctx(), 'no-such-trace')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
