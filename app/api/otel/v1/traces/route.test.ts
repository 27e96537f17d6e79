// OTLP/HTTP through the real route handler, on every test database: requests encoded by
// OpenTelemetry's own serializers from spans its SDK made; answers as OTLP prescribes.
import { gzipSync, deflateSync } from 'node:zlib';
import { context, trace, type Span } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as getDetail } from '@/app/api/traces/[id]/route';
import { POST as postJsonTraces } from '@/app/api/traces/route';
import { useDatabase } from '@/lib/db';
import { ExportTraceServiceResponse, RpcStatus } from '@/lib/transports/otlp/proto';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import type { TraceDetail } from '@/lib/features/traces/types';
import { POST } from './route';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('route-test', '1.0.0');

/** Finished SDK spans of one small agent run: root -> llm call (with usage) -> tool call. */
function agentRun(): ReadableSpan[] {
  exporter.reset();
  const root = tracer.startSpan('invoke_agent', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'support-bot' } });
  const inRoot = trace.setSpan(context.active(), root);
  const llm: Span = tracer.startSpan(
    'chat gpt-x',
    { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-x', 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 5 } },
    inRoot,
  );
  llm.end();
  const tool = tracer.startSpan('execute_tool', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup' } }, inRoot);
  tool.end();
  root.end();
  return exporter.getFinishedSpans();
}

const protobufBody = (spans: ReadableSpan[]) => ProtobufTraceSerializer.serializeRequest(spans)!;
const jsonBody = (spans: ReadableSpan[]) => JsonTraceSerializer.serializeRequest(spans)!;

const AUTH = { authorization: 'Bearer test-key' };
const PROTOBUF = { 'content-type': 'application/x-protobuf' };
const JSON_TYPE = { 'content-type': 'application/json' };

function send(body: Uint8Array | string, headers: Record<string, string>): Promise<Response> {
  return POST(new Request('http://test/api/otel/v1/traces', { method: 'POST', body: typeof body === 'string' ? body : Buffer.from(body), headers }));
}

async function stored(traceId: string): Promise<TraceDetail | null> {
  const res = await getDetail(new Request(`http://test/api/traces/${traceId}`), { params: Promise.resolve({ id: traceId }) });
  return res.status === 200 ? ((await res.json()) as { trace: TraceDetail }).trace : null;
}

/** A google.rpc.Status in either encoding. */
async function status(res: Response): Promise<{ code: number; message: string }> {
  if (res.headers.get('content-type') === 'application/json') return (await res.json()) as { code: number; message: string };
  const decoded = RpcStatus.toObject(RpcStatus.decode(new Uint8Array(await res.arrayBuffer()))) as {
    code: number;
    message: Uint8Array | string;
  };
  return { code: decoded.code, message: Buffer.from(decoded.message as Uint8Array).toString('utf8') };
}

describe.each(testDatabases())('POST /api/otel/v1/traces on $name', ({ open }) => {
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
    delete process.env.API_KEYS;
    await truncateAll(db);
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });

  it('stores a protobuf export and answers an empty ExportTraceServiceResponse in protobuf', async () => {
    const spans = agentRun();
    const res = await send(protobufBody(spans), { ...AUTH, ...PROTOBUF });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    const answer = ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(new Uint8Array(await res.arrayBuffer())));
    expect(answer.partialSuccess).toBeUndefined();

    const traceId = spans[0].spanContext().traceId;
    const t = await stored(traceId);
    expect(t).toMatchObject({ id: traceId, name: 'support-bot', status: 'COMPLETED', totalTokens: 17 });
    expect(t!.spans.map((s) => [s.id, s.type]).sort()).toEqual(
      spans.map((s) => [s.spanContext().spanId, s.name === 'invoke_agent' ? 'AGENT' : s.name === 'execute_tool' ? 'TOOL_CALL' : 'LLM_CALL']).sort(),
    );
    expect(t!.spans.find((s) => s.type === 'TOOL_CALL')?.name).toBe('lookup');
  });

  it('stores a JSON export (charset parameter allowed) and answers {} in JSON', async () => {
    const spans = agentRun();
    const res = await send(jsonBody(spans), { ...AUTH, 'content-type': 'application/json; charset=utf-8' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({});
    expect((await stored(spans[0].spanContext().traceId))?.spans).toHaveLength(3);
  });

  it('answers 200 to an empty request in either encoding', async () => {
    expect((await send(new Uint8Array(0), { ...AUTH, ...PROTOBUF })).status).toBe(200);
    const res = await send('{}', { ...AUTH, ...JSON_TYPE });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
  });

  it('reads gzip and deflate bodies', async () => {
    const a = agentRun();
    expect((await send(gzipSync(protobufBody(a)), { ...AUTH, ...PROTOBUF, 'content-encoding': 'gzip' })).status).toBe(200);
    const b = agentRun();
    expect((await send(deflateSync(jsonBody(b)), { ...AUTH, ...JSON_TYPE, 'content-encoding': 'deflate' })).status).toBe(200);
    expect(await stored(a[0].spanContext().traceId)).not.toBeNull();
    expect(await stored(b[0].spanContext().traceId)).not.toBeNull();
  });

  describe('credentials', () => {
    beforeEach(() => {
      process.env.API_KEYS = 'good-key';
    });

    it('401 with a Status body in the request encoding when missing or wrong', async () => {
      const body = protobufBody(agentRun());
      const missing = await send(body, PROTOBUF);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('content-type')).toBe('application/x-protobuf');
      expect(await status(missing)).toEqual({ code: 16, message: 'Missing or invalid Authorization header' });
      const wrong = await send(jsonBody(agentRun()), { authorization: 'Bearer nope', ...JSON_TYPE });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ code: 16, message: 'Invalid API key' });
      expect(await db.prisma.trace.count()).toBe(0);
    });

    it('accepts the key as Bearer, and as the Basic password', async () => {
      expect((await send(protobufBody(agentRun()), { authorization: 'Bearer good-key', ...PROTOBUF })).status).toBe(200);
      const basic = `Basic ${Buffer.from('any-user:good-key').toString('base64')}`;
      expect((await send(protobufBody(agentRun()), { authorization: basic, ...PROTOBUF })).status).toBe(200);
      const badBasic = `Basic ${Buffer.from('any-user:bad').toString('base64')}`;
      expect((await send(protobufBody(agentRun()), { authorization: badBasic, ...PROTOBUF })).status).toBe(401);
      expect(await db.prisma.trace.count()).toBe(2);
    });
  });

  describe('bad requests, refused whole', () => {
    it('415 for another content type, with a JSON Status', async () => {
      const res = await send('x', { ...AUTH, 'content-type': 'text/plain' });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ code: 3, message: expect.stringContaining('Content-Type') });
    });

    it('415 for an unsupported content encoding', async () => {
      const res = await send(protobufBody(agentRun()), { ...AUTH, ...PROTOBUF, 'content-encoding': 'br' });
      expect(res.status).toBe(415);
    });

    it('400 for garbage protobuf, truncated protobuf, JSON that is not OTLP and truncated gzip', async () => {
      const body = protobufBody(agentRun());
      const cases: Array<[Uint8Array | string, Record<string, string>]> = [
        [new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3]), PROTOBUF],
        [body.subarray(0, body.length - 7), PROTOBUF],
        ['{"resourceSpans": 5}', JSON_TYPE],
        ['[1,2', JSON_TYPE],
        [gzipSync(body).subarray(0, 40), { ...PROTOBUF, 'content-encoding': 'gzip' }],
      ];
      for (const [payload, headers] of cases) {
        const res = await send(payload, { ...AUTH, ...headers });
        expect(res.status, JSON.stringify(headers)).toBe(400);
        expect((await status(res)).code).toBe(3);
      }
      expect(await db.prisma.trace.count()).toBe(0);
    });

    it('400 for a JSON body that is not UTF-8, nothing stored', async () => {
      const text = Buffer.from(jsonBody(agentRun())).toString('utf8').replace('invoke_agent', 'invoke_\u00e9gent');
      const bytes = Buffer.from(text, 'utf8');
      const at = bytes.indexOf(Buffer.from('\u00e9', 'utf8'));
      bytes[at] = 0xff;
      const res = await send(bytes, { ...AUTH, ...JSON_TYPE });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 3, message: 'Request body is not valid UTF-8' });
      expect(await db.prisma.trace.count()).toBe(0);
    });

    it('reads a JSON body that starts with a byte order mark', async () => {
      const spans = agentRun();
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(jsonBody(spans))]);
      expect((await send(bytes, { ...AUTH, ...JSON_TYPE })).status).toBe(200);
      expect(await stored(spans[0].spanContext().traceId)).not.toBeNull();
    });

    it('413 for a body over the limit after decompression (a small zip bomb), nothing inflated or stored', async () => {
      process.env.MAX_BODY_BYTES = String(1024 * 1024);
      const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
      expect(bomb.length).toBeLessThan(100_000);
      const res = await send(bomb, { ...AUTH, ...PROTOBUF, 'content-encoding': 'gzip' });
      expect(res.status).toBe(413);
      expect(await status(res)).toEqual({ code: 8, message: 'Request body too large' });
    });

    it('413 for more spans than OTLP_MAX_SPANS_PER_REQUEST', async () => {
      process.env.OTLP_MAX_SPANS_PER_REQUEST = '2';
      const res = await send(jsonBody(agentRun()), { ...AUTH, ...JSON_TYPE });
      expect(res.status).toBe(413);
      expect((await res.json()).message).toMatch(/Too many spans in one request: 3; at most 2/);
      expect(await db.prisma.trace.count()).toBe(0);
    });
  });

  describe('partial success', () => {
    it('refuses the spans with bad ids, stores the rest, and says why in partial_success', async () => {
      const spans = agentRun();
      const request = JSON.parse(Buffer.from(jsonBody(spans)).toString('utf8'));
      const first = request.resourceSpans[0].scopeSpans[0].spans[0];
      const bad = { ...first, spanId: '0000000000000000', name: 'zero id' };
      const short = { ...first, spanId: 'abcd', name: 'short id' };
      request.resourceSpans[0].scopeSpans[0].spans.push(bad, short);
      const res = await send(JSON.stringify(request), { ...AUTH, ...JSON_TYPE });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { partialSuccess: { rejectedSpans: string; errorMessage: string } };
      expect(Number(answer.partialSuccess.rejectedSpans)).toBe(2);
      expect(answer.partialSuccess.errorMessage).toMatch(/^2 spans rejected: .*span id/);
      expect((await stored(spans[0].spanContext().traceId))?.spans).toHaveLength(3);
    });

    it('refuses spans for a trace id the JSON API stored; the JSON API answers 409 for an id OTLP created', async () => {
      const spans = agentRun();
      const traceId = spans[0].spanContext().traceId;
      const json = await postJsonTraces(
        new Request('http://test/api/traces', { method: 'POST', headers: AUTH, body: JSON.stringify({ traces: [makeTrace({ id: traceId })] }) }),
        undefined,
      );
      expect(json.status).toBe(200);
      const res = await send(protobufBody(spans), { ...AUTH, ...PROTOBUF });
      expect(res.status).toBe(200);
      const answer = ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(new Uint8Array(await res.arrayBuffer())), {
        longs: Number,
      }) as { partialSuccess: { rejectedSpans: number; errorMessage: string } };
      expect(answer.partialSuccess.rejectedSpans).toBe(3);
      expect((await stored(traceId))?.spans).toHaveLength(2);

      const other = agentRun();
      await send(protobufBody(other), { ...AUTH, ...PROTOBUF });
      const clash = await postJsonTraces(
        new Request('http://test/api/traces', {
          method: 'POST',
          headers: AUTH,
          body: JSON.stringify({ traces: [makeTrace({ id: other[0].spanContext().traceId })] }),
        }),
        undefined,
      );
      expect(clash.status).toBe(409);
      expect(await clash.json()).toEqual({ error: 'Duplicate trace ID detected' });
    });
  });

  it('stores a span sent twice once (an exporter retry)', async () => {
    const spans = agentRun();
    const body = protobufBody(spans);
    for (let k = 0; k < 3; k += 1) expect((await send(body, { ...AUTH, ...PROTOBUF })).status).toBe(200);
    const t = await stored(spans[0].spanContext().traceId);
    expect(t?.spans).toHaveLength(3);
    expect(t?.totalTokens).toBe(17);
  });
});
