// /api/mcp end to end: the MCP SDK's own Client over its Streamable HTTP client transport,
// against the route behind a real HTTP server, on every test database. Every tool on the
// refund agent's runs (test/support/wrong-turns.ts), the trace resource, each error as a
// tool result, the usefulness question in two calls, and access: open mode, keys (a
// read-only key refused add_score), and 401 before any MCP handling without credentials.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { accessSuite, bearer, makeKey, makeUser, resetAccess } from '@/test/support/access';
import { testDatabases } from '@/test/support/databases';
import { serveRoutes, type RouteServer } from '@/test/support/route-server';
import { AGENT, DAY, ingestWrongTurns, RUN_X } from '@/test/support/wrong-turns';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { makeTrace } from '@/test/support/fixtures';
import { DELETE, GET, POST } from './route';

const TOOLS = ['add_score', 'compare_traces', 'decision_paths', 'decision_stats', 'get_session', 'get_span', 'get_trace', 'list_sessions', 'search_traces', 'similar_runs'];
const ENV_KEY = 'mcp-env-key';
const MISSING = { error: 'Missing or invalid Authorization header' };

type Row = Record<string, unknown>;
type Ids = Array<{ id: string }>;

const handlers: Record<string, (req: Request) => Promise<Response>> = { POST: (r) => POST(r), GET: (r) => GET(r), DELETE: (r) => DELETE(r) };

describe.each(testDatabases())('MCP server on $name', ({ open }) => {
  const suite = accessSuite(open, ['info', 'warn']);
  let server: RouteServer;
  const clients: Client[] = [];
  const url = () => new URL(`${server.origin}/api/mcp`);

  beforeAll(async () => {
    server = await serveRoutes({
      '/api/mcp': (req) => (handlers[req.method] ?? (async () => new Response(null, { status: 405 })))(req),
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  });
  beforeEach(async () => {
    await ingestWrongTurns(suite.db);
  });

  async function connect(headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'crossroads-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url(), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  /** A tool's answer; the client has checked structuredContent against the tool's outputSchema, T names what a test reads. */
  async function ok<T = Row>(client: Client, name: string, args: Record<string, unknown> = {}) {
    const result = await call(client, name, args);
    expect(result.isError, text(result)).toBeFalsy();
    return { text: text(result), data: result.structuredContent as T };
  }
  async function refused(client: Client, name: string, args: Record<string, unknown>, message: string | RegExp) {
    const result = await call(client, name, args);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
  }

  /** Protected by an API_KEYS key (ingest and read) and a person who makes keys. */
  async function protect(): Promise<{ readKey: string }> {
    resetAccess();
    process.env.API_KEYS = ENV_KEY;
    const admin = await makeUser('admin');
    return { readKey: (await makeKey(['read'], admin.id)).key };
  }

  it('lists every tool with an input and output schema, and the trace resource template (open mode)', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(tool.name !== 'add_score');
    }
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['crossroads://traces/{id}']);
  });

  it('answers "why did run-x fail, and which other runs took the same wrong turn?" in two calls', async () => {
    const client = await connect();
    const trace = await ok<{ trace: Row; decisionPoints: Row[] }>(client, 'get_trace', { traceId: RUN_X });
    expect(trace.text).toContain('TOOL_CALL search_kb ERROR 200 ms (tool-search_kb): search_kb: index unavailable (503)');
    expect(trace.text).toContain('Decision path: 1. ROUTING billing > 2. TOOL_SELECTION search_kb > 3. ESCALATION human');
    expect(trace.text).toContain('Input: {"message":"I want a refund for order 42"}\nOutput: Sorry, something went wrong.');
    expect(trace.text).toContain('- span search_kb (tool-search_kb) failed: search_kb: index unavailable (503); output: null');
    expect(trace.text).toContain('  - LLM_CALL plan COMPLETED 600 ms gpt-4o-mini $0.02 (llm-0)');
    expect(trace.text).toContain('TOOL_SELECTION chose "search_kb" over "lookup_order", "issue_refund" (d2)');
    expect(trace.data.trace).toMatchObject({ id: RUN_X, name: AGENT, status: 'ERROR', durationMs: 4000, costUsd: 0.02, tokens: 1200 });
    expect(trace.data.decisionPoints[1]).toEqual({ id: 'd2', type: 'TOOL_SELECTION', chosenLabel: 'search_kb', alternativeLabels: ['lookup_order', 'issue_refund'] });

    const similar = await ok<{ runs: Ids; turn: Row }>(client, 'similar_runs', { traceId: RUN_X });
    expect(similar.text).toContain('Turn: step 2, TOOL_SELECTION search_kb (the first step where this choice failed most often).');
    expect(similar.text).toContain('4 other runs took it: 3 failed, 1 completed, 0 running (error share 75%; 37.5% over every choice at this step, 8 runs).');
    expect(similar.data.runs.map((r) => r.id)).toEqual(['kb-4', 'kb-3', 'kb-2', 'kb-1']);
    expect(similar.data.turn).toMatchObject({ position: 2, errorShare: 0.75 });
  });

  it('finds yesterday’s failing runs of an agent, newest first, with their error counts', async () => {
    const client = await connect();
    const found = await ok<{ total: number; traces: Ids }>(client, 'search_traces', { name: AGENT, status: 'ERROR', ...DAY });
    expect(found.data.total).toBe(4);
    expect(found.data.traces.map((t) => t.id)).toEqual([RUN_X, 'kb-4', 'kb-2', 'kb-1']);
    expect(found.data.traces[0]).toMatchObject({ id: RUN_X, status: 'ERROR', durationMs: 4000, costUsd: 0.02, tokens: 1200, errorCount: 3 });
    expect(found.text).toContain('4 traces match; the 4 newest:');
    const text = await ok<{ total: number; traces: Ids }>(client, 'search_traces', { query: 'index unavailable', hasErrors: true, limit: 2 });
    expect(text.data.traces).toHaveLength(2);
    expect(text.data.total).toBe(5);
    expect((await ok<{ total: number }>(client, 'search_traces', { tag: 'prod', hasErrors: false })).data.total).toBe(5);
  });

  it('reads a span whole, and cuts payloads where asked, naming get_span', async () => {
    const client = await connect();
    const cut = await ok(client, 'get_trace', { traceId: RUN_X, maxPayloadChars: 10 });
    expect(cut.text).toContain('Payloads are cut at 10 characters; get_span {traceId, spanId} returns a span whole.');
    const span = await ok<{ span: Row }>(client, 'get_span', { traceId: RUN_X, spanId: 'llm-0' });
    expect(span.data.span).toMatchObject({ id: 'llm-0', traceId: RUN_X, type: 'LLM_CALL', model: 'gpt-4o-mini', tokenCount: 1200, costUsd: 0.02, cut: false, output: 'Route to billing.' });
    expect(JSON.stringify(span.data.span.input)).toContain('Long context.');
    const short = await ok<{ span: Row }>(client, 'get_span', { traceId: RUN_X, spanId: 'llm-0', maxPayloadChars: 100 });
    expect(short.data.span.cut).toBe(true);
    expect(short.text).toMatch(/cut at 100 of \d+ characters/);
  });

  it('reports the first 300 spans of a big trace, in the text and the structured answer, with the count of all', async () => {
    const start = Date.parse('2026-03-02T00:00:00.000Z');
    const spans = Array.from({ length: 350 }, (_, i) => ({
      id: `s${i}`,
      ...(i > 0 && { parentSpanId: 's0' }),
      name: `step ${i}`,
      type: 'CUSTOM',
      status: 'COMPLETED',
      startedAt: new Date(start + i).toISOString(),
    }));
    const big = makeTrace({ id: 'big-run', spans, decisionPoints: [], startedAt: new Date(start).toISOString(), endedAt: null, totalDuration: null, status: 'RUNNING' });
    await ingestTraces(testContext(suite.db), validateIngestBody({ traces: [big] }, { maxBatchTraces: 10, maxChildrenPerTrace: 1000 }));
    const client = await connect();
    const report = await ok<{ trace: { spanCount: number }; spans: Ids }>(client, 'get_trace', { traceId: 'big-run' });
    expect(report.data.trace.spanCount).toBe(350);
    expect(report.data.spans).toHaveLength(300);
    expect(report.data.spans[299].id).toBe('s299');
    expect(report.text).toContain('… 50 more spans');
    expect(report.text).toContain(', still running');
  });

  it('lists sessions and reads one oldest first', async () => {
    const client = await connect();
    const sessions = await ok<{ total: number; sessions: Ids }>(client, 'list_sessions', { userId: 'user-7', limit: 3 });
    expect(sessions.data.total).toBe(10);
    expect(sessions.data.sessions).toHaveLength(3);
    const session = await ok<{ turns: Row[] }>(client, 'get_session', { sessionId: `session-${RUN_X}` });
    expect(session.data.turns).toEqual([
      { traceId: RUN_X, name: AGENT, status: 'ERROR', startedAt: expect.any(String), input: { message: 'I want a refund for order 42' }, output: 'Sorry, something went wrong.' },
    ]);
  });

  it('answers decision figures, paths and where runs parted', async () => {
    const client = await connect();
    const stats = await ok<{ options: Array<{ type: string; label: string }> }>(client, 'decision_stats', { name: AGENT, decisionType: 'TOOL_SELECTION', ...DAY });
    const search = stats.data.options.find((o) => o.label === 'search_kb');
    expect(search).toEqual({ type: 'TOOL_SELECTION', label: 'search_kb', chosen: 5, offered: 9, errorShareWhenChosen: 0.8, reviewed: 0, judgedRightShare: null });
    expect(stats.data.options.every((o) => o.type === 'TOOL_SELECTION')).toBe(true);

    const paths = await ok<{ traces: number; paths: Row[]; forks: Array<{ position: number; label: string }> }>(client, 'decision_paths', { name: AGENT, ...DAY });
    expect(paths.data.traces).toBe(9);
    expect(paths.data.paths[0]).toMatchObject({ traces: 4, errorShare: 0 });
    expect(paths.data.forks.some((f) => f.position === 2 && f.label === 'search_kb')).toBe(true);

    const closest = await ok(client, 'compare_traces', { traceId: RUN_X });
    expect(closest.data).toMatchObject({ picked: true, b: { id: 'kb-3' }, sharedSteps: 3 });
    const named = await ok(client, 'compare_traces', { traceId: RUN_X, otherTraceId: 'ok-1' });
    expect(named.text).toContain('They share 1 step, then part at step 2: A chose TOOL_SELECTION search_kb, B chose TOOL_SELECTION lookup_order.');
    expect(named.text).toContain('After that, A: 3. ESCALATION human; B: 3. TOOL_SELECTION issue_refund.');
  });

  it('reads the trace resource as get_trace reports it', async () => {
    const client = await connect();
    const { contents } = await client.readResource({ uri: `crossroads://traces/${RUN_X}` });
    expect(contents[0]).toMatchObject({ uri: `crossroads://traces/${RUN_X}`, mimeType: 'text/plain' });
    expect((contents[0] as { text: string }).text).toBe((await ok(client, 'get_trace', { traceId: RUN_X })).text);
    // The MCP specification's code for an unknown resource.
    await expect(client.readResource({ uri: 'crossroads://traces/nope' })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining('Trace not found') });
  });

  it('answers unknown ids, bad filters and bad arguments as tool errors', async () => {
    const client = await connect();
    await refused(client, 'get_trace', { traceId: 'nope' }, 'Trace not found');
    await refused(client, 'get_span', { traceId: RUN_X, spanId: 'nope' }, 'Span not found');
    await refused(client, 'get_session', { sessionId: 'nope' }, 'Session not found');
    await refused(client, 'search_traces', { from: 'yesterday' }, 'Invalid from parameter: must be an ISO 8601 date-time');
    await refused(client, 'search_traces', { limit: 99 }, /Input validation error/);
    await refused(client, 'similar_runs', { traceId: RUN_X, at: 9 }, 'Invalid at: must be a decision position from 1 to 3');
    await refused(client, 'compare_traces', { traceId: RUN_X, otherTraceId: 'nope' }, 'Trace "nope" not found');
    await refused(client, 'add_score', { traceId: RUN_X, name: 'quality', value: 1, decisionPointId: 'nope' }, /not found/);
  });

  it('writes a score in open mode', async () => {
    const client = await connect();
    const saved = await ok<{ score: Row }>(client, 'add_score', { traceId: RUN_X, decisionPointId: 'd2', name: 'decision.correct', value: false, comment: 'should look the order up' });
    expect(saved.data.score).toMatchObject({ traceId: RUN_X, decisionPointId: 'd2', name: 'decision.correct', value: false, dataType: 'BOOLEAN' });
    const stats = await ok<{ options: Array<{ label: string }> }>(client, 'decision_stats', { name: AGENT, ...DAY });
    expect(stats.data.options.find((o) => o.label === 'search_kb')).toMatchObject({ reviewed: 1, judgedRightShare: 0 });
  });

  it('refuses a request without credentials with 401 before any MCP handling, and a wrong key', async () => {
    await protect();
    const anonymous = await fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'not even JSON' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual(MISSING);
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(url(), { method });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(MISSING);
    }
    const wrong = await fetch(url(), { method: 'POST', headers: bearer('cr_wrong'), body: '{}' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'Invalid API key' });
    await expect(connect()).rejects.toThrow();
  });

  it('reads with a read-only key and refuses it add_score; a key with ingest writes', async () => {
    const { readKey } = await protect();
    const reader = await connect(bearer(readKey));
    expect((await ok<{ trace: { id: string } }>(reader, 'get_trace', { traceId: RUN_X })).data.trace.id).toBe(RUN_X);
    await refused(reader, 'add_score', { traceId: RUN_X, name: 'quality', value: 0.5 }, 'API key lacks the ingest scope');
    const writer = await connect(bearer(ENV_KEY));
    expect((await ok<{ score: Row }>(writer, 'add_score', { traceId: RUN_X, name: 'quality', value: 0.5 })).data.score).toMatchObject({ name: 'quality', value: 0.5 });
  });

  it('answers GET and DELETE with 405 (no sessions)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(url(), { method, headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});
