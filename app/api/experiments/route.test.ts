// The experiments API through its route handlers, on both databases: an experiment of a
// dataset, runs linked to items (a second link replaces the first), the summary's figures
// worked out by hand, and two experiments compared item by item, at their first different
// decision.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createDatasetRoute } from '@/app/api/datasets/route';
import { POST as itemsRoute } from '@/app/api/datasets/[name]/items/route';
import { POST as scoresRoute } from '@/app/api/scores/route';
import { POST as ingestRoute } from '@/app/api/traces/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { resetAccess } from '@/test/support/access';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { GET as compareRoute } from './compare/route';
import { GET as getRoute } from './[id]/route';
import { POST as runsRoute } from './[id]/runs/route';
import { GET as listRoute, POST as createRoute } from './route';

const AUTH = { authorization: 'Bearer experiments-route-key', 'content-type': 'application/json' };
const post = (handler: (req: Request, ctx: never) => Promise<Response>, url: string, value: unknown, params?: Record<string, string>) =>
  handler(new Request(`http://x${url}`, { method: 'POST', headers: AUTH, body: JSON.stringify(value) }), { params: Promise.resolve(params ?? {}) } as never);
const answer = async (res: Response) => ({ status: res.status, body: await res.json() });

/** A run of the agent: its tool choices in order, its status, output, cost and duration. */
function run(id: string, tools: string[], status: 'COMPLETED' | 'ERROR', output: string, cost: number, seconds: number) {
  const start = Date.UTC(2026, 0, 2, 3, 0, 0);
  return makeTrace({
    id,
    status,
    totalCost: cost,
    totalTokens: 100,
    startedAt: new Date(start).toISOString(),
    endedAt: new Date(start + seconds * 1000).toISOString(),
    decisionPoints: tools.map((tool, i) => ({
      id: `d${i}`,
      type: 'TOOL_SELECTION',
      chosen: { tool },
      alternatives: [{ tool: 'search' }, { tool: 'sql' }],
      timestamp: new Date(start + 100 + i * 100).toISOString(),
    })),
    spans: [{ id: 'root', name: 'agent', type: 'AGENT', status, output: { answer: output }, startedAt: new Date(start).toISOString(), endedAt: new Date(start + seconds * 1000).toISOString() }],
    events: [],
  });
}

describe.each(testDatabases())('the experiments API on $name', ({ open }) => {
  let db: Database;
  const dataset = uid('exp-ds').slice(0, 90);
  const ids = { v1: '', v2: '' };
  const t = (name: string) => `${dataset}-${name}`;

  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    resetAccess();
    expect((await post(createDatasetRoute, '/api/datasets', { name: dataset })).status).toBe(201);
    const items = [
      { id: 'i1', input: 'revenue in May?', expectedOutput: '$10', expectedDecisions: [{ chosen: { tool: 'search' } }, { chosen: 'sql' }] },
      { id: 'i2', input: 'top customer?', expectedOutput: 'Acme' },
      { id: 'i3', input: 'not run by v2', expectedDecisions: [{ chosen: 'search' }] },
    ];
    expect((await post(itemsRoute, `/api/datasets/${dataset}/items`, { items }, { name: dataset })).status).toBe(200);
    const traces = [
      run(t('v1-i1'), ['search', 'sql'], 'COMPLETED', '$10', 0.01, 2),
      run(t('v1-i2'), ['search'], 'COMPLETED', 'Acme', 0.02, 4),
      run(t('v1-i3'), ['sql'], 'COMPLETED', '?', 0.03, 6),
      run(t('v2-i1'), ['sql'], 'ERROR', 'failed', 0.04, 1),
      run(t('v2-i2'), ['search'], 'COMPLETED', 'Acme', 0.01, 3),
      run(t('v2-i2-rep1'), ['sql', 'sql'], 'COMPLETED', 'Acme', 0.01, 3),
      run(t('stray'), [], 'COMPLETED', '', 0, 1),
    ];
    expect((await post(ingestRoute, '/api/traces', { traces })).status).toBe(200);
    for (const version of ['v1', 'v2'] as const) {
      const res = await post(createRoute, '/api/experiments', { dataset, name: version, metadata: { model: version === 'v1' ? 'gpt-4o' : 'gpt-5' }, passCriteria: version === 'v2' ? [{ scoreName: 'correct', equals: true }] : [] });
      expect(res.status).toBe(201);
      ids[version] = ((await res.json()) as { experiment: { id: string } }).experiment.id;
    }
  });
  afterAll(async () => {
    await db.close();
  });

  it('creates an experiment with the contract\'s answer; a taken name in the dataset is a 409, a missing dataset a 404', async () => {
    const res = await post(createRoute, '/api/experiments', { dataset, name: 'v3', metadata: { prompt: 'p3' } });
    const { experiment } = (await res.json()) as { experiment: Record<string, unknown> };
    expect(res.status).toBe(201);
    expect(experiment).toMatchObject({ dataset, name: 'v3', metadata: { prompt: 'p3' }, passCriteria: [] });
    expect(Object.keys(experiment).sort()).toEqual(['createdAt', 'dataset', 'id', 'metadata', 'name', 'passCriteria']);
    expect(await answer(await post(createRoute, '/api/experiments', { dataset, name: 'v3' }))).toEqual({ status: 409, body: { error: `Dataset "${dataset}" already has an experiment named "v3"` } });
    expect(await answer(await post(createRoute, '/api/experiments', { dataset: 'no-such', name: 'x' }))).toEqual({ status: 404, body: { error: 'Dataset "no-such" not found' } });
    expect((await post(createRoute, '/api/experiments', { dataset, name: 'x', passCriteria: [{ scoreName: 'a' }] })).status).toBe(400);
  });

  it('links runs to items, naming a missing item or trace by its index; a second link of an (item, repetition) replaces the first', async () => {
    const link = (id: string, runs: unknown[]) => post(runsRoute, `/api/experiments/${id}/runs`, { runs }, { id });
    expect(await answer(await link(ids.v1, [{ itemId: 'i1', traceId: t('stray') }, { itemId: 'i2', traceId: t('v1-i2') }, { itemId: 'i3', traceId: t('v1-i3') }]))).toEqual({
      status: 200,
      body: { success: true, count: 3 },
    });
    expect(await answer(await link(ids.v1, [{ itemId: 'i1', traceId: t('v1-i1') }]))).toEqual({ status: 200, body: { success: true, count: 1 } });
    expect(await answer(await link(ids.v2, [{ itemId: 'i1', traceId: t('v2-i1') }, { itemId: 'nope', traceId: t('v2-i2') }]))).toEqual({
      status: 404,
      body: { error: `runs[1].itemId: item "nope" not found in dataset "${dataset}"` },
    });
    expect(await answer(await link(ids.v2, [{ itemId: 'i1', traceId: 'missing-trace' }]))).toEqual({ status: 404, body: { error: 'runs[0].traceId: trace "missing-trace" not found' } });
    expect(await answer(await link(ids.v2, [{ itemId: 'i1', traceId: t('v2-i1'), repetition: -1 }]))).toEqual({ status: 400, body: { error: 'runs[0].repetition must be an integer from 0 to 99' } });
    expect(await answer(await link('no-such-experiment', [{ itemId: 'i1', traceId: t('v2-i1') }]))).toEqual({ status: 404, body: { error: 'Experiment not found' } });
    expect(
      (await link(ids.v2, [{ itemId: 'i1', traceId: t('v2-i1') }, { itemId: 'i2', traceId: t('v2-i2') }, { itemId: 'i2', traceId: t('v2-i2-rep1'), repetition: 1 }])).status,
    ).toBe(200);
    // Nothing of the refused requests was stored.
    const stored = await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM "ExperimentRun" WHERE "experimentId" = $1', [ids.v2]);
    expect(stored[0].n).toBe(3);
  });

  it('sums an experiment up: runs, missing items, errors, cost, durations, scores, decision match and pass rates', async () => {
    await post(scoresRoute, '/api/scores', { scores: [{ traceId: t('v2-i2'), name: 'correct', value: true }, { traceId: t('v2-i2-rep1'), name: 'correct', value: false }] });
    const v1 = (await (await getRoute(new Request('http://x'), { params: Promise.resolve({ id: ids.v1 }) })).json()) as { experiment: { name: string }; summary: Record<string, unknown> };
    expect(v1.experiment.name).toBe('v1');
    expect(v1.summary).toEqual({
      items: 3,
      runs: 3,
      missing: 0,
      errorRuns: 0,
      costUsd: expect.closeTo(0.06, 10),
      tokens: 300,
      p50DurationMs: 4000,
      p95DurationMs: 5800,
      scores: {},
      // i1 chose search then sql as expected; i3 chose sql, not search.
      decisionMatch: { compared: 2, matched: 1, share: 0.5 },
      repetitions: { k: 1, passAt1: 1, passAtK: 1, passHatK: 1, itemsWithDifferentPaths: 0 },
    });
    const v2 = (await (await getRoute(new Request('http://x'), { params: Promise.resolve({ id: ids.v2 }) })).json()) as { summary: Record<string, unknown> };
    expect(v2.summary).toMatchObject({
      items: 3,
      runs: 3,
      missing: 1,
      errorRuns: 1,
      scores: { correct: { count: 2, average: 0.5 } },
      decisionMatch: { compared: 1, matched: 0, share: 0 },
      // i1 failed; i2 passed on repetition 0 (correct) but not on 1 (not correct), and took two paths.
      repetitions: { k: 2, passAt1: 0.5, passAtK: 0.5, passHatK: 0, itemsWithDifferentPaths: 1 },
    });
    const listed = (await (await listRoute(new Request(`http://x/api/experiments?dataset=${dataset}`))).json()) as { experiments: Array<{ experiment: { name: string } }> };
    expect(listed.experiments.map((e) => e.experiment.name)).toEqual(expect.arrayContaining(['v1', 'v2']));
  });

  it('compares two experiments item by item, with the first different decision, and only the different ones when asked', async () => {
    const compare = async (query: string) => answer(await compareRoute(new Request(`http://x/api/experiments/compare?${query}`)));
    const { status, body } = await compare(`ids=${ids.v1},${ids.v2}`);
    expect(status).toBe(200);
    expect(body.experiments.map((e: { experiment: { name: string } }) => e.experiment.name)).toEqual(['v1', 'v2']);
    expect(body).toMatchObject({ total: 3, page: 1, totalPages: 1 });
    const [i1, i2, i3] = body.items;
    expect(i1).toMatchObject({
      itemId: 'i1',
      input: 'revenue in May?',
      expectedOutput: '$10',
      decisionsDiffer: true,
      firstDifference: { position: 0, choices: [{ experimentId: ids.v1, label: 'search' }, { experimentId: ids.v2, label: 'sql' }] },
    });
    expect(i1.runs).toEqual([
      { experimentId: ids.v1, traceId: t('v1-i1'), repetition: 0, status: 'COMPLETED', output: { answer: '$10' }, costUsd: 0.01, durationMs: 2000, scores: {}, path: ['search', 'sql'] },
      { experimentId: ids.v2, traceId: t('v2-i1'), repetition: 0, status: 'ERROR', output: { answer: 'failed' }, costUsd: 0.04, durationMs: 1000, scores: {}, path: ['sql'] },
    ]);
    expect(i2).toMatchObject({ itemId: 'i2', decisionsDiffer: false, firstDifference: null });
    expect(i2.runs[1]).toMatchObject({ traceId: t('v2-i2'), scores: { correct: 1 } });
    expect(i3.runs.map((r: { experimentId: string }) => r.experimentId)).toEqual([ids.v1]);
    const different = await compare(`ids=${ids.v1},${ids.v2}&onlyDifferent=true&limit=1`);
    expect(different.body).toMatchObject({ total: 1, totalPages: 1 });
    expect(different.body.items.map((i: { itemId: string }) => i.itemId)).toEqual(['i1']);
    expect(await compare(`ids=${ids.v1}`)).toEqual({ status: 400, body: { error: 'Invalid ids parameter: 2 to 5 distinct experiment ids, separated by commas' } });
    expect(await compare(`ids=${ids.v1},nope`)).toEqual({ status: 404, body: { error: 'Experiment "nope" not found' } });
  });

  it("links a run from the trace itself (JSON experiment field): checked, all or nothing, replacing the item's earlier run", async () => {
    const send = (traces: unknown[]) => post(ingestRoute, '/api/traces', { traces });
    const a = run(t('json-a'), ['search'], 'COMPLETED', 'ok', 0.01, 1);
    const b = run(t('json-b'), ['sql'], 'COMPLETED', 'ok', 0.01, 1);
    // A wrong experiment anywhere in the batch: 404 naming it, and neither trace is stored.
    expect(await answer(await send([{ ...a, experiment: { id: ids.v1, itemId: 'i3' } }, { ...b, experiment: { id: 'nope', itemId: 'i1' } }]))).toEqual({
      status: 404,
      body: { error: 'traces[1].experiment.id: experiment "nope" not found' },
    });
    expect(await answer(await send([{ ...b, experiment: { id: ids.v1, itemId: 'zz' } }]))).toEqual({
      status: 404,
      body: { error: `traces[0].experiment.itemId: item "zz" not found in the experiment's dataset` },
    });
    expect(await db.sql.query('SELECT 1 FROM "Trace" WHERE "id" = ANY($1)', [[t('json-a'), t('json-b')]])).toEqual([]);
    expect(await answer(await send([{ ...a, experiment: { id: ids.v1, itemId: 'i3', repetition: 100 } }]))).toEqual({
      status: 400,
      body: { error: 'traces[0].experiment.repetition must be an integer from 0 to 99' },
    });
    expect((await answer(await send([{ ...a, experiment: { itemId: 'i3' } }]))).body).toEqual({ error: 'traces[0].experiment.id is required and must be a non-empty string' });
    // Stored with the trace: v1's run of i3 is now this trace.
    expect((await send([{ ...a, experiment: { id: ids.v1, itemId: 'i3' } }])).status).toBe(200);
    const links = await db.sql.query<{ traceId: string }>('SELECT "traceId" FROM "ExperimentRun" WHERE "experimentId" = $1 AND "itemId" = $2', [ids.v1, 'i3']);
    expect(links).toEqual([{ traceId: t('json-a') }]);
  });
});
