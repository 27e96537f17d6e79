// similarRuns and partedRuns on the refund agent's runs (test/support/wrong-turns.ts), on
// every test database: the turn with the highest error share, the runs that took it, where
// two runs parted and the closest successful run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testContext } from '@/test/support/context';
import { testDatabases } from '@/test/support/databases';
import { ingestWrongTurns, RUN_X } from '@/test/support/wrong-turns';
import { AppError } from '@/lib/core/errors';
import { partedRuns } from './parted';
import { similarRuns } from './similar';
import { listTraces } from '@/lib/features/traces/list';
import { parseListParams } from '@/lib/features/query/list-params';

const step = (type: string, label: string) => ({ type, label, repeats: 1 });

describe.each(testDatabases())('similar runs and parted runs on $name', ({ open }) => {
  let db: Database;
  const ctx = () => testContext(db);
  beforeAll(async () => {
    db = await open();
    await ingestWrongTurns(db);
  });
  afterAll(async () => {
    await db.close();
  });

  it('picks the first turn with the highest error share among the other runs and lists the runs that took it', async () => {
    const result = await similarRuns(ctx(), { traceId: RUN_X });
    expect(result.trace).toEqual({ id: RUN_X, name: 'refund-agent', status: 'ERROR' });
    expect(result.path).toEqual([step('ROUTING', 'billing'), step('TOOL_SELECTION', 'search_kb'), step('ESCALATION', 'human')]);
    expect(result.picked).toBe('highest error share');
    // search_kb after billing: kb-1, kb-2, kb-4 failed, kb-3 completed (other-1 is another agent).
    expect(result.turn).toMatchObject({ position: 2, step: step('TOOL_SELECTION', 'search_kb'), outcomes: { COMPLETED: 1, ERROR: 3, RUNNING: 0 }, errorShare: 0.75 });
    expect(result.turn?.forkOutcomes).toEqual({ COMPLETED: 5, ERROR: 3, RUNNING: 0 });
    expect(result.turn?.forkErrorShare).toBe(3 / 8);
    expect(result.total).toBe(4);
    expect(result.runs.map((r) => r.id).sort()).toEqual(['kb-1', 'kb-2', 'kb-3', 'kb-4']);
    // Most recent first.
    expect(result.runs.map((r) => r.id)).toEqual(['kb-4', 'kb-3', 'kb-2', 'kb-1']);
  });

  it('lists exactly the runs the trace list’s fork filter selects, at every position', async () => {
    for (const at of [1, 2, 3]) {
      const result = await similarRuns(ctx(), { traceId: RUN_X, at, limit: 100 });
      const query = new URLSearchParams({ name: 'refund-agent', fork: result.turn!.forkId, chosen: result.turn!.step.label, limit: '100' });
      const listed = (await listTraces(ctx(), parseListParams(query))).traces.map((t) => t.id).filter((id) => id !== RUN_X);
      expect(result.runs.map((r) => r.id).sort(), `at ${at}`).toEqual(listed.sort());
      expect(result.total).toBe(listed.length);
    }
  });

  it('takes the turn the caller names, and refuses a position off the path', async () => {
    const third = await similarRuns(ctx(), { traceId: RUN_X, at: 3 });
    expect(third.picked).toBe('at');
    expect(third.turn).toMatchObject({ position: 3, step: step('ESCALATION', 'human'), outcomes: { COMPLETED: 1, ERROR: 2, RUNNING: 0 } });
    expect(third.runs.map((r) => r.id).sort()).toEqual(['kb-1', 'kb-2', 'kb-3']);
    await expect(similarRuns(ctx(), { traceId: RUN_X, at: 4 })).rejects.toThrow('Invalid at: must be a decision position from 1 to 3');
    await expect(similarRuns(ctx(), { traceId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('finds where two runs parted, and the closest successful run when no other is named', async () => {
    const named = await partedRuns(ctx(), { traceId: RUN_X, otherTraceId: 'ok-1' });
    expect(named.picked).toBe(false);
    expect(named.sharedSteps).toBe(1);
    expect(named.parted).toEqual({ position: 2, a: step('TOOL_SELECTION', 'search_kb'), b: step('TOOL_SELECTION', 'lookup_order') });
    expect(named.followedA).toEqual([step('ESCALATION', 'human')]);
    expect(named.followedB).toEqual([step('TOOL_SELECTION', 'issue_refund')]);

    // kb-3 shares all three steps, then goes on to refund.
    const closest = await partedRuns(ctx(), { traceId: RUN_X });
    expect(closest.picked).toBe(true);
    expect(closest.b?.id).toBe('kb-3');
    expect(closest.parted).toEqual({ position: 4, a: null, b: step('TOOL_SELECTION', 'issue_refund') });

    const same = await partedRuns(ctx(), { traceId: 'kb-1', otherTraceId: 'kb-2' });
    expect(same.parted).toBeNull();
    expect(same.sharedSteps).toBe(3);
    await expect(partedRuns(ctx(), { traceId: RUN_X, otherTraceId: 'missing' })).rejects.toBeInstanceOf(AppError);
  });
});
