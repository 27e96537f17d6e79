// Every data route × every kind of credential, through the real route handlers, with the
// exact status and message each pair must get; then the seed contract's messages, Basic
// for reads, and sessions ending. Open mode is in open-mode.test.ts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DELETE as deleteKeyRoute } from '@/app/api/api-keys/[id]/route';
import { GET as listKeysRoute, POST as createKeyRoute } from '@/app/api/api-keys/route';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { GET as decisionsRoute } from '@/app/api/insights/decisions/route';
import { GET as pathsRoute } from '@/app/api/insights/paths/route';
import { GET as pathReviewsRoute } from '@/app/api/insights/paths/reviews/route';
import { GET as overviewRoute } from '@/app/api/insights/overview/route';
import { GET as scoreSeriesRoute } from '@/app/api/insights/scores/route';
import { POST as otlpRoute } from '@/app/api/otel/v1/traces/route';
import { DELETE as deleteTraceRoute, GET as detailRoute } from '@/app/api/traces/[id]/route';
import { POST as nextReviewRoute } from '@/app/api/review/next/route';
import { DELETE as deleteConfigRoute, PATCH as patchConfigRoute } from '@/app/api/score-configs/[id]/route';
import { GET as listConfigsRoute, POST as createConfigRoute } from '@/app/api/score-configs/route';
import { DELETE as deleteScoreRoute } from '@/app/api/scores/[id]/route';
import { GET as listScoresRoute, POST as saveScoresRoute } from '@/app/api/scores/route';
import { GET as exportRoute } from '@/app/api/traces/export/route';
import { GET as suggestRoute } from '@/app/api/traces/suggest/route';
import { DELETE as deleteSessionRoute, GET as listRoute, POST as ingestRoute } from '@/app/api/traces/route';
import { DELETE as deleteUserRoute, PATCH as patchUserRoute } from '@/app/api/users/[id]/route';
import { GET as listUsersRoute, POST as createUserRoute } from '@/app/api/users/route';
import { DELETE as deleteViewRoute } from '@/app/api/views/[id]/route';
import { GET as listItemsRoute, POST as addItemsRoute } from '@/app/api/datasets/[name]/items/route';
import { POST as uploadItemsRoute } from '@/app/api/datasets/[name]/items/upload/route';
import { DELETE as deleteDatasetRoute, GET as getDatasetRoute } from '@/app/api/datasets/[name]/route';
import { GET as listDatasetsRoute, POST as createDatasetRoute } from '@/app/api/datasets/route';
import { GET as compareExperimentsRoute } from '@/app/api/experiments/compare/route';
import { GET as getExperimentRoute } from '@/app/api/experiments/[id]/route';
import { POST as linkRunsRoute } from '@/app/api/experiments/[id]/runs/route';
import { GET as listExperimentsRoute, POST as createExperimentRoute } from '@/app/api/experiments/route';
import { POST as evaluateExperimentRoute } from '@/app/api/experiments/[id]/evaluate/route';
import { GET as listEvaluatorsRoute, POST as createEvaluatorRoute } from '@/app/api/evaluators/route';
import { DELETE as deleteEvaluatorRoute, GET as getEvaluatorRoute, PATCH as patchEvaluatorRoute } from '@/app/api/evaluators/[id]/route';
import { POST as tryEvaluatorRoute } from '@/app/api/evaluators/try/route';
import { GET as listViewsRoute, POST as saveViewRoute } from '@/app/api/views/route';
import { POST as mcpRoute } from '@/app/api/mcp/route';
import { parseSaveViewBody, saveView } from '@/lib/features/views';
import { contextAs } from '@/test/support/context';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { basic, bearer, expectError, makeKey, makeUser, ORIGIN, resetAccess, signIn } from '@/test/support/access';

const MISSING = 'Missing or invalid Authorization header';
const INVALID = 'Invalid API key';
const ENV_KEY = 'env-key-1';

type HeaderMap = Record<string, string>;
const get = (url: string, headers: HeaderMap) => new Request(`${ORIGIN}${url}`, { headers });
const send = (method: string, url: string, headers: HeaderMap, body: unknown) =>
  new Request(`${ORIGIN}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const params = (id: string) => ({ params: Promise.resolve({ id }) });

type Victim = 'key' | 'user' | 'trace' | 'score' | 'config' | 'view' | 'dataset' | 'evaluator';

interface World {
  traceId: string;
  /** A dataset every read finds, with an item "item-1" and two experiments. */
  dataset: string;
  experiments: [string, string];
  adminId: string;
  /** A key or a person nobody uses, changed or removed by the routes that manage them when allowed. */
  victims: Record<Victim, () => Promise<string>>;
  /** The victim as stored now (null once removed), to prove a refusal changed nothing. */
  state: (kind: Victim, id: string) => Promise<unknown>;
}

/** What a request with a given route gets when it is allowed; checked beyond the status. */
type Success = (res: Response, world: World, victim: string | null) => Promise<void>;

interface RouteCase {
  name: string;
  call: (headers: HeaderMap, world: World, victim: string | null) => Promise<Response>;
  ok: Success;
  /** The OTLP route answers google.rpc.Status instead of { error }. */
  otlp?: boolean;
  /** Needs a victim made before the call (a trace victim is alone in a session of its id). */
  victim?: Victim;
}

const ROUTES: RouteCase[] = [
  {
    name: 'POST /api/traces',
    call: (h) => ingestRoute(send('POST', '/api/traces', h, { traces: [makeTrace()] })),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, count: 1 });
    },
  },
  {
    name: 'GET /api/traces',
    call: (h) => listRoute(get('/api/traces?limit=100', h)),
    ok: async (res, w) => {
      expect(res.status).toBe(200);
      const body = (await res.json()) as { traces: { id: string }[] };
      expect(body.traces.map((t) => t.id)).toContain(w.traceId);
    },
  },
  {
    name: 'GET /api/traces/{id}',
    call: (h, w) => detailRoute(get(`/api/traces/${w.traceId}`, h), params(w.traceId)),
    ok: async (res, w) => {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { trace: { id: string } }).trace.id).toBe(w.traceId);
    },
  },
  {
    name: 'GET /api/traces/export',
    call: (h) => exportRoute(get('/api/traces/export?format=ndjson', h)),
    ok: async (res, w) => {
      expect(res.status).toBe(200);
      const ids = (await res.text()).trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
      expect(ids).toContain(w.traceId);
    },
  },
  {
    name: 'GET /api/traces/suggest',
    call: (h) => suggestRoute(get('/api/traces/suggest?field=name', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { values: string[] }).values.length).toBeGreaterThan(0);
    },
  },
  {
    name: 'GET /api/insights/overview',
    call: (h) => overviewRoute(get('/api/insights/overview?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { totals: { traces: number } }).totals.traces).toBeGreaterThan(0);
    },
  },
  {
    name: 'GET /api/insights/paths/reviews',
    call: (h) => pathReviewsRoute(get('/api/insights/paths/reviews?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { branches: unknown[] }).branches).toEqual([]);
    },
  },
  {
    name: 'GET /api/insights/decisions',
    call: (h) => decisionsRoute(get('/api/insights/decisions?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { totals: { traces: number } }).totals.traces).toBeGreaterThan(0);
    },
  },
  {
    name: 'POST /api/mcp',
    // One stateless JSON-RPC exchange: get_trace through the MCP server.
    call: (h, w) =>
      mcpRoute(
        send('POST', '/api/mcp', { ...h, accept: 'application/json, text/event-stream' }, {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_trace', arguments: { traceId: w.traceId } },
        }),
      ),
    ok: async (res, w) => {
      expect(res.status).toBe(200);
      const body = (await res.json()) as { result: { isError?: boolean; structuredContent: { trace: { id: string } } } };
      expect(body.result.isError).toBeFalsy();
      expect(body.result.structuredContent.trace.id).toBe(w.traceId);
    },
  },
  {
    name: 'GET /api/insights/scores',
    call: (h) => scoreSeriesRoute(get('/api/insights/scores?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { bucket: string }).bucket).toBe('hour');
    },
  },
  {
    name: 'GET /api/insights/paths',
    call: (h) => pathsRoute(get('/api/insights/paths?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { totals: { traces: number } }).totals.traces).toBeGreaterThan(0);
    },
  },
  {
    name: 'POST /api/otel/v1/traces',
    otlp: true,
    call: (h) => otlpRoute(send('POST', '/api/otel/v1/traces', h, { resourceSpans: [] })),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
    },
  },
  {
    name: 'GET /api/users',
    call: (h) => listUsersRoute(get('/api/users', h)),
    ok: async (res, w) => {
      expect(res.status).toBe(200);
      const body = (await res.json()) as { users: { id: string; role: string }[] };
      expect(body.users).toContainEqual(expect.objectContaining({ id: w.adminId, role: 'admin' }));
    },
  },
  {
    name: 'POST /api/users',
    call: (h) => createUserRoute(send('POST', '/api/users', h, { email: `${uid('new')}@example.test`, password: 'a long password', role: 'viewer' })),
    ok: async (res) => {
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ id: expect.any(String) });
    },
  },
  {
    name: 'GET /api/api-keys',
    call: (h) => listKeysRoute(get('/api/api-keys', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      const body = (await res.json()) as { apiKeys: { scopes: string[] }[] };
      expect(body.apiKeys.map((k) => k.scopes)).toEqual(expect.arrayContaining([['ingest'], ['read']]));
    },
  },
  {
    name: 'POST /api/api-keys',
    call: (h) => createKeyRoute(send('POST', '/api/api-keys', h, { name: 'made in a test', scopes: ['read'] })),
    ok: async (res) => {
      expect(res.status).toBe(201);
      const body = (await res.json()) as { key: string; scopes: string[]; name: string };
      expect(body).toMatchObject({ name: 'made in a test', scopes: ['read'], key: expect.stringMatching(/^cr_\w{20,}$/) });
    },
  },
  {
    name: 'DELETE /api/api-keys/{id}',
    victim: 'key',
    call: (h, _w, victim) => deleteKeyRoute(new Request(`${ORIGIN}/api/api-keys/${victim}`, { method: 'DELETE', headers: h }), params(victim!)),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
      expect(await w.state('key', victim!)).toBeNull();
    },
  },
  {
    name: 'PATCH /api/users/{id}',
    victim: 'user',
    call: (h, _w, victim) => patchUserRoute(send('PATCH', `/api/users/${victim}`, h, { role: 'admin' }), params(victim!)),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
      expect(await w.state('user', victim!)).toEqual({ role: 'admin' });
    },
  },
  {
    name: 'DELETE /api/users/{id}',
    victim: 'user',
    call: (h, _w, victim) => deleteUserRoute(new Request(`${ORIGIN}/api/users/${victim}`, { method: 'DELETE', headers: h }), params(victim!)),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
      expect(await w.state('user', victim!)).toBeNull();
    },
  },
  {
    name: 'DELETE /api/traces/{id}',
    victim: 'trace',
    call: (h, _w, victim) => deleteTraceRoute(new Request(`${ORIGIN}/api/traces/${victim}`, { method: 'DELETE', headers: h }), params(victim!)),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, count: 1 });
      expect(await w.state('trace', victim!)).toBeNull();
    },
  },
  {
    name: 'DELETE /api/traces?sessionId=',
    victim: 'trace',
    call: (h, _w, victim) =>
      deleteSessionRoute(new Request(`${ORIGIN}/api/traces?sessionId=${encodeURIComponent(victim!)}`, { method: 'DELETE', headers: h })),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, count: 1 });
      expect(await w.state('trace', victim!)).toBeNull();
    },
  },
  {
    name: 'POST /api/datasets',
    call: (h) => createDatasetRoute(send('POST', '/api/datasets', h, { name: uid('matrix-ds').slice(0, 90) })),
    ok: async (res) => {
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ dataset: { itemCount: 0 } });
    },
  },
  {
    name: 'GET /api/datasets',
    call: (h) => listDatasetsRoute(get('/api/datasets', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ datasets: expect.any(Array), page: 1 });
    },
  },
  {
    name: 'GET /api/datasets/{name}',
    call: (h, w) => getDatasetRoute(get(`/api/datasets/${w.dataset}`, h), { params: Promise.resolve({ name: w.dataset }) }),
    ok: async (res, w) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ dataset: { name: w.dataset } });
    },
  },
  {
    name: 'POST /api/datasets/{name}/items',
    call: (h, w) => addItemsRoute(send('POST', `/api/datasets/${w.dataset}/items`, h, { items: [{ input: 'q' }] }), { params: Promise.resolve({ name: w.dataset }) }),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, count: 1 });
    },
  },
  {
    name: 'POST /api/datasets/{name}/items/upload',
    call: (h, w) =>
      uploadItemsRoute(send('POST', `/api/datasets/${w.dataset}/items/upload`, h, { format: 'csv', text: 'input,expectedOutput\nq,a\n' }), { params: Promise.resolve({ name: w.dataset }) }),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, count: 1 });
    },
  },
  {
    name: 'GET /api/datasets/{name}/items',
    call: (h, w) => listItemsRoute(get(`/api/datasets/${w.dataset}/items`, h), { params: Promise.resolve({ name: w.dataset }) }),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ items: expect.any(Array), page: 1 });
    },
  },
  {
    name: 'DELETE /api/datasets/{name}',
    victim: 'dataset',
    call: (h, _w, victim) => deleteDatasetRoute(new Request(`${ORIGIN}/api/datasets/${victim}`, { method: 'DELETE', headers: h }), { params: Promise.resolve({ name: victim! }) }),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await w.state('dataset', victim!)).toBeNull();
    },
  },
  {
    name: 'POST /api/experiments',
    call: (h, w) => createExperimentRoute(send('POST', '/api/experiments', h, { dataset: w.dataset, name: uid('matrix-exp') })),
    ok: async (res) => {
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ experiment: { id: expect.any(String) } });
    },
  },
  {
    name: 'GET /api/experiments?dataset=',
    call: (h, w) => listExperimentsRoute(get(`/api/experiments?dataset=${w.dataset}`, h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ experiments: expect.any(Array) });
    },
  },
  {
    name: 'GET /api/experiments/{id}',
    call: (h, w) => getExperimentRoute(get(`/api/experiments/${w.experiments[0]}`, h), params(w.experiments[0])),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ summary: { items: expect.any(Number) } });
    },
  },
  {
    name: 'POST /api/experiments/{id}/runs',
    call: (h, w) => linkRunsRoute(send('POST', `/api/experiments/${w.experiments[0]}/runs`, h, { runs: [{ itemId: 'item-1', traceId: w.traceId }] }), params(w.experiments[0])),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, count: 1 });
    },
  },
  {
    name: 'GET /api/experiments/compare',
    call: (h, w) => compareExperimentsRoute(get(`/api/experiments/compare?ids=${w.experiments.join(',')}`, h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ experiments: expect.any(Array), items: expect.any(Array) });
    },
  },
];

ROUTES.push(
  {
    name: 'POST /api/scores',
    call: (h, w) => saveScoresRoute(send('POST', '/api/scores', h, { scores: [{ traceId: w.traceId, name: 'matrix', value: true }] })),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, count: 1 });
    },
  },
  {
    name: 'GET /api/scores',
    call: (h, w) => listScoresRoute(get(`/api/scores?traceId=${encodeURIComponent(w.traceId)}`, h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { total: number }).total).toBeGreaterThan(0);
    },
  },
  {
    name: 'DELETE /api/scores/{id}',
    victim: 'score',
    call: (h, _w, victim) => deleteScoreRoute(new Request(`${ORIGIN}/api/scores/${victim}`, { method: 'DELETE', headers: h }), params(victim!)),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
      expect(await w.state('score', victim!)).toBeNull();
    },
  },
  {
    name: 'GET /api/views',
    call: (h) => listViewsRoute(get('/api/views', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(Array.isArray(((await res.json()) as { views: unknown[] }).views)).toBe(true);
    },
  },
  {
    name: 'POST /api/views',
    call: (h) => saveViewRoute(send('POST', '/api/views', h, { name: 'matrix', query: 'status=ERROR' })),
    ok: async (res) => {
      expect([200, 201]).toContain(res.status);
      expect(((await res.json()) as { view: { name: string } }).view.name).toBe('matrix');
    },
  },
  {
    // The victim is someone else's view: allowed callers are told it does not exist, and it stays.
    name: 'DELETE /api/views/{id}',
    victim: 'view',
    call: (h, _w, victim) => deleteViewRoute(new Request(`${ORIGIN}/api/views/${victim}`, { method: 'DELETE', headers: h }), params(victim!)),
    ok: async (res, w, victim) => {
      await expectError(res, 404, 'View not found');
      expect(await w.state('view', victim!)).not.toBeNull();
    },
  },
  {
    name: 'POST /api/review/next',
    call: (h) => nextReviewRoute(send('POST', '/api/review/next?type=TOOL_SELECTION', h, {})),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ progress: { total: expect.any(Number), reviewed: expect.any(Number) } });
    },
  },
  {
    name: 'GET /api/score-configs',
    call: (h) => listConfigsRoute(get('/api/score-configs', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(Array.isArray(((await res.json()) as { configs: unknown[] }).configs)).toBe(true);
    },
  },
  {
    name: 'POST /api/score-configs',
    call: (h) => createConfigRoute(send('POST', '/api/score-configs', h, { name: uid('config'), dataType: 'BOOLEAN' })),
    ok: async (res) => {
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ id: expect.any(String), dataType: 'BOOLEAN', categories: [] });
    },
  },
  {
    name: 'PATCH /api/score-configs/{id}',
    victim: 'config',
    call: (h, _w, victim) => patchConfigRoute(send('PATCH', `/api/score-configs/${victim}`, h, { description: 'changed' }), params(victim!)),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await w.state('config', victim!)).toEqual({ description: 'changed' });
    },
  },
  {
    name: 'DELETE /api/score-configs/{id}',
    victim: 'config',
    call: (h, _w, victim) => deleteConfigRoute(new Request(`${ORIGIN}/api/score-configs/${victim}`, { method: 'DELETE', headers: h }), params(victim!)),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await w.state('config', victim!)).toBeNull();
    },
  },
  {
    name: 'GET /api/evaluators',
    call: (h) => listEvaluatorsRoute(get('/api/evaluators', h)),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ evaluators: expect.any(Array) });
    },
  },
  {
    name: 'POST /api/evaluators',
    call: (h) => createEvaluatorRoute(send('POST', '/api/evaluators', h, { name: uid('matrix-ev'), kind: 'max_cost', config: { max: 1 }, scoreName: 'cheap', target: { on: 'live' }, enabled: false })),
    ok: async (res) => {
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ evaluator: { kind: 'max_cost', enabled: false } });
    },
  },
  {
    name: 'GET /api/evaluators/{id}',
    victim: 'evaluator',
    call: (h, _w, victim) => getEvaluatorRoute(get(`/api/evaluators/${victim}`, h), params(victim!)),
    ok: async (res, _w, victim) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ evaluator: { id: victim }, jobs: { queued: 0 } });
    },
  },
  {
    name: 'PATCH /api/evaluators/{id}',
    victim: 'evaluator',
    call: (h, _w, victim) => patchEvaluatorRoute(send('PATCH', `/api/evaluators/${victim}`, h, { config: { max: 2 } }), params(victim!)),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await w.state('evaluator', victim!)).toEqual({ config: { max: 2 } });
    },
  },
  {
    name: 'DELETE /api/evaluators/{id}',
    victim: 'evaluator',
    call: (h, _w, victim) => deleteEvaluatorRoute(new Request(`${ORIGIN}/api/evaluators/${victim}`, { method: 'DELETE', headers: h }), params(victim!)),
    ok: async (res, w, victim) => {
      expect(res.status).toBe(200);
      expect(await w.state('evaluator', victim!)).toBeNull();
    },
  },
  {
    name: 'POST /api/evaluators/try',
    call: (h, w) => tryEvaluatorRoute(send('POST', '/api/evaluators/try', h, { traceId: w.traceId, evaluator: { kind: 'max_cost', config: { max: 100 } } })),
    ok: async (res) => {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ result: { dataType: 'BOOLEAN' } });
    },
  },
  {
    name: 'POST /api/experiments/{id}/evaluate',
    call: (h, w) => evaluateExperimentRoute(send('POST', `/api/experiments/${w.experiments[0]}/evaluate`, h, {}), params(w.experiments[0])),
    ok: async (res) => {
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ queued: 0, evaluators: 0 });
    },
  },
);

const CREDENTIALS = [
  'no credentials',
  'wrong key',
  'ingest-only key',
  'read-only key',
  'delete-only key',
  'API_KEYS key',
  'viewer session',
  'admin session',
] as const;
type Credential = (typeof CREDENTIALS)[number];

/** The expected answer: 'ok' (the route's success, checked by its `ok`), or a refusal. */
type Expected = 'ok' | [401 | 403, string];

const LACKS = (scope: string): Expected => [403, `API key lacks the ${scope} scope`];
const INGEST_ROW: Expected[] = [[401, MISSING], [401, INVALID], 'ok', LACKS('ingest'), LACKS('ingest'), 'ok', [401, MISSING], [401, MISSING]];
const READ_ROW: Expected[] = [[401, MISSING], [401, INVALID], LACKS('read'), 'ok', LACKS('read'), 'ok', 'ok', 'ok'];
const ADMIN_ROW: Expected[] = [[401, MISSING], [401, INVALID], LACKS('admin'), LACKS('admin'), LACKS('admin'), LACKS('admin'), [403, 'This needs the admin role'], 'ok'];
// API_KEYS keys never delete: the scope is only ever granted to a key made with it.
const DELETE_ROW: Expected[] = [[401, MISSING], [401, INVALID], LACKS('delete'), LACKS('delete'), 'ok', LACKS('delete'), [403, 'This needs the admin role'], 'ok'];

// Datasets and experiments: keys that ingest, and admins.
const CURATE_ROW: Expected[] = [[401, MISSING], [401, INVALID], 'ok', LACKS('ingest'), LACKS('ingest'), 'ok', [403, 'This needs the admin role'], 'ok'];
// Keys write scores as they ingest; every signed-in person may annotate.
const ANNOTATE_ROW: Expected[] = [[401, MISSING], [401, INVALID], 'ok', LACKS('ingest'), LACKS('ingest'), 'ok', 'ok', 'ok'];
// The review queue hands out decisions (read) and holds them (annotate): a key needs both.
const REVIEW_ROW: Expected[] = [[401, MISSING], [401, INVALID], LACKS('read'), LACKS('ingest'), LACKS('read'), 'ok', 'ok', 'ok'];
// Any score for admins and delete keys; a person only their own (the victim is a key's).
const DELETE_SCORE_ROW: Expected[] = [
  [401, MISSING],
  [401, INVALID],
  LACKS('delete'),
  LACKS('delete'),
  'ok',
  LACKS('delete'),
  [403, 'Only an admin, a key with the delete scope, or the person who made this score can delete it'],
  'ok',
];

/** Route × credential → answer. People never ingest (machines do, with keys); only admins manage and delete. */
const EXPECTED: Record<string, Expected[]> = {
  'POST /api/traces': INGEST_ROW,
  'GET /api/traces': READ_ROW,
  'GET /api/traces/{id}': READ_ROW,
  'GET /api/traces/export': READ_ROW,
  'GET /api/traces/suggest': READ_ROW,
  'GET /api/insights/overview': READ_ROW,
  'GET /api/insights/decisions': READ_ROW,
  'POST /api/mcp': READ_ROW,
  'GET /api/insights/paths': READ_ROW,
  'GET /api/insights/scores': READ_ROW,
  'GET /api/insights/paths/reviews': READ_ROW,
  'POST /api/otel/v1/traces': INGEST_ROW,
  'GET /api/users': ADMIN_ROW,
  'POST /api/users': ADMIN_ROW,
  'GET /api/api-keys': ADMIN_ROW,
  'POST /api/api-keys': ADMIN_ROW,
  'DELETE /api/api-keys/{id}': ADMIN_ROW,
  'PATCH /api/users/{id}': ADMIN_ROW,
  'DELETE /api/users/{id}': ADMIN_ROW,
  'DELETE /api/traces/{id}': DELETE_ROW,
  'DELETE /api/traces?sessionId=': DELETE_ROW,
  'POST /api/scores': ANNOTATE_ROW,
  'POST /api/review/next': REVIEW_ROW,
  'GET /api/scores': READ_ROW,
  'DELETE /api/scores/{id}': DELETE_SCORE_ROW,
  'GET /api/score-configs': READ_ROW,
  'POST /api/score-configs': ADMIN_ROW,
  'PATCH /api/score-configs/{id}': ADMIN_ROW,
  'DELETE /api/score-configs/{id}': ADMIN_ROW,
  'GET /api/views': READ_ROW,
  'POST /api/views': READ_ROW,
  'DELETE /api/views/{id}': READ_ROW,
  'POST /api/datasets': CURATE_ROW,
  'GET /api/datasets': READ_ROW,
  'GET /api/datasets/{name}': READ_ROW,
  'POST /api/datasets/{name}/items': CURATE_ROW,
  'GET /api/datasets/{name}/items': READ_ROW,
  'POST /api/datasets/{name}/items/upload': CURATE_ROW,
  'DELETE /api/datasets/{name}': DELETE_ROW,
  'POST /api/experiments': CURATE_ROW,
  'GET /api/experiments?dataset=': READ_ROW,
  'GET /api/experiments/{id}': READ_ROW,
  'POST /api/experiments/{id}/runs': CURATE_ROW,
  'GET /api/experiments/compare': READ_ROW,
  'GET /api/evaluators': READ_ROW,
  'POST /api/evaluators': ADMIN_ROW,
  'GET /api/evaluators/{id}': READ_ROW,
  'PATCH /api/evaluators/{id}': ADMIN_ROW,
  'DELETE /api/evaluators/{id}': ADMIN_ROW,
  'POST /api/evaluators/try': ADMIN_ROW,
  'POST /api/experiments/{id}/evaluate': CURATE_ROW,
};

const CELLS = ROUTES.flatMap((route) =>
  CREDENTIALS.map((credential, i) => {
    const expected = EXPECTED[route.name][i];
    const label = expected === 'ok' ? 'allowed' : `${expected[0]} ${expected[1]}`;
    return { route, credential, expected, label };
  }),
);

const GRPC = { 401: 16, 403: 7 } as const;

async function expectRefusal(res: Response, route: RouteCase, [status, message]: [401 | 403, string]): Promise<void> {
  if (route.otlp) {
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ code: GRPC[status], message });
  } else {
    await expectError(res, status, message);
  }
}

describe.each(testDatabases())('access matrix on $name', ({ open }) => {
  let db: Database;
  let world: World;
  const headers = {} as Record<Credential, HeaderMap>;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    db = await open();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    useDatabase(db);
    resetAccess();
    process.env.API_KEYS = ENV_KEY;
    const admin = await makeUser('admin');
    const viewer = await makeUser('viewer');
    const ingest = await makeKey(['ingest'], admin.id);
    const read = await makeKey(['read'], admin.id);
    const deleter = await makeKey(['delete'], admin.id);
    Object.assign(headers, {
      'no credentials': {},
      'wrong key': bearer('cr_thisKeyWasNeverMadeByThisServer0123456789abcdefghij'),
      'ingest-only key': bearer(ingest.key),
      'read-only key': bearer(read.key),
      'delete-only key': bearer(deleter.key),
      'API_KEYS key': bearer(ENV_KEY),
      // From the app's own pages, as the viewer sends them (test/access/cross-origin.test.ts has the rest).
      'viewer session': { cookie: await signIn(viewer.email, viewer.password), origin: ORIGIN },
      'admin session': { cookie: await signIn(admin.email, admin.password), origin: ORIGIN },
    });
    const traceId = uid('matrix');
    const adminCookie = headers['admin session'];
    expect((await ingestRoute(send('POST', '/api/traces', bearer(ENV_KEY), { traces: [makeTrace({ id: traceId })] }))).status).toBe(200);
    const dataset = uid('matrix-dataset').slice(0, 90);
    expect((await createDatasetRoute(send('POST', '/api/datasets', bearer(ENV_KEY), { name: dataset }))).status).toBe(201);
    const items = await addItemsRoute(send('POST', `/api/datasets/${dataset}/items`, bearer(ENV_KEY), { items: [{ id: 'item-1', input: 'q' }] }), { params: Promise.resolve({ name: dataset }) });
    expect(items.status).toBe(200);
    const experiment = async (name: string) => {
      const res = await createExperimentRoute(send('POST', '/api/experiments', bearer(ENV_KEY), { dataset, name }));
      expect(res.status).toBe(201);
      return ((await res.json()) as { experiment: { id: string } }).experiment.id;
    };
    const experiments: [string, string] = [await experiment('a'), await experiment('b')];
    world = {
      traceId,
      dataset,
      experiments,
      adminId: admin.id,
      victims: {
        key: async () => (await makeKey(['read'], admin.id)).id,
        user: async () => (await makeUser('viewer')).id,
        trace: async () => {
          const id = uid('victim');
          const res = await ingestRoute(send('POST', '/api/traces', bearer(ENV_KEY), { traces: [makeTrace({ id, sessionId: id })] }));
          expect(res.status).toBe(200);
          return id;
        },
        score: async () => {
          const id = uid('score');
          const res = await saveScoresRoute(send('POST', '/api/scores', bearer(ENV_KEY), { scores: [{ id, traceId, name: 'victim', value: 1 }] }));
          expect(res.status).toBe(200);
          return id;
        },
        view: async () => {
          const owner = contextAs(db, {
            mode: 'protected',
            keysOnly: false,
            credential: { kind: 'session', identity: { userId: uid('owner'), email: 'owner@example.test', name: 'owner', role: 'viewer' } },
          });
          return (await saveView(owner, parseSaveViewBody(JSON.stringify({ name: uid('victim') })))).view.id;
        },
        dataset: async () => {
          const name = uid('victim-ds').slice(0, 90);
          expect((await createDatasetRoute(send('POST', '/api/datasets', bearer(ENV_KEY), { name }))).status).toBe(201);
          return name;
        },
        evaluator: async () => {
          const res = await createEvaluatorRoute(
            send('POST', '/api/evaluators', adminCookie, { name: uid('victim-ev'), kind: 'max_cost', config: { max: 1 }, scoreName: 'cheap', target: { on: 'live' }, enabled: false }),
          );
          expect(res.status).toBe(201);
          return ((await res.json()) as { evaluator: { id: string } }).evaluator.id;
        },
        config: async () => {
          const res = await createConfigRoute(send('POST', '/api/score-configs', adminCookie, { name: uid('victim'), dataType: 'NUMERIC' }));
          expect(res.status).toBe(201);
          return ((await res.json()) as { id: string }).id;
        },
      },
      state: (kind, id) => {
        switch (kind) {
          case 'key':
            return db.prisma.apikey.findUnique({ where: { id }, select: { key: true, permissions: true } });
          case 'user':
            return db.prisma.user.findUnique({ where: { id }, select: { role: true } });
          case 'trace':
            return db.prisma.trace.findUnique({ where: { id }, select: { id: true, spanCount: true } });
          case 'score':
            return db.prisma.score.findUnique({ where: { id }, select: { value: true } });
          case 'config':
            return db.prisma.scoreConfig.findUnique({ where: { id }, select: { description: true } });
          case 'view':
            return db.prisma.savedView.findUnique({ where: { id }, select: { query: true } });
          case 'dataset':
            return db.prisma.dataset.findUnique({ where: { name: id }, select: { name: true } });
          case 'evaluator':
            return db.prisma.evaluator.findUnique({ where: { id }, select: { config: true } });
        }
      },
    };
  });
  afterAll(async () => {
    process.env = { ...savedEnv };
    resetAccess();
    await db.close();
    vi.restoreAllMocks();
  });
  beforeEach(() => {
    useDatabase(db);
    process.env.API_KEYS = ENV_KEY;
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });

  it.each(CELLS)('$route.name with $credential: $label', async ({ route, credential, expected }) => {
    const victim = route.victim ? await world.victims[route.victim]() : null;
    const before = victim ? await world.state(route.victim!, victim) : null;
    const res = await route.call(headers[credential], world, victim);
    if (expected === 'ok') {
      await route.ok(res, world, victim);
    } else {
      await expectRefusal(res, route, expected);
      if (victim) expect(await world.state(route.victim!, victim)).toEqual(before);
    }
  });

  describe('POST /api/traces keeps the seed contract', () => {
    const ingest = (authorization?: string) =>
      ingestRoute(send('POST', '/api/traces', authorization === undefined ? {} : { authorization }, { traces: [makeTrace()] }));

    it.each([
      ['no header', undefined, MISSING],
      ['Basic, even with a good key', `Basic ${Buffer.from(`u:${ENV_KEY}`).toString('base64')}`, MISSING],
      ['another scheme', `Token ${ENV_KEY}`, MISSING],
      ['"Bearer " and nothing', 'Bearer ', 'Missing API key'],
      ['"Bearer"', 'Bearer', 'Missing API key'],
      ['a wrong key', 'Bearer not-a-key', INVALID],
    ])('%s → 401 %s', async (_name, authorization, message) => {
      await expectError(await ingest(authorization), 401, message);
    });
  });

  describe('reads accept the key as the Basic password', () => {
    const reads = [
      ['GET /api/traces', (h: HeaderMap) => listRoute(get('/api/traces', h))],
      ['GET /api/traces/{id}', (h: HeaderMap) => detailRoute(get(`/api/traces/${world.traceId}`, h), params(world.traceId))],
    ] as const;

    it.each(reads)('%s', async (_name, read) => {
      const readKey = headers['read-only key'].authorization.slice('Bearer '.length);
      const ingestKey = headers['ingest-only key'].authorization.slice('Bearer '.length);
      expect((await read(basic(readKey))).status).toBe(200);
      expect((await read(basic(ENV_KEY, ''))).status).toBe(200);
      await expectError(await read(basic(ingestKey)), 403, 'API key lacks the read scope');
      await expectError(await read(basic('wrong')), 401, INVALID);
      await expectError(await read(basic('')), 401, 'Missing API key');
    });

    it('and so does OTLP, for exporters that only send Basic', async () => {
      const ingestKey = headers['ingest-only key'].authorization.slice('Bearer '.length);
      expect((await otlpRoute(send('POST', '/api/otel/v1/traces', basic(ingestKey), { resourceSpans: [] }))).status).toBe(200);
    });
  });

  describe('sessions', () => {
    it('a cookie that was never issued, or was tampered with, is no session', async () => {
      const forged = headers['admin session'].cookie.replace(/session_token=[^.]+/, 'session_token=forgedTokenValue0123456789abcdef');
      await expectError(await listRoute(get('/api/traces', { cookie: forged })), 401, MISSING);
      await expectError(await listRoute(get('/api/traces', { cookie: 'crossroads.session_token=garbage' })), 401, MISSING);
    });

    it('signing out ends the session on the server, not only in the browser', async () => {
      const person = await makeUser('viewer');
      const cookie = await signIn(person.email, person.password);
      expect((await listRoute(get('/api/traces', { cookie }))).status).toBe(200);
      const out = await authPost(send('POST', '/api/auth/sign-out', { cookie, origin: ORIGIN }, {}), { params: Promise.resolve({ all: ['sign-out'] }) });
      expect(out.status).toBe(200);
      await expectError(await listRoute(get('/api/traces', { cookie })), 401, MISSING);
    });

    it('a removed person loses access at once', async () => {
      const person = await makeUser('viewer');
      const cookie = await signIn(person.email, person.password);
      await db.prisma.user.delete({ where: { id: person.id } });
      await expectError(await listRoute(get('/api/traces', { cookie })), 401, MISSING);
    });

    it('an expired session is no session, whatever its cookie says', async () => {
      const person = await makeUser('viewer');
      const cookie = await signIn(person.email, person.password);
      expect((await listRoute(get('/api/traces', { cookie }))).status).toBe(200);
      await db.prisma.session.updateMany({ where: { userId: person.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await expectError(await listRoute(get('/api/traces', { cookie })), 401, MISSING);
    });

    it('an admin made a viewer loses the admin routes at once', async () => {
      const person = await makeUser('admin');
      const cookie = await signIn(person.email, person.password);
      expect((await listUsersRoute(get('/api/users', { cookie }))).status).toBe(200);
      await db.prisma.user.update({ where: { id: person.id }, data: { role: 'viewer' } });
      await expectError(await listUsersRoute(get('/api/users', { cookie })), 403, 'This needs the admin role');
    });
  });
});
