// The real OpenTelemetry log exporters (@opentelemetry/exporter-logs-otlp-proto and -http)
// driven by the SDK's LoggerProvider, and the trace exporter for the spans they name,
// pointed at POST /api/otel/v1/logs and /v1/traces over loopback, on every test database.
// Records that name a span become its events; GenAI message records give a span without
// input/output its prompt and answer; records without a span are refused (partial success).
import { context, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as postTraces } from '@/app/api/otel/v1/traces/route';
import { GET as getDetail } from '@/app/api/traces/[id]/route';
import { useDatabase } from '@/lib/db';
import { closeIdleTraces } from '@/lib/features/ingest/close-idle';
import { ExportLogsServiceResponse } from '@/lib/transports/otlp/proto';
import type { Database } from '@/lib/db/open';
import type { TraceDetail } from '@/lib/features/traces/types';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { serveRoutes, type RouteServer } from '@/test/support/route-server';
import { POST as postLogs } from './route';

const API_KEY = 'logs-test-key';
const headers = { Authorization: `Bearer ${API_KEY}` };

interface Answer {
  /** What the exporter sent, to send again as its retry would. */
  request: { body: Uint8Array; contentType: string | null };
  status: number;
  contentType: string | null;
  body: Uint8Array;
}
const answers: Answer[] = [];
let server: RouteServer;
beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  server = await serveRoutes({
    '/api/otel/v1/traces': postTraces,
    '/api/otel/v1/logs': async (req) => {
      const sent = new Uint8Array(await req.arrayBuffer());
      const res = await postLogs(new Request(req.url, { method: 'POST', headers: req.headers, body: sent }));
      const body = new Uint8Array(await res.clone().arrayBuffer());
      answers.push({ request: { body: sent, contentType: req.headers.get('content-type') }, status: res.status, contentType: res.headers.get('content-type'), body });
      return res;
    },
  });
});
afterAll(async () => {
  await server.close();
  context.disable();
});

const resource = resourceFromAttributes({ 'service.name': 'logs-test' });
const providers: Array<{ shutdown(): Promise<void> }> = [];

function tracing() {
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${server.origin}/api/otel/v1/traces`, headers }))],
  });
  providers.push(provider);
  return { tracer: provider.getTracer('logs-test'), flush: () => provider.forceFlush() };
}

function logging(kind: 'protobuf' | 'json') {
  const config = { url: `${server.origin}/api/otel/v1/logs`, headers };
  const exporter = kind === 'protobuf' ? new ProtoLogExporter(config) : new JsonLogExporter(config);
  const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter })] });
  providers.push(provider);
  return { logger: provider.getLogger('genai-events', '1.0.0'), flush: () => provider.forceFlush() };
}

const inSpan = (span: Span) => trace.setSpan(context.active(), span);

/** Until the server has answered `n` log exports (the simple processor's flush does not wait for the HTTP answer). */
async function answered(n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (answers.length < n) {
    if (Date.now() > deadline) throw new Error(`${answers.length} of ${n} log exports answered`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function detail(traceId: string): Promise<TraceDetail> {
  const res = await getDetail(new Request(`http://test/api/traces/${traceId}`, { headers }), { params: Promise.resolve({ id: traceId }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { trace: TraceDetail }).trace;
}

describe.each(testDatabases())('real OTLP log exporters to POST /api/otel/v1/logs on $name', ({ open }) => {
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
    process.env.API_KEYS = API_KEY;
    answers.length = 0;
    await truncateAll(db);
  });
  afterEach(async () => {
    await Promise.all(providers.splice(0).map((p) => p.shutdown()));
    process.env = { ...savedEnv };
  });

  it('protobuf: GenAI message records fill the stored span that has no payload, and are its events', async () => {
    const { tracer, flush } = tracing();
    const { logger, flush: flushLogs } = logging('protobuf');
    const chat = tracer.startSpan('chat gpt-4o', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' } });
    chat.end();
    await flush();
    const ctx = inSpan(chat);
    // Each record is its own request here, so records of one millisecond would have no
    // defined order between them (in one request they keep the request's order).
    const sent = Date.now();
    logger.emit({ eventName: 'gen_ai.system.message', body: { content: 'Be brief.' }, context: ctx, timestamp: sent });
    logger.emit({ eventName: 'gen_ai.user.message', body: { content: 'Weather in Paris?' }, context: ctx, timestamp: sent + 1 });
    logger.emit({
      eventName: 'gen_ai.choice',
      body: { index: 0, finish_reason: 'tool_calls', message: { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } }] } },
      context: ctx,
    });
    logger.emit({ severityNumber: 17, severityText: 'ERROR', body: 'rate limited, retrying', context: ctx });
    await flushLogs();
    await answered(4);
    expect(answers.map((a) => [a.status, a.contentType, a.body.length])).toEqual(Array(4).fill([200, 'application/x-protobuf', 0]));

    const stored = await detail(chat.spanContext().traceId);
    const span = stored.spans[0];
    expect(span.input).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
    ]);
    expect(span.output).toEqual([
      { role: 'assistant', finish_reason: 'tool_calls', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } }] },
    ]);
    // Records emitted in the same millisecond tie on time, where the list's order is not defined.
    expect(stored.events.map((e) => [e.spanId, e.type, e.name]).sort()).toEqual(
      [
        [span.id, 'CUSTOM', 'gen_ai.system.message'],
        [span.id, 'CUSTOM', 'gen_ai.user.message'],
        [span.id, 'CUSTOM', 'gen_ai.choice'],
        [span.id, 'ERROR', 'ERROR'],
      ].sort(),
    );
    expect(stored.events.find((e) => e.type === 'ERROR')!.metadata).toMatchObject({ log: { body: 'rate limited, retrying', severityText: 'ERROR', severityNumber: 17, scope: 'genai-events' } });
    expect(stored.status).toBe('COMPLETED');
  });

  it('a model call sent after its GenAI records takes its input and output from them; one sent with its own keeps it', async () => {
    const { tracer, flush } = tracing();
    const { logger, flush: flushLogs } = logging('protobuf');
    const bare = tracer.startSpan('chat gpt-4o', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' } });
    const own = tracer.startSpan('chat gpt-4o', {
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.input.messages': '[{"role":"user","content":"own"}]' },
    });
    for (const span of [bare, own]) {
      logger.emit({ eventName: 'gen_ai.user.message', body: { content: 'Weather in Paris?' }, context: inSpan(span) });
      logger.emit({ eventName: 'gen_ai.choice', body: { index: 0, finish_reason: 'stop', message: { content: 'Sunny.' } }, context: inSpan(span) });
    }
    await flushLogs();
    await answered(4);
    bare.end();
    own.end();
    await flush();

    const filled = (await detail(bare.spanContext().traceId)).spans[0];
    expect(filled.input).toEqual([{ role: 'user', content: 'Weather in Paris?' }]);
    expect(filled.output).toEqual([{ role: 'assistant', finish_reason: 'stop', content: 'Sunny.' }]);
    expect(filled.metadata).toMatchObject({ payloadFromLogs: ['input', 'output'] });
    const kept = (await detail(own.spanContext().traceId)).spans[0];
    expect(kept.input).toEqual([{ role: 'user', content: 'own' }]);
    // Its own input stays; the side it lacked comes from the records.
    expect(kept.output).toEqual([{ role: 'assistant', finish_reason: 'stop', content: 'Sunny.' }]);
  });

  it('gen_ai.evaluation.result records become SDK scores on their span, once however often they are sent', async () => {
    const { tracer, flush } = tracing();
    const { logger, flush: flushLogs } = logging('json');
    const chat = tracer.startSpan('chat gpt-4o', { attributes: { 'gen_ai.operation.name': 'chat' } });
    chat.end();
    await flush();
    const ctx = inSpan(chat);
    logger.emit({ eventName: 'gen_ai.evaluation.result', attributes: { 'gen_ai.evaluation.name': 'relevance', 'gen_ai.evaluation.score.value': 0.75, 'gen_ai.evaluation.explanation': 'mostly on topic' }, context: ctx });
    logger.emit({ eventName: 'gen_ai.evaluation.result', attributes: { 'gen_ai.evaluation.name': 'tone', 'gen_ai.evaluation.score.label': 'polite' }, context: ctx });
    await flushLogs();
    await answered(2);
    // The exporter's retry of the first request.
    const again = await postLogs(new Request(`${server.origin}/api/otel/v1/logs`, { method: 'POST', headers: { ...headers, 'content-type': answers[0].request.contentType! }, body: Buffer.from(answers[0].request.body) }));
    expect(again.status).toBe(200);
    const stored = await detail(chat.spanContext().traceId);
    expect(stored.spans[0].scores?.map((s) => [s.name, s.value, s.dataType, s.source, s.comment, s.author.name]).sort()).toEqual([
      ['relevance', 0.75, 'NUMERIC', 'SDK', 'mostly on topic', 'API_KEYS'],
      ['tone', 'polite', 'CATEGORICAL', 'SDK', null, 'API_KEYS'],
    ]);
    // The records stay events of the span too.
    expect(stored.events.filter((e) => e.name === 'gen_ai.evaluation.result')).toHaveLength(2);
  });

  it('JSON: records before their span open a RUNNING trace; the span completes it; a retry is stored once', async () => {
    const { tracer, flush } = tracing();
    const { logger, flush: flushLogs } = logging('json');
    const run = tracer.startSpan('agent run', { attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
    logger.emit({ eventName: 'tool.progress', body: { step: 1 }, attributes: { attempt: 1 }, context: inSpan(run) });
    await flushLogs();
    await answered(1);
    expect(answers[0].request.contentType).toBe('application/json');
    const traceId = run.spanContext().traceId;
    expect(await detail(traceId)).toMatchObject({ status: 'RUNNING', name: 'tool.progress', spans: [], events: [{ name: 'tool.progress', spanId: run.spanContext().spanId }] });
    // No span yet: nothing for the idle sweep to close it from, so it does not pick it (no lastSpanAt).
    const [row] = await testContext(db).db.sql.query<{ lastSpanAt: Date | null }>('SELECT "lastSpanAt" FROM "Trace" WHERE "id" = $1', [traceId]);
    expect(row.lastSpanAt).toBeNull();
    expect(await closeIdleTraces(testContext(db), new Date(Date.now() + 3_600_000))).toBe(0);

    // The exporter's retry of the same request.
    const retry = await fetch(`${server.origin}/api/otel/v1/logs`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: Buffer.from(answers[0].request.body),
    });
    expect(retry.status).toBe(200);
    run.end();
    await flush();
    const stored = await detail(traceId);
    expect(stored).toMatchObject({ status: 'COMPLETED', name: 'agent run' });
    expect(stored.events).toHaveLength(1);
    expect(stored.spans[0].input).toBeNull();
  });

  it('refuses records that name no span, through partial_success, and stores the rest', async () => {
    const { tracer, flush } = tracing();
    const span = tracer.startSpan('work');
    span.end();
    await flush();
    const { logger, flush: flushLogs } = logging('protobuf');
    logger.emit({ body: 'no span here' });
    logger.emit({ body: 'in the span', context: inSpan(span) });
    await flushLogs();
    await answered(2);
    const refused = answers.find((a) => a.body.length > 0)!;
    expect(refused.status).toBe(200);
    const decoded = ExportLogsServiceResponse.toObject(ExportLogsServiceResponse.decode(refused.body), { longs: Number }) as {
      partialSuccess: { rejectedLogRecords: number; errorMessage: Uint8Array };
    };
    expect(decoded.partialSuccess.rejectedLogRecords).toBe(1);
    expect(Buffer.from(decoded.partialSuccess.errorMessage).toString()).toBe('1 log record rejected: 1 log record names no span (trace_id and span_id)');
    expect((await detail(span.spanContext().traceId)).events.map((e) => e.metadata)).toEqual([expect.objectContaining({ log: expect.objectContaining({ body: 'in the span' }) })]);
  });
});
