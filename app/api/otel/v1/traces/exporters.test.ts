// The real OpenTelemetry exporters, and the frameworks that drive them, pointed at the
// real OTLP route over loopback HTTP, on every test database: the Node SDK with the
// protobuf and the JSON exporter (gzip, a bearer key; spans one by one and in batches),
// the Vercel AI SDK's generateText with its telemetry on, and OpenInference's helpers.
// What they sent is read back as the viewer reads it: GET /api/traces/{id} and
// GET /api/traces. (route.test.ts covers the handler's own answers: errors, limits,
// partial success.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { context, SpanStatusCode, trace, type HrTime, type SpanContext, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import {
  defaultProcessInput,
  getLLMAttributes,
  OITracer,
  setSession,
  setTags,
  traceAgent,
  traceTool,
  withSpan,
  type Message,
} from '@arizeai/openinference-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as getDetail } from '@/app/api/traces/[id]/route';
import { GET as getList } from '@/app/api/traces/route';
import { runWeatherAgent, WEATHER_RUN } from '@/e2e/otlp-agent';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import type { RunStatus, SpanType, TraceDetail, TraceListItem } from '@/lib/features/traces/types';
import { POST } from './route';

const API_KEY = 'exporters-test-key';
const SERVICE = 'exporters-test';

// ---- A real HTTP server in front of the route handler ----

interface Received {
  contentType: string | undefined;
  contentEncoding: string | undefined;
  authorization: string | undefined;
  status: number;
}

/** What undici needs to stream a request body; not in TypeScript's DOM RequestInit yet. */
type StreamingRequestInit = RequestInit & { duplex: 'half' };

/** node:http -> web Request (body streamed) -> the route's POST -> node:http response. */
function otlpServer(): { server: Server; received: Received[] } {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const handle = async () => {
      if (req.method !== 'POST' || req.url !== '/api/otel/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const init: StreamingRequestInit = {
        method: 'POST',
        headers,
        body: Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>,
        duplex: 'half',
      };
      const response = await POST(new Request(`http://${req.headers.host}${req.url}`, init));
      received.push({
        contentType: req.headers['content-type'],
        contentEncoding: req.headers['content-encoding'],
        authorization: req.headers.authorization,
        status: response.status,
      });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    };
    handle().catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  return { server, received };
}

// ---- The SDK side ----

type ExporterKind = 'protobuf' | 'json';

function exporterFor(kind: ExporterKind, url: string, key = API_KEY): SpanExporter {
  const config = { url, compression: CompressionAlgorithm.GZIP, headers: { Authorization: `Bearer ${key}` }, timeoutMillis: 10_000 };
  return kind === 'protobuf' ? new ProtoExporter(config) : new JsonExporter(config);
}

interface Sdk {
  tracer: Tracer;
  /** Every span the SDK finished, in the order they ended (recorded beside the exporter). */
  finished(): ReadableSpan[];
  flush(): Promise<void>;
}

const providers: NodeTracerProvider[] = [];

/** A NodeTracerProvider exporting through `exporter`, each span alone (simple) or in batches of 4. */
function sdk(exporter: SpanExporter, processing: 'simple' | 'batch'): Sdk {
  const memory = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': SERVICE }),
    spanProcessors: [
      processing === 'simple'
        ? new SimpleSpanProcessor(exporter)
        : new BatchSpanProcessor(exporter, { maxExportBatchSize: 4, scheduledDelayMillis: 60_000 }),
      new SimpleSpanProcessor(memory),
    ],
  });
  providers.push(provider);
  return { tracer: provider.getTracer('exporters-test', '1.0.0'), finished: () => memory.getFinishedSpans(), flush: () => provider.forceFlush() };
}

// ---- Reading back what was stored, as the viewer does ----

// Reads need credentials too once API_KEYS is set (access control).
const READ_AUTH = { authorization: `Bearer ${API_KEY}` };

async function stored(traceId: string): Promise<TraceDetail> {
  const res = await getDetail(new Request(`http://test/api/traces/${traceId}`, { headers: READ_AUTH }), { params: Promise.resolve({ id: traceId }) });
  expect(res.status, `GET /api/traces/${traceId}`).toBe(200);
  return ((await res.json()) as { trace: TraceDetail }).trace;
}

async function listed(search: string): Promise<TraceListItem[]> {
  const res = await getList(new Request(`http://test/api/traces?search=${encodeURIComponent(search)}`, { headers: READ_AUTH }), undefined);
  expect(res.status).toBe(200);
  return ((await res.json()) as { traces: TraceListItem[] }).traces;
}

/** An SDK time as the API shows it: UTC, millisecond precision, truncated like the stored nanoseconds. */
const isoOf = (t: HrTime) => new Date(t[0] * 1000 + Math.floor(t[1] / 1e6)).toISOString();
const msOf = (d: HrTime) => d[0] * 1000 + d[1] / 1e6;

/** A span's id, from the SDK's live span or its finished copy. */
const idOf = (s: { spanContext(): SpanContext }) => s.spanContext().spanId;
const only = (spans: ReadableSpan[], name: string): ReadableSpan => {
  const found = spans.filter((s) => s.name === name);
  expect(found, `SDK spans named ${name}`).toHaveLength(1);
  return found[0];
};

interface Expected {
  name: string;
  type: SpanType;
  tokenCount?: number | null;
  status?: RunStatus;
}

/**
 * The stored spans are exactly the SDK's: its trace id (32 hex) and span ids (16 hex),
 * its parent links, and each span's name, type, tokens and status as the mapping says.
 */
function expectSameSpans(t: TraceDetail, finished: ReadableSpan[], expected: (s: ReadableSpan) => Expected): void {
  const traceId = finished[0].spanContext().traceId;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(t.id).toBe(traceId);
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  const got = t.spans
    .map((s) => ({ id: s.id, parentSpanId: s.parentSpanId, name: s.name, type: s.type, tokenCount: s.tokenCount, status: s.status }))
    .sort(byId);
  const want = finished
    .map((s) => {
      const e = expected(s);
      expect(s.spanContext().traceId).toBe(traceId);
      return {
        id: idOf(s),
        parentSpanId: s.parentSpanContext?.spanId ?? null,
        name: e.name,
        type: e.type,
        tokenCount: e.tokenCount ?? null,
        status: e.status ?? 'COMPLETED',
      };
    })
    .sort(byId);
  expect(got).toEqual(want);
  for (const s of t.spans) {
    expect(s.id).toMatch(/^[0-9a-f]{16}$/);
    expect(s.traceId).toBe(traceId);
  }
  // One tree: a single root, every other span's parent stored too.
  const ids = new Set(t.spans.map((s) => s.id));
  expect(t.spans.filter((s) => s.parentSpanId === null)).toHaveLength(1);
  expect(t.spans.filter((s) => s.parentSpanId !== null && !ids.has(s.parentSpanId))).toEqual([]);
}

/**
 * The trace row once the root has arrived: named, finished and timed by the root, its
 * totals and counts what its children add up to; the list shows it the same way.
 */
async function expectTraceRow(
  t: TraceDetail,
  root: ReadableSpan,
  want: { name: string; status: RunStatus; totalTokens: number | null },
): Promise<void> {
  expect(t).toMatchObject({ name: want.name, status: want.status, totalTokens: want.totalTokens });
  expect(t.startedAt).toBe(isoOf(root.startTime));
  expect(t.endedAt).toBe(isoOf(root.endTime));
  expect(t.totalDuration).toBeCloseTo(msOf(root.duration), 3);
  const tokens = t.spans.reduce<number | null>((sum, s) => (s.tokenCount === null ? sum : (sum ?? 0) + s.tokenCount), null);
  expect(t.totalTokens).toBe(tokens);
  expect((t.metadata as Record<string, unknown>)['service.name']).toBe(SERVICE);

  const rows = (await listed(want.name)).filter((row) => row.id === t.id);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ name: want.name, status: want.status, totalTokens: want.totalTokens, endedAt: t.endedAt });
  expect(rows[0]._count).toEqual({ spans: t.spans.length, decisionPoints: t.decisionPoints.length, events: t.events.length });
}

/** Every request gzip, in the exporter's encoding, with the key, and answered 200; `count` of them (or at least `count.atLeast`). */
function expectAllSent(received: Received[], contentType: string, count: number | { atLeast: number }): void {
  if (typeof count === 'number') expect(received).toHaveLength(count);
  else expect(received.length).toBeGreaterThanOrEqual(count.atLeast);
  for (const r of received) {
    expect(r).toEqual({ contentType, contentEncoding: 'gzip', authorization: `Bearer ${API_KEY}`, status: 200 });
  }
}

const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';

// ---- The tests ----

const { server, received } = otlpServer();
let url = '';

beforeAll(async () => {
  // What NodeTracerProvider.register() would install: spans started inside another's
  // active context become its children (the AI SDK and OpenInference rely on it).
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/otel/v1/traces`;
});

afterAll(async () => {
  context.disable();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe.each(testDatabases())('real OpenTelemetry exporters to POST /api/otel/v1/traces on $name', ({ open }) => {
  let db: Database;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    useDatabase(db);
    process.env.API_KEYS = `other-key,${API_KEY}`;
    received.length = 0;
    await truncateAll(db);
  });
  afterEach(async () => {
    await Promise.all(providers.splice(0).map((p) => p.shutdown()));
    process.env = { ...savedEnv };
  });

  it('Node SDK, protobuf exporter, each span sent alone as it ends (children first): the trace is RUNNING until its root comes', async () => {
    const { tracer, finished, flush } = sdk(exporterFor('protobuf', url), 'simple');
    const conversation = 'conv-a1';
    // GenAI semantic conventions, as an agent framework writes them. The agent span
    // repeats its model calls' usage (as OpenAI's Agents SDK does): not counted twice.
    const root = tracer.startSpan('invoke_agent support-bot', {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'support-bot',
        'gen_ai.conversation.id': conversation,
        'gen_ai.usage.input_tokens': 200,
        'gen_ai.usage.output_tokens': 50,
      },
    });
    const inRoot = trace.setSpan(context.active(), root);
    const chat = tracer.startSpan(
      'chat gpt-x',
      {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-x',
          'gen_ai.usage.input_tokens': 120,
          'gen_ai.usage.output_tokens': 30,
          'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Where is order A-17?' }] }]),
          'gen_ai.output.messages': JSON.stringify([
            {
              role: 'assistant',
              parts: [
                { type: 'text', content: 'I will look the order up.' },
                { type: 'tool_call', id: 'call_1', name: 'lookup_order', arguments: { order_id: 'A-17' } },
              ],
              finish_reason: 'tool_call',
            },
          ]),
          'gen_ai.tool.definitions': JSON.stringify([
            { type: 'function', name: 'lookup_order', description: 'Find an order' },
            { type: 'function', name: 'refund_order', description: 'Refund an order' },
            { type: 'function', name: 'escalate' },
          ]),
        },
      },
      inRoot,
    );
    chat.end();
    const tool = tracer.startSpan(
      'execute_tool lookup_order',
      { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order' } },
      inRoot,
    );
    const timeout = new Error('order service timed out');
    timeout.name = 'TimeoutError';
    tool.recordException(timeout);
    tool.setStatus({ code: SpanStatusCode.ERROR });
    tool.end();
    const answer = tracer.startSpan(
      'chat gpt-x',
      { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-x', 'gen_ai.usage.input_tokens': 80, 'gen_ai.usage.output_tokens': 20 } },
      inRoot,
    );
    answer.end();
    await flush();

    // Three requests so far, the root not among them.
    expectAllSent(received, PROTOBUF, 3);
    const traceId = root.spanContext().traceId;
    const running = await stored(traceId);
    // Its conversation id is on the root: not known yet.
    expect(running).toMatchObject({ status: 'RUNNING', endedAt: null, totalDuration: null, totalTokens: 150 + 100, sessionId: null });
    expect(running.spans.map((s) => s.id).sort()).toEqual([chat, tool, answer].map((s) => s.spanContext().spanId).sort());

    // The agent records a decision of its own, by our convention (any OTel SDK can).
    root.addEvent('crossroads.decision', {
      'crossroads.decision.type': 'routing',
      'crossroads.decision.chosen': 'answer_customer',
      'crossroads.decision.alternatives': ['escalate', 'refund'],
      'crossroads.decision.reasoning': 'The order was found; no refund needed.',
    });
    root.end();
    await flush();
    expectAllSent(received, PROTOBUF, 4);
    const sent = finished();
    expect(sent.map((s) => s.name).at(-1)).toBe('invoke_agent support-bot');

    const t = await stored(traceId);
    expectSameSpans(t, sent, (s) => {
      if (idOf(s) === idOf(root)) return { name: 'invoke_agent support-bot', type: 'AGENT' };
      if (idOf(s) === idOf(tool)) return { name: 'execute_tool lookup_order', type: 'TOOL_CALL', status: 'ERROR' };
      return { name: 'chat gpt-x', type: 'LLM_CALL', tokenCount: idOf(s) === idOf(chat) ? 150 : 100 };
    });
    await expectTraceRow(t, only(sent, 'invoke_agent support-bot'), { name: 'support-bot', status: 'COMPLETED', totalTokens: 250 });
    expect(t.sessionId).toBe(conversation);

    // The failed tool: its status message from the exception, which is an ERROR event on it.
    const storedTool = t.spans.find((s) => s.id === idOf(tool))!;
    expect(storedTool.statusMessage).toBe('order service timed out');
    expect(t.events).toHaveLength(1);
    expect(t.events[0]).toMatchObject({ spanId: idOf(tool), type: 'ERROR', name: 'TimeoutError' });
    expect(t.events[0].metadata).toMatchObject({ 'exception.type': 'TimeoutError', 'exception.message': 'order service timed out' });

    const decisions = Object.fromEntries(t.decisionPoints.map((d) => [d.type, d]));
    expect(t.decisionPoints).toHaveLength(2);
    expect(decisions.ROUTING).toMatchObject({
      inferred: false,
      parentSpanId: idOf(root),
      chosen: 'answer_customer',
      alternatives: ['escalate', 'refund'],
      reasoning: 'The order was found; no refund needed.',
    });
    expect(decisions.TOOL_SELECTION).toMatchObject({
      inferred: true,
      parentSpanId: idOf(chat),
      chosen: { tool: 'lookup_order', arguments: { order_id: 'A-17' } },
      alternatives: [{ tool: 'refund_order', description: 'Refund an order' }, { tool: 'escalate' }],
      reasoning: 'I will look the order up.',
    });
  });

  it('Node SDK, JSON exporter, spans sent in batches: a three-level tree, the root failing', async () => {
    const { tracer, finished, flush } = sdk(exporterFor('json', url), 'batch');
    await tracer.startActiveSpan(
      'nightly-report',
      { attributes: { 'gen_ai.operation.name': 'invoke_workflow', 'crossroads.tags': ['nightly', 'batch'] } },
      async (root) => {
        tracer.startActiveSpan('recall notes', { attributes: { 'gen_ai.operation.name': 'search_memory' } }, (s) => s.end());
        for (let i = 0; i < 3; i++) {
          await tracer.startActiveSpan(`section ${i}`, async (section) => {
            tracer
              .startSpan('chat', { attributes: { 'gen_ai.request.model': 'gpt-y', 'gen_ai.usage.prompt_tokens': 10 + i, 'gen_ai.usage.completion_tokens': 5 } })
              .end();
            const rows = tracer.startSpan('execute_tool', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'fetch_rows' } });
            if (i === 2) rows.addEvent('retrying fetch', { attempt: 2 });
            rows.end();
            section.end();
          });
        }
        root.setStatus({ code: SpanStatusCode.ERROR, message: 'report incomplete' });
        root.end();
      },
    );
    await flush();

    const sent = finished();
    expect(sent).toHaveLength(11);
    // 11 spans in batches of at most 4: at least 3 requests.
    expectAllSent(received, JSON_TYPE, { atLeast: 3 });
    const root = only(sent, 'nightly-report');
    const t = await stored(root.spanContext().traceId);
    expectSameSpans(t, sent, (s) => {
      if (s === root) return { name: 'nightly-report', type: 'CHAIN', status: 'ERROR' };
      if (s.name === 'recall notes') return { name: s.name, type: 'MEMORY_OP' };
      if (s.name.startsWith('section')) return { name: s.name, type: 'CUSTOM' };
      if (s.name === 'chat') {
        const tokens = Number(s.attributes['gen_ai.usage.prompt_tokens']) + Number(s.attributes['gen_ai.usage.completion_tokens']);
        return { name: 'chat', type: 'LLM_CALL', tokenCount: tokens };
      }
      // Named only by its operation: shown under its tool's name.
      return { name: 'fetch_rows', type: 'TOOL_CALL' };
    });
    // Three levels: root -> section -> chat / tool.
    const section0 = only(sent, 'section 0');
    expect(t.spans.filter((s) => s.parentSpanId === idOf(section0)).map((s) => s.name).sort()).toEqual(['chat', 'fetch_rows']);
    await expectTraceRow(t, root, { name: 'nightly-report', status: 'ERROR', totalTokens: 15 + 16 + 17 });
    expect(t.spans.find((s) => s.id === idOf(root))?.statusMessage).toBe('report incomplete');
    expect(t.tags).toEqual(['nightly', 'batch']);
    expect(t.events).toEqual([expect.objectContaining({ type: 'RETRY', name: 'retrying fetch', metadata: { attempt: 2 } })]);
    expect(t.decisionPoints).toEqual([]);
  });

  it('Vercel AI SDK generateText with a tool, telemetry on: spans, tokens once, the inferred tool selection', async () => {
    const { tracer, finished, flush } = sdk(exporterFor('protobuf', url), 'simple');
    const run = await runWeatherAgent(tracer, 'weather-agent');
    expect(run.text).toBe(WEATHER_RUN.answer);
    expect(run.executed).toEqual({ getWeather: 1, searchWeb: 0, getTime: 0 });
    await flush();

    const sent = finished();
    expect(sent.map((s) => s.name)).toEqual(['ai.generateText.doGenerate', 'ai.toolCall', 'ai.generateText.doGenerate', 'ai.generateText']);
    expectAllSent(received, PROTOBUF, 4);
    const [callTools, toolCall, answer, root] = sent;
    const t = await stored(root.spanContext().traceId);
    expectSameSpans(t, sent, (s) => {
      if (s === root) return { name: 'ai.generateText', type: 'CHAIN' };
      if (s === toolCall) return { name: WEATHER_RUN.chosenTool, type: 'TOOL_CALL' };
      return { name: 'ai.generateText.doGenerate', type: 'LLM_CALL', tokenCount: s === callTools ? WEATHER_RUN.tokens[0] : WEATHER_RUN.tokens[1] };
    });
    // The wrapper repeats its children's usage...
    expect(Number(root.attributes['ai.usage.inputTokens']) + Number(root.attributes['ai.usage.outputTokens'])).toBe(
      WEATHER_RUN.tokens[0] + WEATHER_RUN.tokens[1],
    );
    // ...and the trace counts it once.
    await expectTraceRow(t, root, { name: 'weather-agent', status: 'COMPLETED', totalTokens: WEATHER_RUN.tokens[0] + WEATHER_RUN.tokens[1] });

    const storedTool = t.spans.find((s) => s.id === idOf(toolCall))!;
    expect(storedTool.input).toEqual(WEATHER_RUN.arguments);
    expect(storedTool.output).toEqual(WEATHER_RUN.toolResult);
    expect(t.spans.find((s) => s.id === idOf(answer))?.output).toBe(WEATHER_RUN.answer);

    expect(t.decisionPoints).toHaveLength(1);
    expect(t.decisionPoints[0]).toMatchObject({
      type: 'TOOL_SELECTION',
      inferred: true,
      parentSpanId: idOf(callTools),
      chosen: { tool: WEATHER_RUN.chosenTool, arguments: WEATHER_RUN.arguments },
      alternatives: WEATHER_RUN.alternatives,
      reasoning: WEATHER_RUN.reasoning,
      contextSnapshot: { inferredFrom: 'ai.response.toolCalls', toolCallId: WEATHER_RUN.toolCallId },
    });
  });

  it('OpenInference helpers (agent, LLM with tools offered, tool), JSON exporter: spans, session, tags, the inferred tool selection', async () => {
    const { tracer: otel, finished, flush } = sdk(exporterFor('json', url), 'simple');
    const tracer = new OITracer({ tracer: otel });
    // OpenAI-style tool definitions, as an instrumentation records the request's tools.
    const fn = (name: string, description: string | undefined, param: string) => ({
      type: 'function',
      function: { name, ...(description && { description }), parameters: { type: 'object', properties: { [param]: { type: 'string' } } } },
    });
    const tools = [fn('get_weather', 'Current weather for a city', 'city'), fn('book_flight', 'Book a flight', 'to'), fn('convert_currency', undefined, 'amount')];
    const planned: Message = {
      role: 'assistant',
      content: 'I will look up the weather first.',
      toolCalls: [{ id: 'call_w1', function: { name: 'get_weather', arguments: { city: 'Lyon' } } }],
    };
    // The "model": it plans a tool call for a question it can answer with one.
    const noTool: Message = { role: 'assistant', content: 'No tool needed.' };
    const plan = withSpan(async (question: string) => (question.includes('Weather') ? planned : noTool), {
      name: 'plan',
      kind: 'LLM',
      tracer,
      processInput: (question: string) => ({
        ...defaultProcessInput(question),
        ...getLLMAttributes({
          provider: 'openai',
          modelName: 'gpt-4o',
          inputMessages: [{ role: 'user', content: question }],
          tools: tools.map((jsonSchema) => ({ jsonSchema })),
        }),
      }),
      processOutput: (message) => getLLMAttributes({ outputMessages: [message], tokenCount: { prompt: 40, completion: 9, total: 49 } }),
    });
    const respond = withSpan(async (weather: { sky: string }) => `It is ${weather.sky} in Lyon.`, {
      name: 'respond',
      kind: 'LLM',
      tracer,
      processOutput: (text: string) =>
        getLLMAttributes({ modelName: 'gpt-4o', outputMessages: [{ role: 'assistant', content: text }], tokenCount: { prompt: 60, completion: 8 } }),
    });
    const getWeather = traceTool(async (city: string) => ({ city, sky: 'sunny' }), { name: 'get_weather', tracer });
    const agent = traceAgent(
      async (question: string) => {
        const message = await plan(question);
        const args = message.toolCalls![0].function!.arguments as { city: string };
        return respond(await getWeather(args.city));
      },
      { name: 'travel-agent', tracer },
    );
    const session = setTags(setSession(context.active(), { sessionId: 'oi-session-1' }), ['openinference', 'weather']);
    expect(await context.with(session, () => agent('Weather in Lyon?'))).toBe('It is sunny in Lyon.');
    await flush();

    const sent = finished();
    expect(sent.map((s) => s.name)).toEqual(['plan', 'get_weather', 'respond', 'travel-agent']);
    expectAllSent(received, JSON_TYPE, 4);
    const [planSpan, toolSpan, , root] = sent;
    const t = await stored(root.spanContext().traceId);
    expectSameSpans(t, sent, (s) => {
      if (s === root) return { name: 'travel-agent', type: 'AGENT' };
      if (s === toolSpan) return { name: 'get_weather', type: 'TOOL_CALL' };
      return { name: s.name, type: 'LLM_CALL', tokenCount: s === planSpan ? 49 : 68 };
    });
    await expectTraceRow(t, root, { name: 'travel-agent', status: 'COMPLETED', totalTokens: 49 + 68 });
    expect(t).toMatchObject({ sessionId: 'oi-session-1', tags: ['openinference', 'weather'] });

    const storedPlan = t.spans.find((s) => s.id === idOf(planSpan))!;
    expect(storedPlan.input).toMatchObject({ messages: [{ role: 'user', content: 'Weather in Lyon?' }], value: 'Weather in Lyon?' });
    expect(t.spans.find((s) => s.id === idOf(toolSpan))?.output).toEqual({ city: 'Lyon', sky: 'sunny' });

    expect(t.decisionPoints).toHaveLength(1);
    expect(t.decisionPoints[0]).toMatchObject({
      type: 'TOOL_SELECTION',
      inferred: true,
      parentSpanId: idOf(planSpan),
      chosen: { tool: 'get_weather', arguments: { city: 'Lyon' } },
      alternatives: [{ tool: 'book_flight', description: 'Book a flight' }, { tool: 'convert_currency' }],
      reasoning: 'I will look up the weather first.',
      contextSnapshot: { inferredFrom: 'llm.output_messages', toolCallId: 'call_w1' },
    });
  });

  it('an exporter with a wrong key is refused once (401 is final, no retry) and nothing is stored', async () => {
    const { tracer, flush } = sdk(exporterFor('protobuf', url, 'not-a-key'), 'simple');
    tracer.startSpan('lost span').end();
    // The exporter reports the 401 (its processors' failures, as a list) and gives up.
    const failure = await flush().then(
      () => 'flushed without an error',
      (err: unknown) => err,
    );
    expect(failure).toEqual([expect.objectContaining({ name: 'OTLPExporterError', code: 401 })]);
    expect(received).toEqual([{ contentType: PROTOBUF, contentEncoding: 'gzip', authorization: 'Bearer not-a-key', status: 401 }]);
    expect(await db.prisma.trace.count()).toBe(0);
  });
});
