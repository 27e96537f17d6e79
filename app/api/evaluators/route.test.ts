// Evaluators through their route handlers, on both databases: set up, changed and
// removed; live rule evaluators scoring ended traces that match their query (once each,
// however often the worker runs); experiment evaluators scoring runs as they are linked
// and on demand; the LLM judge against an OpenAI-compatible server on loopback (its
// prompt, its price, its retries on 429 and 5xx, its rate limit, a bad answer); and
// "Try on a trace", which stores nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as createDatasetRoute } from '@/app/api/datasets/route';
import { POST as itemsRoute } from '@/app/api/datasets/[name]/items/route';
import { POST as createExperimentRoute, GET as experimentsRoute } from '@/app/api/experiments/route';
import { GET as experimentRoute } from '@/app/api/experiments/[id]/route';
import { POST as linkRunsRoute } from '@/app/api/experiments/[id]/runs/route';
import { POST as evaluateRoute } from '@/app/api/experiments/[id]/evaluate/route';
import { POST as ingestRoute } from '@/app/api/traces/route';
import { GET as scoresRoute } from '@/app/api/scores/route';
import { systemContext } from '@/lib/core/context';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { sql } from '@/lib/db/sql';
import { evaluationScoreId, resetJudgeRateLimits, runEvaluations } from '@/lib/features/evaluators';
import { resetAccess } from '@/test/support/access';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { startJudgeServer, type JudgeServer } from '@/test/support/judge-server';
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from './[id]/route';
import { POST as tryRoute } from './try/route';
import { GET as listRoute, POST as createRoute } from './route';

const JSON_HEADERS = { authorization: 'Bearer evaluators-route-key', 'content-type': 'application/json' };
type Handler = (req: Request, ctx: never) => Promise<Response>;
const call = async (handler: Handler, method: string, url: string, value?: unknown, params: Record<string, string> = {}) => {
  const res = await handler(new Request(`http://x${url}`, { method, headers: JSON_HEADERS, body: value === undefined ? undefined : JSON.stringify(value) }), { params: Promise.resolve(params) } as never);
  // The JSON as parsed (loosely typed): the assertions say what it must hold.
  return { status: res.status, body: await res.json() };
};

const start = Date.UTC(2026, 0, 2, 3, 0, 0);
const at = (ms: number) => new Date(start + ms).toISOString();

/** A run: its tool choices in order, its output, cost and duration. */
function run(id: string, name: string, tools: string[], output: string, cost: number, extra: Record<string, unknown> = {}) {
  return makeTrace({
    id,
    name,
    status: 'COMPLETED',
    totalCost: cost,
    startedAt: at(0),
    endedAt: at(2000),
    decisionPoints: tools.map((tool, i) => ({ id: `d${i}`, type: 'TOOL_SELECTION', chosen: { tool }, alternatives: [{ tool: 'search' }, { tool: 'escalate' }], reasoning: `step ${i}`, parentSpanId: 'root', timestamp: at(100 + i * 100) })),
    spans: [
      { id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', input: { question: `question of ${id}` }, output: { answer: output }, startedAt: at(0), endedAt: at(2000) },
      ...tools.map((tool, i) => ({ id: `tool${i}`, parentSpanId: 'root', name: tool, type: 'TOOL_CALL', status: 'COMPLETED', input: { q: i }, output: { rows: i + 1 }, startedAt: at(150 + i * 100), endedAt: at(190 + i * 100) })),
    ],
    events: [],
    ...extra,
  });
}

describe.each(testDatabases())('evaluators on $name', ({ open }) => {
  let db: Database;
  let judge: JudgeServer;
  const prefix = uid('ev').slice(0, 40);
  const name = (n: string) => `${prefix}-${n}`;
  const work = () => runEvaluations(systemContext(db, 'evaluators test'), { budgetMs: 60_000 });
  const evalScores = async (traceId: string) =>
    db.sql.query<{ name: string; value: number | null; stringValue: string | null; comment: string | null; authorKind: string; authorName: string; metadata: { evaluator?: unknown; judge: { costUsd: number } }; source: string }>(
      sql`SELECT "name", "value", "stringValue", "comment", "authorKind", "authorName", "metadata", "source"::text FROM "Score" WHERE "traceId" = ${traceId} AND "source" = 'EVAL' ORDER BY "name"`,
    );
  const jobs = async (evaluatorId: string) =>
    db.sql.query<{ traceId: string; state: string; attempts: number; error: string | null; notBefore: string }>(
      sql`SELECT "traceId", "state", "attempts", "error", "notBefore"::text FROM "EvaluationJob" WHERE "evaluatorId" = ${evaluatorId} ORDER BY "traceId"`,
    );
  const create = async (body: Record<string, unknown>) => {
    const res = await call(createRoute, 'POST', '/api/evaluators', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.evaluator as { id: string; name: string };
  };
  const disableAll = async () => db.sql.exec(`UPDATE "Evaluator" SET "enabled" = false`);

  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    resetAccess();
    judge = await startJudgeServer();
  });
  beforeEach(() => {
    process.env.JUDGE_BASE_URL = judge.baseUrl;
    process.env.JUDGE_API_KEY = 'judge-key';
    process.env.JUDGE_MODEL = 'gpt-4o-mini';
    resetJudgeRateLimits();
  });
  afterAll(async () => {
    delete process.env.JUDGE_BASE_URL;
    delete process.env.JUDGE_API_KEY;
    delete process.env.JUDGE_MODEL;
    await judge.close();
    await db.close();
  });

  it('creates, lists, reads, changes and deletes an evaluator, refusing bad input with the field named', async () => {
    const body = { name: name('refund'), kind: 'contains', config: { value: 'refund', ignoreCase: true }, scoreName: 'mentions_refund', target: { on: 'live', query: 'name=support', sampleRate: 0.5 }, enabled: false };
    const created = await call(createRoute, 'POST', '/api/evaluators', body);
    expect(created.status).toBe(201);
    expect(created.body.evaluator).toMatchObject({ name: name('refund'), kind: 'contains', config: { value: 'refund', ignoreCase: true }, scoreName: 'mentions_refund', target: { on: 'live', dataset: null, query: 'name=support', sampleRate: 0.5 }, enabled: false });
    expect(created.body.evaluator.createdAt).toMatch(/Z$/);
    const id = created.body.evaluator.id as string;
    expect(await call(createRoute, 'POST', '/api/evaluators', body)).toEqual({ status: 409, body: { error: `An evaluator named "${name('refund')}" already exists` } });

    const refusals: Array<[Record<string, unknown>, number, string]> = [
      [{ ...body, name: name('x'), kind: 'fuzzy' }, 400, 'kind must be one of exact_match, contains, regex, expected_decisions, max_cost, max_duration, json_schema, llm_judge'],
      [{ ...body, name: name('x'), kind: 'regex', config: { pattern: '(' } }, 400, 'config.pattern is not a valid regular expression'],
      [{ ...body, name: name('x'), kind: 'json_schema', config: { schema: { type: 'nope' } } }, 400, 'config.schema is not a valid JSON Schema'],
      [{ ...body, name: name('x'), kind: 'llm_judge', config: {} }, 400, 'config.prompt is required for llm_judge'],
      [{ ...body, name: name('x'), target: { on: 'experiments' } }, 400, 'target.dataset is required with "on": "experiments"'],
      [{ ...body, name: name('x'), target: { on: 'experiments', dataset: 'no-such-dataset' } }, 404, 'target.dataset: dataset "no-such-dataset" not found'],
      [{ ...body, name: name('x'), target: { on: 'live', query: 'status=DONE' } }, 400, 'target.query: Invalid status parameter: must be one of RUNNING, COMPLETED, ERROR'],
      [{ ...body, name: name('x'), target: { on: 'live', sampleRate: 2 } }, 400, 'target.sampleRate must be a number from 0 to 1'],
      [{ ...body, name: '' }, 400, 'name is required: a non-empty string'],
      [{ ...body, name: name('x'), scoreName: undefined }, 400, 'scoreName is required: a non-empty string'],
    ];
    for (const [bad, status, error] of refusals) {
      const res = await call(createRoute, 'POST', '/api/evaluators', bad);
      expect(res.status, error).toBe(status);
      expect(res.body.error).toContain(error);
    }

    const listed = await call(listRoute, 'GET', '/api/evaluators');
    expect(listed.body.evaluators.map((e: { id: string }) => e.id)).toContain(id);
    const read = await call(getRoute, 'GET', `/api/evaluators/${id}`, undefined, { id });
    expect(read.body).toMatchObject({ evaluator: { id }, jobs: { queued: 0, running: 0, done: 0, skipped: 0, failed: 0, lastError: null } });

    const patched = await call(patchRoute, 'PATCH', `/api/evaluators/${id}`, { enabled: true, config: { value: 'REFUND' } }, { id });
    expect(patched.status).toBe(200);
    expect(patched.body.evaluator).toMatchObject({ enabled: true, config: { value: 'REFUND' }, target: { query: 'name=support', sampleRate: 0.5 } });
    expect((await call(patchRoute, 'PATCH', `/api/evaluators/${id}`, { id: 'other' }, { id })).body.error).toBe('id cannot be changed: give any of name, kind, config, scoreName, target, enabled');
    expect((await call(patchRoute, 'PATCH', `/api/evaluators/${id}`, { kind: 'regex' }, { id })).body.error).toBe('config.pattern is required for regex');

    expect(await call(deleteRoute, 'DELETE', `/api/evaluators/${id}`, undefined, { id })).toEqual({ status: 200, body: { success: true } });
    expect(await call(getRoute, 'GET', `/api/evaluators/${id}`, undefined, { id })).toEqual({ status: 404, body: { error: 'Evaluator not found' } });
    expect((await call(deleteRoute, 'DELETE', `/api/evaluators/${id}`, undefined, { id })).status).toBe(404);
  });

  it('refuses an llm_judge when the judge is not configured, and a half-configured judge at start', async () => {
    delete process.env.JUDGE_BASE_URL;
    delete process.env.JUDGE_API_KEY;
    delete process.env.JUDGE_MODEL;
    const res = await call(createRoute, 'POST', '/api/evaluators', { name: name('judge-off'), kind: 'llm_judge', config: { prompt: 'Rate {{output}}' }, scoreName: 'quality', target: { on: 'live' } });
    expect(res).toEqual({ status: 400, body: { error: 'kind llm_judge needs the judge configured on the server: JUDGE_BASE_URL and JUDGE_MODEL (docs/evaluation.md)' } });
    process.env.JUDGE_BASE_URL = 'ftp://judge';
    process.env.JUDGE_MODEL = 'm';
    const { validateConfig } = await import('@/lib/core/config');
    expect(() => validateConfig()).toThrow('JUDGE_BASE_URL must be an http(s) URL, got "ftp://judge"');
    delete process.env.JUDGE_BASE_URL;
    expect(() => validateConfig()).toThrow('JUDGE_BASE_URL and JUDGE_MODEL are both needed for the LLM judge (JUDGE_API_KEY is optional)');
  });

  it('scores every ended trace matching a live evaluator\'s query once, with source EVAL and the evaluator as author', async () => {
    await disableAll();
    const contains = await create({ name: name('live-contains'), kind: 'contains', config: { value: 'refund', ignoreCase: true }, scoreName: 'mentions_refund', target: { on: 'live', query: `name=${name('support')}` } });
    const cost = await create({ name: name('live-cost'), kind: 'max_cost', config: { max: 0.05 }, scoreName: 'cheap', target: { on: 'live' } });
    const schema = await create({ name: name('live-schema'), kind: 'json_schema', config: { schema: { type: 'object', required: ['answer', 'order'] } }, scoreName: 'shaped', target: { on: 'live' } });
    const never = await create({ name: name('live-never'), kind: 'max_cost', config: { max: 1 }, scoreName: 'never', target: { on: 'live', sampleRate: 0 } });
    const traces = [
      run(name('l1'), name('support'), ['lookup'], 'Your Refund is on its way', 0.01),
      run(name('l2'), name('support'), ['search'], 'We cannot help', 0.09),
      run(name('l3'), name('other'), [], 'refund', 0.01),
    ];
    expect((await call(ingestRoute, 'POST', '/api/traces', { traces })).status).toBe(200);
    // Ingest queued each ended trace once; the worker makes each live evaluator's jobs.
    const queued = await db.sql.query<{ traceId: string }>(sql`SELECT "traceId" FROM "EvaluationQueue" WHERE "traceId" LIKE ${`${prefix}-l%`} ORDER BY 1`);
    expect(queued.map((q) => q.traceId)).toEqual([name('l1'), name('l2'), name('l3')]);
    expect(await jobs(contains.id)).toEqual([]);

    const report = await work();
    expect(await db.sql.query(sql`SELECT 1 FROM "EvaluationQueue"`)).toEqual([]);
    expect(await jobs(never.id)).toEqual([]);
    expect(report).toMatchObject({ evaluated: 3 + 3 + 2 - 0, skipped: 1, failed: 0, drained: true });
    const l1 = await evalScores(name('l1'));
    expect(l1.map((s) => [s.name, s.value, s.authorKind, s.authorName, s.source])).toEqual([
      ['cheap', 1, 'evaluator', name('live-cost'), 'EVAL'],
      ['mentions_refund', 1, 'evaluator', name('live-contains'), 'EVAL'],
      ['shaped', 0, 'evaluator', name('live-schema'), 'EVAL'],
    ]);
    expect(l1.find((s) => s.name === 'shaped')!.comment).toBe("Not valid: (the output) must have required property 'order'.");
    expect(l1[0].metadata).toEqual({ evaluator: { id: cost.id, name: name('live-cost'), kind: 'max_cost' } });
    expect((await evalScores(name('l2'))).map((s) => [s.name, s.value])).toEqual([['cheap', 0], ['mentions_refund', 0], ['shaped', 0]]);
    expect((await evalScores(name('l3'))).map((s) => s.name)).toEqual(['cheap', 'shaped']);
    expect((await jobs(contains.id)).map((j) => [j.traceId, j.state, j.error])).toEqual([
      [name('l1'), 'done', null],
      [name('l2'), 'done', null],
      [name('l3'), 'skipped', "The trace does not match the evaluator's query."],
    ]);

    // The API shows them as it shows every score.
    const listed = await call(scoresRoute, 'GET', `/api/scores?traceId=${name('l1')}&source=EVAL`);
    expect(listed.body.scores.map((s: { author: unknown; source: string }) => [s.author, s.source])[0]).toEqual([{ kind: 'evaluator', name: expect.any(String) }, 'EVAL']);

    // Running again evaluates nothing twice.
    expect(await work()).toMatchObject({ evaluated: 0, skipped: 0, failed: 0, drained: true });
    const [{ n }] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "Score" WHERE "source" = 'EVAL' AND "traceId" LIKE ${`${prefix}-l%`}`);
    expect(n).toBe(8);
    expect((await call(getRoute, 'GET', `/api/evaluators/${contains.id}`, undefined, { id: contains.id })).body.jobs).toMatchObject({ done: 2, skipped: 1 });

    // A disabled evaluator queues nothing; deleting one keeps its scores and drops its queue.
    await call(patchRoute, 'PATCH', `/api/evaluators/${cost.id}`, { enabled: false }, { id: cost.id });
    expect((await call(ingestRoute, 'POST', '/api/traces', { traces: [run(name('l4'), name('other'), [], 'x', 0)] })).status).toBe(200);
    await work();
    expect((await jobs(cost.id)).map((j) => j.traceId)).not.toContain(name('l4'));
    expect((await jobs(schema.id)).map((j) => j.traceId)).toContain(name('l4'));
    await call(deleteRoute, 'DELETE', `/api/evaluators/${contains.id}`, undefined, { id: contains.id });
    expect(await jobs(contains.id)).toEqual([]);
    expect((await evalScores(name('l1'))).map((s) => s.name)).toContain('mentions_refund');
  });

  it('scores the runs of a dataset\'s experiments against their items as they are linked, and on demand', async () => {
    await disableAll();
    const dataset = name('ds');
    expect((await call(createDatasetRoute, 'POST', '/api/datasets', { name: dataset })).status).toBe(201);
    const items = [
      { id: 'i1', input: 'where is my order?', expectedOutput: { answer: 'Shipped' }, expectedDecisions: [{ chosen: { tool: 'lookup' } }, { chosen: { tool: 'reply' } }] },
      { id: 'i2', input: 'refund please', expectedOutput: { answer: 'Refunded' } },
    ];
    expect((await call(itemsRoute, 'POST', `/api/datasets/${dataset}/items`, { items }, { name: dataset })).status).toBe(200);
    const experiment = await call(createExperimentRoute, 'POST', '/api/experiments', { dataset, name: 'v1' });
    const experimentId = experiment.body.experiment.id as string;
    // A run linked before the evaluator exists: scored only on demand.
    expect((await call(ingestRoute, 'POST', '/api/traces', { traces: [run(name('x0'), 'agent', ['lookup', 'reply'], 'Shipped', 0.01, { experiment: { id: experimentId, itemId: 'i1' } })] })).status).toBe(200);

    const decisions = await create({ name: name('exp-decisions'), kind: 'expected_decisions', config: {}, scoreName: 'right_path', target: { on: 'experiments', dataset } });
    await create({ name: name('exp-judge'), kind: 'llm_judge', config: { prompt: 'Expected: {{expected}}\nGot: {{output}}\n{{decisions}}' }, scoreName: 'judged', target: { on: 'experiments', dataset } });
    judge.reply(() => ({ content: '{"score": 0.9, "reasoning": "close"}' }));
    const asked = judge.requests.length;
    const exact = await create({ name: name('exp-exact'), kind: 'exact_match', config: {}, scoreName: 'exact', target: { on: 'experiments', dataset } });
    expect((await call(getRoute, 'GET', `/api/evaluators/${exact.id}`, undefined, { id: exact.id })).body.evaluator.target).toEqual({ on: 'experiments', dataset, query: '', sampleRate: 1 });
    const traces = [
      run(name('x1'), 'agent', ['search', 'reply', 'reply'], 'Shipped', 0.01, { experiment: { id: experimentId, itemId: 'i1', repetition: 1 } }),
      run(name('x2'), 'agent', [], 'Refunded', 0.01),
    ];
    expect((await call(ingestRoute, 'POST', '/api/traces', { traces })).status).toBe(200);
    // x2 is linked after the fact.
    expect((await call(linkRunsRoute, 'POST', `/api/experiments/${experimentId}/runs`, { runs: [{ itemId: 'i2', traceId: name('x2') }] }, { id: experimentId })).status).toBe(200);
    expect(await work()).toMatchObject({ evaluated: 5, skipped: 1, failed: 0 });
    expect((await evalScores(name('x1'))).map((s) => [s.name, s.value, s.comment])).toEqual([
      ['exact', 1, 'The output equals the expected one.'],
      ['judged', 0.9, 'close'],
      ['right_path', 0.5, '1 of 2 decisions as expected; decision 1 chose search, expected lookup.'],
    ]);
    // The judge sees the item's expectations beside the run.
    const prompts = judge.requests.slice(asked).map((r) => r.messages[1].content);
    expect(prompts).toContain('Expected: {"answer":"Shipped"}\nGot: {"answer":"Shipped"}\nTaken:\n1. TOOL_SELECTION: search\n2. TOOL_SELECTION: reply\nExpected:\n1. lookup\n2. reply');
    // i2 has no expected decisions: nothing to judge, no score.
    expect((await evalScores(name('x2'))).map((s) => [s.name, s.value])).toEqual([['exact', 1], ['judged', 0.9]]);
    expect(await evalScores(name('x0'))).toEqual([]);

    const queued = await call(evaluateRoute, 'POST', `/api/experiments/${experimentId}/evaluate`, undefined, { id: experimentId });
    expect(queued).toEqual({ status: 202, body: { queued: 3, evaluators: 3 } });
    expect(await work()).toMatchObject({ evaluated: 3 });
    expect((await evalScores(name('x0'))).map((s) => [s.name, s.value])).toEqual([['exact', 1], ['judged', 0.9], ['right_path', 1]]);
    expect((await call(evaluateRoute, 'POST', `/api/experiments/${experimentId}/evaluate`, undefined, { id: experimentId })).body).toEqual({ queued: 0, evaluators: 3 });
    expect((await call(evaluateRoute, 'POST', '/api/experiments/nope/evaluate', undefined, { id: 'nope' })).status).toBe(404);

    // The summary counts the evaluators' scores as it counts every score.
    const summary = await call(experimentRoute, 'GET', `/api/experiments/${experimentId}`, undefined, { id: experimentId });
    expect(Object.keys(summary.body.summary.scores)).toEqual(expect.arrayContaining(['exact', 'right_path']));
    void experimentsRoute;
    void decisions;
  });

  it('asks the LLM judge with the whole run, records its price, retries on 429 and 5xx, and fails a bad answer', async () => {
    await disableAll();
    const prompt = 'Question: {{input}}\nAnswer: {{output}}\nExpected: {{expected}}\nDecisions:\n{{decisions}}\nRun:\n{{trajectory}}';
    const judgeEv = await create({ name: name('judge'), kind: 'llm_judge', config: { prompt }, scoreName: 'helpful', target: { on: 'live', query: `name=${name('judged')}` } });
    judge.reply(() => ({ content: JSON.stringify({ score: 0.8, reasoning: 'Looked the order up before answering.' }), usage: { prompt_tokens: 2000, completion_tokens: 100 } }));
    const before = judge.requests.length;
    expect((await call(ingestRoute, 'POST', '/api/traces', { traces: [run(name('j1'), name('judged'), ['lookup', 'reply'], 'Shipped', 0.01)] })).status).toBe(200);
    expect(await work()).toMatchObject({ evaluated: 1, failed: 0 });
    const [asked] = judge.requests.slice(before);
    expect(asked.authorization).toBe('Bearer judge-key');
    expect(asked.model).toBe('gpt-4o-mini');
    expect(asked.response_format).toEqual({ type: 'json_object' });
    expect(asked.messages[0].content).toContain('"score": a number from 0 (worst) to 1 (best)');
    const user = asked.messages[1].content;
    expect(user).toContain(`Question: {"question":"question of ${name('j1')}"}`);
    expect(user).toContain('Answer: {"answer":"Shipped"}');
    expect(user).toContain('Expected: (none)');
    expect(user).toContain('1. TOOL_SELECTION: lookup\n2. TOOL_SELECTION: reply');
    expect(user).toMatch(/AGENT agent COMPLETED 2000ms \| in: \{"question": "question of [^"]+"\} \| out: \{"answer": "Shipped"\}/);
    expect(user).toContain('  DECISION TOOL_SELECTION: chose lookup over search, escalate because: step 0');
    expect(user).toContain('  TOOL_CALL lookup COMPLETED 40ms | in: {"q": 0} | out: {"rows": 1}');
    const [score] = await evalScores(name('j1'));
    expect(score).toMatchObject({ name: 'helpful', value: 0.8, comment: 'Looked the order up before answering.', authorName: name('judge') });
    expect(score.metadata.judge).toMatchObject({ model: 'gpt-4o-mini', promptTokens: 2000, completionTokens: 100 });
    // gpt-4o-mini: $0.15 per million input tokens, $0.60 per million output.
    expect(score.metadata.judge.costUsd).toBeCloseTo((2000 * 0.15 + 100 * 0.6) / 1e6, 9);

    // 429 with Retry-After, then a 503: queued again each time, then answered.
    let calls = 0;
    judge.reply(() => (++calls === 1 ? { status: 429, retryAfter: '0' } : calls === 2 ? { status: 503 } : { content: '```json\n{"score": "1", "reasoning": "ok"}\n```' }));
    expect((await call(ingestRoute, 'POST', '/api/traces', { traces: [run(name('j2'), name('judged'), [], 'ok', 0)] })).status).toBe(200);
    // Retry-After: 0 lets the same run try again at once; the 503's backoff holds it.
    expect(await work()).toMatchObject({ evaluated: 0, retried: 2 });
    expect(await work()).toMatchObject({ evaluated: 0, retried: 0 });
    const waiting = (await jobs(judgeEv.id)).find((j) => j.traceId === name('j2'))!;
    expect(waiting).toMatchObject({ state: 'queued', attempts: 2, error: expect.stringContaining('The judge answered 503') });
    expect(new Date(waiting.notBefore).getTime()).toBeGreaterThan(Date.now());
    // Time passes.
    await db.sql.exec(`UPDATE "EvaluationJob" SET "notBefore" = now() WHERE "state" = 'queued'`);
    expect(await work()).toMatchObject({ evaluated: 1 });
    expect((await evalScores(name('j2')))[0]).toMatchObject({ value: 1, comment: 'ok' });

    // An answer that is not the JSON asked for fails the evaluation, with why.
    judge.reply(() => ({ content: 'I think it was fine.' }));
    expect((await call(ingestRoute, 'POST', '/api/traces', { traces: [run(name('j3'), name('judged'), [], 'ok', 0)] })).status).toBe(200);
    expect(await work()).toMatchObject({ failed: 1 });
    expect((await jobs(judgeEv.id)).find((j) => j.traceId === name('j3'))).toMatchObject({ state: 'failed', error: 'The judge did not answer JSON: I think it was fine.' });
    expect((await call(getRoute, 'GET', `/api/evaluators/${judgeEv.id}`, undefined, { id: judgeEv.id })).body.jobs).toMatchObject({ done: 2, failed: 1, lastError: 'The judge did not answer JSON: I think it was fine.' });
  });

  it('holds the judge to its rate limit and gives categories as a CATEGORICAL score', async () => {
    await disableAll();
    await create({ name: name('judge-cat'), kind: 'llm_judge', config: { prompt: 'Rate {{output}}', categories: ['good', 'bad'], ratePerMinute: 2 }, scoreName: 'verdict', target: { on: 'live', query: `name=${name('rated')}` } });
    judge.reply(() => ({ content: '{"score": "good", "reasoning": "fine"}' }));
    const traces = [1, 2, 3].map((i) => run(name(`r${i}`), name('rated'), [], 'x', 0));
    expect((await call(ingestRoute, 'POST', '/api/traces', { traces })).status).toBe(200);
    expect(await work()).toMatchObject({ evaluated: 2, drained: true });
    expect(await work()).toMatchObject({ evaluated: 0 });
    const scored = await db.sql.query<{ stringValue: string; dataType: string }>(sql`SELECT "stringValue", "dataType"::text FROM "Score" WHERE "name" = 'verdict'`);
    expect(scored).toEqual([
      { stringValue: 'good', dataType: 'CATEGORICAL' },
      { stringValue: 'good', dataType: 'CATEGORICAL' },
    ]);
    resetJudgeRateLimits();
    expect(await work()).toMatchObject({ evaluated: 1 });
  });

  it('tries an evaluator on a trace without storing anything', async () => {
    await disableAll();
    expect((await call(ingestRoute, 'POST', '/api/traces', { traces: [run(name('t1'), name('tried'), ['lookup'], 'Refund sent', 0.2)] })).status).toBe(200);
    const before = await db.sql.query(sql`SELECT 1 FROM "Score"`);
    const regex = await call(tryRoute, 'POST', '/api/evaluators/try', { traceId: name('t1'), evaluator: { kind: 'regex', config: { pattern: 'refund', ignoreCase: true } } });
    expect(regex).toEqual({ status: 200, body: { result: { dataType: 'BOOLEAN', value: true, comment: 'Matches /refund/.', metadata: null }, note: null } });
    const nothing = await call(tryRoute, 'POST', '/api/evaluators/try', { traceId: name('t1'), evaluator: { kind: 'exact_match', config: {} } });
    expect(nothing.body).toEqual({ result: null, note: 'Nothing to judge: the run has no expectation or figure this evaluator compares.' });
    judge.reply(() => ({ content: '{"score": 0.25, "reasoning": "Too expensive."}' }));
    const judged = await call(tryRoute, 'POST', '/api/evaluators/try', { traceId: name('t1'), evaluator: { kind: 'llm_judge', config: { prompt: 'Rate {{output}}' } } });
    expect(judged.body.result).toMatchObject({ dataType: 'NUMERIC', value: 0.25, comment: 'Too expensive.', metadata: { judge: { model: 'gpt-4o-mini' } } });
    const saved = await create({ name: name('try-saved'), kind: 'max_cost', config: { max: 0.1 }, scoreName: 'cheap', target: { on: 'live' }, enabled: false });
    expect((await call(tryRoute, 'POST', '/api/evaluators/try', { traceId: name('t1'), evaluatorId: saved.id })).body.result).toMatchObject({ value: false, comment: 'Cost $0.2 over $0.1.' });
    expect(await call(tryRoute, 'POST', '/api/evaluators/try', { traceId: 'missing', evaluatorId: saved.id })).toEqual({ status: 404, body: { error: 'trace "missing" not found' } });
    judge.reply(() => ({ status: 401, message: 'bad key' }));
    const refused = await call(tryRoute, 'POST', '/api/evaluators/try', { traceId: name('t1'), evaluator: { kind: 'llm_judge', config: { prompt: 'Rate {{output}}' } } });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toContain('The judge answered 401');
    expect(await db.sql.query(sql`SELECT 1 FROM "Score"`)).toHaveLength(before.length);
    expect(evaluationScoreId('a', 'b')).toBe(evaluationScoreId('a', 'b'));
  });
});
