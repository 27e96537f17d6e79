// The fleet's paths and forks on a hand-computed data set, on every test database; the
// SQL path rule agrees with pathOf (ids, ties, collation), and the list's path and fork
// filters select exactly the traces the figures count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScores } from '@/lib/features/scores';
import { validateScoresBody } from '@/lib/features/scores/validate';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { listTraces } from '@/lib/features/traces/list';
import { parseListParams } from '@/lib/features/query/list-params';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { asKey } from '@/test/support/scores';
import { forkId, pathId } from './ids';
import { pathFilterLabels } from './describe';
import { parsePathParams, pathInsights } from './fleet';
import { pathOf, type PathDecision, type Step } from './steps';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };
const NAME = `paths-agent-${process.pid}`;
const t0 = Date.UTC(2026, 2, 1, 12, 0, 0);
const iso = (ms: number) => new Date(t0 + ms).toISOString();

interface Run {
  id: string;
  status: 'COMPLETED' | 'ERROR' | 'RUNNING';
  /** [type, chosen, ms after start, parent span id?] */
  decisions: Array<[PathDecision['type'], unknown, number, string?]>;
  cost?: number;
  durationMs?: number;
}

function traceOf(run: Run, start: number) {
  const spans = [
    { id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', startedAt: iso(start) },
    { id: 'early', parentSpanId: 'root', name: 'sub-a', type: 'AGENT', status: 'COMPLETED', startedAt: iso(start + 1) },
    { id: 'late', parentSpanId: 'root', name: 'sub-b', type: 'AGENT', status: 'COMPLETED', startedAt: iso(start + 2) },
  ];
  return makeTrace({
    id: run.id,
    name: NAME,
    sessionId: null,
    status: run.status,
    startedAt: iso(start),
    endedAt: run.status === 'RUNNING' ? null : iso(start + (run.durationMs ?? 1000)),
    totalDuration: run.status === 'RUNNING' ? null : (run.durationMs ?? 1000),
    totalCost: run.cost ?? 0.01,
    spans,
    events: [],
    decisionPoints: run.decisions.map(([type, chosen, ms, parent], i) => ({
      id: `d${i}`,
      type,
      chosen,
      alternatives: [],
      timestamp: iso(start + ms),
      ...(parent ? { parentSpanId: parent } : {}),
    })),
  });
}

describe.each(testDatabases())('decision paths on $name', (target) => {
  let database: Database;
  const ctx = () => testContext(database);
  const ids = { kb: [] as string[], sql2: [] as string[], sql1: [] as string[], none: [] as string[], ties: '' };

  const runs: Run[] = [];
  const add = (key: keyof Omit<typeof ids, 'ties'>, run: Omit<Run, 'id'>) => {
    const id = uid('path');
    ids[key].push(id);
    runs.push({ id, ...run });
  };

  beforeAll(async () => {
    database = await target.open();
    await truncateAll(database);
    // route>search_kb: 3 completed, 1 error; costs 0.01 each, durations 1, 2, 3, 4 s.
    for (const [status, durationMs] of [['COMPLETED', 1000], ['COMPLETED', 2000], ['COMPLETED', 3000], ['ERROR', 4000]] as const) {
      add('kb', { status, durationMs, decisions: [['ROUTING', { route: 'billing' }, 10], ['TOOL_SELECTION', 'search_kb', 20]] });
    }
    // route>sql×2: 1 error, 1 running.
    for (const status of ['ERROR', 'RUNNING'] as const) {
      add('sql2', { status, decisions: [['ROUTING', 'billing', 10], ['TOOL_SELECTION', { tool: 'sql' }, 20], ['TOOL_SELECTION', 'sql', 30]] });
    }
    // route>sql×1: 1 completed, cost 0.05.
    add('sql1', { status: 'COMPLETED', cost: 0.05, decisions: [['ROUTING', 'billing', 10], ['TOOL_SELECTION', 'sql', 20]] });
    // no decisions: 2 completed.
    add('none', { status: 'COMPLETED', decisions: [] });
    add('none', { status: 'COMPLETED', decisions: [] });
    await ingestTraces(ctx(), validateIngestBody({ traces: runs.map((r, i) => traceOf(r, i * 10_000)) }, limits));
    // One more trace, another name: every decision at the same time, ordered by parent start, then id.
    ids.ties = uid('ties');
    const ties = traceOf(
      {
        id: ids.ties,
        status: 'COMPLETED',
        decisions: [
          ['TOOL_SELECTION', 'orphan', 5, 'missing-span'],
          ['TOOL_SELECTION', 'late', 5, 'late'],
          ['TOOL_SELECTION', 'early-B', 5, 'early'],
          ['TOOL_SELECTION', 'early-a', 5, 'early'],
        ],
      },
      500_000,
    );
    // Ids chosen so code-unit order differs from a natural-language collation: 'B' < 'a' in C.
    (ties.decisionPoints as Array<{ id: string }>).forEach((dp, i) => (dp.id = ['Z', 'y', 'B', 'a'][i]));
    await ingestTraces(ctx(), validateIngestBody({ traces: [{ ...ties, name: `${NAME}-ties` }] }, limits));
  });

  afterAll(async () => {
    await database?.close();
  });

  const window = `from=${iso(-1000)}&to=${iso(3_600_000)}`;
  const fleet = (query: string) => pathInsights(ctx(), parsePathParams(new URLSearchParams(`${window}&${query}`)));
  const listed = async (query: string) =>
    (await listTraces(ctx(), parseListParams(new URLSearchParams(`${query}&limit=100`)))).traces.map((t) => t.id).sort();

  const ROUTE: Step = { type: 'ROUTING', label: 'billing', repeats: 1 };
  const kbPath: Step[] = [ROUTE, { type: 'TOOL_SELECTION', label: 'search_kb', repeats: 1 }];
  const sql2Path: Step[] = [ROUTE, { type: 'TOOL_SELECTION', label: 'sql', repeats: 2 }];
  const sql1Path: Step[] = [ROUTE, { type: 'TOOL_SELECTION', label: 'sql', repeats: 1 }];

  it('groups the window’s traces by path with hand-computed outcomes, shares, cost and durations', async () => {
    const result = await fleet(`name=${NAME}`);
    expect(result.name).toBe(NAME);
    expect(result.totals).toEqual({ traces: 9, withDecisions: 7 });
    expect(result.paths.map((p) => [p.steps, p.traces, p.outcomes])).toEqual([
      [kbPath, 4, { COMPLETED: 3, ERROR: 1, RUNNING: 0 }],
      [[], 2, { COMPLETED: 2, ERROR: 0, RUNNING: 0 }],
      [sql2Path, 2, { COMPLETED: 0, ERROR: 1, RUNNING: 1 }],
      [sql1Path, 1, { COMPLETED: 1, ERROR: 0, RUNNING: 0 }],
    ]);
    const kb = result.paths[0];
    expect(kb.id).toBe(pathId(kbPath));
    expect(kb.share).toBeCloseTo(4 / 9, 12);
    expect(kb.errorTraceShare).toBe(0.25);
    expect(kb.avgCostUsd).toBeCloseTo(0.01, 12);
    // percentile_cont over 1, 2, 3, 4 s.
    expect(kb.p50DurationMs).toBe(2500);
    expect(kb.p95DurationMs).toBeCloseTo(3850, 6);
    expect(kb.judgedRightShare).toBeNull();
    // The running trace counts in traces, not in the error share or durations.
    const sql2 = result.paths[2];
    expect(sql2.errorTraceShare).toBe(1);
    expect(sql2.p50DurationMs).toBe(1000);
    expect(result.paths[1].id).toBe(pathId([]));
  });

  it('lists the forks: the options chosen after the same prefix, ranked by their gap to the fork', async () => {
    const { forks } = await fleet(`name=${NAME}`);
    // After ROUTING:billing: search_kb (4 traces, 1 of 4 ended failed), sql whatever its repeats
    // (3 traces, 1 of 2 ended failed); the fork 2 of 6.
    expect(forks.map((f) => [f.position, f.type, f.label, f.traces, f.errorTraceShareWhenChosen, f.forkErrorTraceShare])).toEqual([
      [1, 'TOOL_SELECTION', 'sql', 3, 0.5, 2 / 6],
      [1, 'TOOL_SELECTION', 'search_kb', 4, 0.25, 2 / 6],
    ]);
    expect(forks[0].id).toBe(forkId([ROUTE]));
    expect(forks[0].prefix).toEqual([ROUTE]);
  });

  it("names the window's agents when no name was asked for, so a fork across agents can say so", async () => {
    expect((await fleet(`name=${NAME}`)).agents).toBeNull();
    expect((await fleet('')).agents).toEqual([NAME, `${NAME}-ties`].sort());
    // A status narrows them (the ties trace completed; only NAME's runs include errors).
    expect((await fleet('status=ERROR')).agents).toEqual([NAME]);
    // A window holding none of them names none.
    const empty = await pathInsights(ctx(), parsePathParams(new URLSearchParams(`from=${iso(-7_200_000)}&to=${iso(-3_600_000)}`)));
    expect(empty.agents).toEqual([]);
  });

  it('puts a path or fork id of the list filters into words, for the drill-down chips', async () => {
    expect(await pathFilterLabels(ctx(), { path: pathId(sql2Path), fork: forkId([ROUTE]) })).toEqual({ path: 'billing → sql ×2', fork: 'after billing' });
    expect(await pathFilterLabels(ctx(), { path: pathId([]), fork: forkId([]) })).toEqual({ path: 'no decisions', fork: 'first decision' });
    // Unknown or malformed ids get no words (the chip then shows the id).
    expect(await pathFilterLabels(ctx(), { path: 'f'.repeat(32), fork: 'not-an-id' })).toEqual({});
  });

  it('lists exactly a path’s traces, or a fork’s, through the trace list filters', async () => {
    expect(await listed(`path=${pathId(kbPath)}`)).toEqual([...ids.kb].sort());
    expect(await listed(`path=${pathId([])}&name=${NAME}`)).toEqual([...ids.none].sort());
    expect(await listed(`fork=${forkId([ROUTE])}&chosen=sql`)).toEqual([...ids.sql2, ...ids.sql1].sort());
    expect(await listed(`fork=${forkId([ROUTE])}`)).toEqual([...ids.kb, ...ids.sql2, ...ids.sql1].sort());
    expect(await listed(`fork=${forkId([ROUTE])}&chosen=sql&status=ERROR`)).toEqual([...ids.sql2.slice(0, 1)]);
    expect(await listed(`fork=${forkId([])}&chosen=billing&name=${NAME}`)).toHaveLength(7);
  });

  it('refuses a malformed path or fork id, naming the parameter', () => {
    expect(() => parseListParams(new URLSearchParams('path=abc'))).toThrow('Invalid path parameter');
    expect(() => parseListParams(new URLSearchParams(`fork=${'A'.repeat(32)}`))).toThrow('Invalid fork parameter');
  });

  it('orders tied decisions in SQL as pathOf does: parent span start, a missing parent last, then id by code units', async () => {
    const { paths } = await fleet(`name=${NAME}-ties`);
    const expected = pathOf([
      { id: 'Z', type: 'TOOL_SELECTION', chosen: 'orphan', timestamp: iso(500_005), parentStartedAt: null },
      { id: 'y', type: 'TOOL_SELECTION', chosen: 'late', timestamp: iso(500_005), parentStartedAt: iso(500_002) },
      { id: 'B', type: 'TOOL_SELECTION', chosen: 'early-B', timestamp: iso(500_005), parentStartedAt: iso(500_001) },
      { id: 'a', type: 'TOOL_SELECTION', chosen: 'early-a', timestamp: iso(500_005), parentStartedAt: iso(500_001) },
    ]);
    expect(expected.map((s) => s.label)).toEqual(['early-B', 'early-a', 'late', 'orphan']);
    expect(paths.map((p) => [p.id, p.steps])).toEqual([[pathId(expected), expected]]);
  });

  it('gives the judged-right share of a path from its decision reviews', async () => {
    const [first, second] = ids.kb;
    await saveScores(
      asKey(database),
      validateScoresBody({
        scores: [
          { traceId: first, decisionPointId: 'd1', name: 'decision.correct', value: true },
          { traceId: second, decisionPointId: 'd1', name: 'decision.correct', value: false },
          { traceId: second, decisionPointId: 'd0', name: 'decision.correct', value: true },
          // Not a review: ignored.
          { traceId: first, name: 'decision.correct', value: false },
        ],
      }),
    );
    const { paths } = await fleet(`name=${NAME}`);
    expect(paths[0].judgedRightShare).toBeCloseTo(2 / 3, 12);
    expect(paths[1].judgedRightShare).toBeNull();
  });

  it('refuses bad window parameters as the other insights calls do', () => {
    expect(() => parsePathParams(new URLSearchParams('from=yesterday'))).toThrow('Invalid from parameter');
    expect(() => parsePathParams(new URLSearchParams('status=DONE'))).toThrow('Invalid status parameter');
  });
});
