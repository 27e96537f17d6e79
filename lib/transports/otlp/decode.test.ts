import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { MAX_ANY_VALUE_DEPTH, decodeJsonRequest, decodeProtobufRequest } from './decode';
import { ExportTraceServiceRequest } from './proto';
import type { OtlpSpan } from '@/lib/features/otlp/types';

// Spans made by the real SDK, encoded by the real OTLP serializers, as an exporter sends them.
function recordAgentRun(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-agent', 'deployment.environment': 'test' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('crossroads-test', '1.2.3');
  const root = tracer.startSpan('invoke_agent support', {
    kind: SpanKind.SERVER,
    startTime: [1760000000, 123456789],
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'session.id': 's-1' },
  });
  const chat = tracer.startSpan(
    'chat gpt-4o',
    {
      kind: SpanKind.CLIENT,
      startTime: [1760000000, 200000001],
      attributes: {
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 1234,
        'gen_ai.request.temperature': 0.25,
        'gen_ai.request.stream': false,
        'gen_ai.request.stop_sequences': ['\n\n', 'END'],
        'llm.token_ids': [1, 2, 3],
      },
    },
    trace.setSpan(context.active(), root),
  );
  chat.addEvent('exception', { 'exception.type': 'RateLimitError', 'exception.message': 'slow down' }, [1760000000, 300000002]);
  chat.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
  chat.end([1760000001, 999999999]);
  root.setStatus({ code: SpanStatusCode.OK });
  root.end([1760000002, 0]);
  return exporter.getFinishedSpans();
}

/** The same span with other attributes or scope (the SDK only allows primitive attributes; exporters may send any AnyValue). */
function withOverrides(span: ReadableSpan, overrides: Record<string, unknown>): ReadableSpan {
  return Object.assign(Object.create(span) as ReadableSpan, overrides);
}

const protobufOf = (spans: ReadableSpan[]) => ProtobufTraceSerializer.serializeRequest(spans)!;
const jsonOf = (spans: ReadableSpan[]) => new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)!);

function refusal(decode: () => unknown): AppError {
  try {
    decode();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VALIDATION');
    return err as AppError;
  }
  throw new Error('expected the request to be refused');
}

const EVERY_KIND: Record<string, unknown> = {
  text: 'héllo ✓ 😀',
  yes: true,
  count: 42,
  zero: 0,
  no: false,
  emptyText: '',
  negative: -7,
  big: 2 ** 60,
  ratio: 0.5,
  notANumber: NaN,
  infinite: -Infinity,
  blob: new Uint8Array([0, 1, 2, 250, 255]),
  list: ['a', 1, [true, null]],
  nested: { model: 'gpt-4o', params: { temperature: 0.2, tools: ['search', 'calc'] }, empty: {} },
  nothing: null,
};

const EVERY_KIND_DECODED = {
  text: 'héllo ✓ 😀',
  yes: true,
  count: 42,
  zero: 0,
  no: false,
  emptyText: '',
  negative: -7,
  big: '1152921504606846976',
  ratio: 0.5,
  notANumber: 'NaN',
  infinite: '-Infinity',
  blob: 'AAEC+v8=',
  list: ['a', 1, [true, null]],
  nested: { model: 'gpt-4o', params: { temperature: 0.2, tools: ['search', 'calc'] }, empty: {} },
  nothing: null,
};

function expectAgentRun(spans: OtlpSpan[], traceId: string, rootId: string, chatId: string) {
  expect(spans).toHaveLength(2);
  const [chat, root] = spans; // SimpleSpanProcessor exports each span as it ends
  expect(chat).toMatchObject({
    traceId,
    spanId: chatId,
    parentSpanId: rootId,
    name: 'chat gpt-4o',
    kind: 3,
    startTimeUnixNano: BigInt('1760000000200000001'),
    endTimeUnixNano: BigInt('1760000001999999999'),
    status: { code: 2, message: 'rate limited' },
  });
  expect(chat.attributes).toEqual({
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.usage.input_tokens': 1234,
    'gen_ai.request.temperature': 0.25,
    'gen_ai.request.stream': false,
    'gen_ai.request.stop_sequences': ['\n\n', 'END'],
    'llm.token_ids': [1, 2, 3],
  });
  expect(chat.events).toEqual([
    {
      name: 'exception',
      timeUnixNano: BigInt('1760000000300000002'),
      attributes: { 'exception.type': 'RateLimitError', 'exception.message': 'slow down' },
    },
  ]);
  expect(root).toMatchObject({
    traceId,
    spanId: rootId,
    parentSpanId: '',
    name: 'invoke_agent support',
    kind: 2,
    startTimeUnixNano: BigInt('1760000000123456789'),
    endTimeUnixNano: BigInt('1760000002000000000'),
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'session.id': 's-1' },
    events: [],
    status: { code: 1, message: '' },
  });
  expect(root.resource.attributes).toMatchObject({ 'service.name': 'support-agent', 'deployment.environment': 'test' });
  expect(root.scope).toEqual({ name: 'crossroads-test', version: '1.2.3', attributes: {} });
  // One resource and one scope in the request: the spans share the objects.
  expect(chat.resource).toBe(root.resource);
  expect(chat.scope).toBe(root.scope);
}

describe('decodeProtobufRequest', () => {
  it('reads what the OTLP protobuf serializer writes: ids as lowercase hex, exact nanoseconds, kinds, status, events, resource and scope', () => {
    const recorded = recordAgentRun();
    const [chat, root] = recorded;
    const spans = decodeProtobufRequest(protobufOf(recorded));
    expect(chat.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expectAgentRun(spans, root.spanContext().traceId, root.spanContext().spanId, chat.spanContext().spanId);
  });

  it('reads every AnyValue kind: kvlist as an object, bytes as base64, unsafe int64 as text, non-finite doubles by name, empty as null', () => {
    const [chat] = recordAgentRun();
    const span = withOverrides(chat, {
      attributes: EVERY_KIND,
      instrumentationScope: { name: 'scope', version: '', attributes: { 'scope.flag': true } },
    });
    const [decoded] = decodeProtobufRequest(protobufOf([span]));
    expect(decoded.attributes).toEqual(EVERY_KIND_DECODED);
    expect(decoded.scope).toEqual({ name: 'scope', version: '', attributes: { 'scope.flag': true } });
  });

  it('gives no spans for an empty body or a request without spans', () => {
    expect(decodeProtobufRequest(new Uint8Array(0))).toEqual([]);
    const noSpans = ExportTraceServiceRequest.encode({ resourceSpans: [{ scopeSpans: [{ spans: [] }] }] }).finish();
    expect(noSpans.length).toBeGreaterThan(0);
    expect(decodeProtobufRequest(noSpans)).toEqual([]);
  });

  it('passes ids of the wrong length through as hex, for the mapper to refuse', () => {
    const body = ExportTraceServiceRequest.encode({
      resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: Buffer.from('abcd', 'hex'), spanId: Buffer.alloc(8), name: Buffer.from('s') }] }] }],
    }).finish();
    const [span] = decodeProtobufRequest(body);
    expect(span).toMatchObject({ traceId: 'abcd', spanId: '0000000000000000', parentSpanId: '', name: 's', startTimeUnixNano: BigInt(0) });
    expect(span.resource).toEqual({ attributes: {} });
    expect(span.scope).toEqual({ name: '', version: '', attributes: {} });
  });

  it('lets a later duplicate attribute key win and keeps __proto__ as an ordinary key', () => {
    const kv = (key: string, value: string) => ({ key: Buffer.from(key), value: { stringValue: Buffer.from(value) } });
    const body = ExportTraceServiceRequest.encode({
      resourceSpans: [{ scopeSpans: [{ spans: [{ attributes: [kv('a', '1'), kv('__proto__', 'x'), kv('a', '2')] }] }] }],
    }).finish();
    const [span] = decodeProtobufRequest(body);
    expect(Object.keys(span.attributes)).toEqual(['a', '__proto__']);
    expect(span.attributes.a).toBe('2');
    expect(Object.getPrototypeOf(span.attributes)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(span.attributes, '__proto__')?.value).toBe('x');
  });

  it('reads the wire as protobuf does: unknown fields and wrong wire types skipped, any field order, the last oneof member, merged messages', () => {
    const w = () => protobuf.Writer.create();
    const len = (field: number, bytes: Uint8Array) => w().uint32((field << 3) | 2).bytes(bytes).finish();
    const text = (field: number, value: string) => len(field, Buffer.from(value));
    const cat = (...parts: Uint8Array[]) => Buffer.concat(parts);
    // AnyValue: string_value, then bool_value (the member read last wins), then an unknown field 9.
    const anyValue = cat(text(1, 'first'), w().uint32((2 << 3) | 0).bool(true).finish(), w().uint32((9 << 3) | 0).uint32(5).finish());
    // KeyValue with its value before its key.
    const keyValue = cat(len(2, anyValue), text(1, 'late.key'));
    const span = cat(
      len(1, Buffer.alloc(16, 0xab)),
      len(2, Buffer.alloc(8, 0xcd)),
      w().uint32((5 << 3) | 0).uint32(7).finish(), // name as a varint: not a string, skipped
      text(5, 'chat'),
      w().uint32((100 << 3) | 5).fixed32(1).finish(), // a field from the future
      len(9, keyValue),
      len(15, text(2, 'first message')),
      len(15, w().uint32((3 << 3) | 0).int32(2).finish()), // status sent twice: merged
    );
    // The resource after the spans, and sent twice: every span shares the one, merged.
    const kv = (k: string, v: string) => len(1, cat(text(1, k), len(2, text(1, v))));
    const resourceSpans = cat(len(2, len(2, span)), len(1, kv('service.name', 'svc')), len(1, kv('host.name', 'h1')));
    const [decoded] = decodeProtobufRequest(len(1, resourceSpans));
    expect(decoded).toMatchObject({
      traceId: 'ab'.repeat(16),
      spanId: 'cd'.repeat(8),
      name: 'chat',
      attributes: { 'late.key': true },
      status: { code: 2, message: 'first message' },
    });
    expect(decoded.resource.attributes).toEqual({ 'service.name': 'svc', 'host.name': 'h1' });
    // Field number 0 does not exist.
    expect(refusal(() => decodeProtobufRequest(Uint8Array.from([0x00, 0x01]))).message).toMatch(/not a valid ExportTraceServiceRequest \(.*field number 0/);
  });

  it('refuses garbage, a truncated request and JSON sent as protobuf', () => {
    const body = protobufOf(recordAgentRun());
    for (const bad of [
      body.subarray(0, body.length - 7),
      Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3]),
      Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      new TextEncoder().encode('{"resourceSpans":[]}'),
    ]) {
      expect(refusal(() => decodeProtobufRequest(bad)).message).toMatch(/^Invalid OTLP protobuf body: not a valid ExportTraceServiceRequest \(.+\)$/);
    }
  });

  it('refuses a malformed nested value, found when the value is read', () => {
    const body = ExportTraceServiceRequest.encode({
      resourceSpans: [
        { scopeSpans: [{ spans: [{ attributes: [{ key: Buffer.from('list'), value: { arrayValue: Uint8Array.from([0x0a, 0x7f, 0x01]) } }] }] }] },
      ],
    }).finish();
    expect(refusal(() => decodeProtobufRequest(body)).message).toBe(
      'Invalid OTLP protobuf body: resourceSpans[0].scopeSpans[0].spans[0].attributes["list"] holds a malformed ArrayValue',
    );
  });

  it('names the resource, the scope and the span that held a bad string, counting from zero', () => {
    const bad = Buffer.from([0x63, 0xc3, 0x28]); // "c" then a broken two-byte sequence
    const good = (name: string) => ({ traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 2), name: Buffer.from(name) });
    const cases: Array<[object, string]> = [
      [{ resource: { attributes: [{ key: Buffer.from('k'), value: { stringValue: bad } }] }, scopeSpans: [] }, 'resourceSpans[1].resource.attributes["k"]'],
      [{ scopeSpans: [{ spans: [good('a')] }, { scope: { name: bad }, spans: [] }] }, 'resourceSpans[1].scopeSpans[1].scope.name'],
      [{ scopeSpans: [{ spans: [good('a'), good('b'), { ...good('c'), name: bad }] }] }, 'resourceSpans[1].scopeSpans[0].spans[2].name'],
    ];
    for (const [second, path] of cases) {
      const body = ExportTraceServiceRequest.encode({ resourceSpans: [{ scopeSpans: [{ spans: [good('first')] }] }, second] }).finish();
      expect(refusal(() => decodeProtobufRequest(body)).message).toBe(`Invalid OTLP protobuf body: ${path} is not valid UTF-8`);
    }
  });

  it('refuses invalid UTF-8 in a string and says which field held it', () => {
    const [chat] = recordAgentRun();
    const patch = (span: ReadableSpan, bad: number[]) => {
      const body = Buffer.from(protobufOf([span]));
      const at = body.indexOf(Buffer.from('é')); // C3 A9, replaced by bytes of the same length
      expect(at).toBeGreaterThan(0);
      Buffer.from(bad).copy(body, at);
      return body;
    };
    const named = withOverrides(chat, { name: 'caf\u00e9', attributes: {}, events: [] });
    expect(refusal(() => decodeProtobufRequest(patch(named, [0xc3, 0x28]))).message).toBe(
      'Invalid OTLP protobuf body: resourceSpans[0].scopeSpans[0].spans[0].name is not valid UTF-8',
    );
    // A surrogate code point (ED A0 80) is not UTF-8 either; 3 bytes for the 2 of é plus 'x'.
    const surrogate = withOverrides(chat, { name: 'caf\u00e9x', attributes: {}, events: [] });
    expect(() => decodeProtobufRequest(patch(surrogate, [0xed, 0xa0, 0x80]))).toThrow(/spans\[0\]\.name is not valid UTF-8/);
    const inValue = withOverrides(chat, { name: 'chat', attributes: { prompt: 'caf\u00e9' }, events: [] });
    expect(refusal(() => decodeProtobufRequest(patch(inValue, [0xc3, 0x28]))).message).toBe(
      'Invalid OTLP protobuf body: resourceSpans[0].scopeSpans[0].spans[0].attributes["prompt"] is not valid UTF-8',
    );
    const inEvent = withOverrides(chat, { name: 'chat', attributes: {} });
    const eventSpan = withOverrides(inEvent, { events: [{ name: 'caf\u00e9', time: [1, 0], attributes: {} }] });
    expect(refusal(() => decodeProtobufRequest(patch(eventSpan, [0xc3, 0x28]))).message).toMatch(/spans\[0\]\.events\[0\]\.name is not valid UTF-8$/);
    // U+FFFD sent as such is valid text.
    const replacement = withOverrides(chat, { name: 'caf\uFFFD', attributes: {}, events: [] });
    expect(decodeProtobufRequest(protobufOf([replacement]))[0].name).toBe('caf\uFFFD');
  });

  it(`accepts attribute values nested ${MAX_ANY_VALUE_DEPTH} levels deep and refuses the request at one more`, () => {
    const [chat] = recordAgentRun();
    const nest = (levels: number) => {
      let v: unknown = 'leaf';
      for (let i = 1; i < levels; i++) v = i % 2 ? [v] : { k: v };
      return v;
    };
    const ok = decodeProtobufRequest(protobufOf([withOverrides(chat, { attributes: { deep: nest(MAX_ANY_VALUE_DEPTH) } })]));
    expect(JSON.stringify(ok[0].attributes.deep)).toContain('"leaf"');
    const tooDeep = withOverrides(chat, { attributes: { fine: 1, deep: nest(MAX_ANY_VALUE_DEPTH + 1) } });
    expect(refusal(() => decodeProtobufRequest(protobufOf([tooDeep]))).message).toBe(
      'Invalid OTLP protobuf body: resourceSpans[0].scopeSpans[0].spans[0].attributes["deep"] is nested deeper than 64 levels',
    );
  });
});

describe('decodeJsonRequest', () => {
  it('reads what the OTLP JSON serializer writes, the same as its protobuf twin', () => {
    const recorded = recordAgentRun();
    const [chat, root] = recorded;
    const spans = decodeJsonRequest(jsonOf(recorded));
    expectAgentRun(spans, root.spanContext().traceId, root.spanContext().spanId, chat.spanContext().spanId);
    // Non-finite doubles left out: the JSON serializer writes them as null (JSON.stringify).
    const { notANumber, infinite, ...finite } = EVERY_KIND;
    const { notANumber: nan, infinite: inf, ...finiteDecoded } = EVERY_KIND_DECODED;
    expect([notANumber, infinite, nan, inf]).toEqual([NaN, -Infinity, 'NaN', '-Infinity']);
    const rich = [
      withOverrides(chat, { attributes: finite, instrumentationScope: { name: 's', version: '2', attributes: { x: [1.5] } } }),
      root,
    ];
    const fromJson = decodeJsonRequest(jsonOf(rich));
    expect(fromJson[0].attributes).toEqual(finiteDecoded);
    expect(fromJson[0].scope).toEqual({ name: 's', version: '2', attributes: { x: [1.5] } });
    expect(fromJson).toEqual(decodeProtobufRequest(protobufOf(rich)));
  });

  it('gives no spans for empty text, {} or empty lists', () => {
    expect(decodeJsonRequest('')).toEqual([]);
    expect(decodeJsonRequest('{}')).toEqual([]);
    expect(decodeJsonRequest('{"resourceSpans":[{"scopeSpans":[{"spans":[]}]},{}]}')).toEqual([]);
    expect(decodeJsonRequest('{"resourceSpans":null}')).toEqual([]);
  });

  const request = (span: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }], ...extra });

  it('reads ids as hex in any case, or as base64 of the right length, and passes anything else on lowercased', () => {
    const traceHex = '5b8efff798038103d269b633813fc60c';
    const spanHex = 'eee19b7ec3c1b174';
    const [upper] = decodeJsonRequest(request({ traceId: traceHex.toUpperCase(), spanId: spanHex.toUpperCase(), parentSpanId: '' }));
    expect(upper).toMatchObject({ traceId: traceHex, spanId: spanHex, parentSpanId: '' });
    const b64 = (h: string) => Buffer.from(h, 'hex').toString('base64');
    const [base64] = decodeJsonRequest(request({ traceId: b64(traceHex), spanId: b64(spanHex), parentSpanId: b64(spanHex).replace(/=+$/, '') }));
    expect(base64).toMatchObject({ traceId: traceHex, spanId: spanHex, parentSpanId: spanHex });
    const [odd] = decodeJsonRequest(request({ traceId: 'ABC', spanId: '00000000000000000000', parentSpanId: 'Not-An-Id!' }));
    expect(odd).toMatchObject({ traceId: 'abc', spanId: '00000000000000000000', parentSpanId: 'not-an-id!' });
  });

  it('reads int64 as numbers or decimal strings, and enums as numbers or names', () => {
    const [span] = decodeJsonRequest(
      request({
        traceId: '5b8efff798038103d269b633813fc60c',
        startTimeUnixNano: 1700000000000000000,
        endTimeUnixNano: '18446744073709551615',
        kind: 'SPAN_KIND_SERVER',
        status: { code: 'STATUS_CODE_ERROR', message: 'failed' },
        events: [{ timeUnixNano: '1700000000000000001', name: 'e' }],
        attributes: [
          { key: 'n', value: { intValue: 5 } },
          { key: 's', value: { intValue: '-42' } },
          { key: 'big', value: { intValue: '-9223372036854775808' } },
          { key: 'd', value: { doubleValue: 'Infinity' } },
          { key: 'e', value: { doubleValue: '2.5' } },
        ],
      }),
    );
    expect(span.startTimeUnixNano).toBe(BigInt('1700000000000000000'));
    expect(span.endTimeUnixNano).toBe(BigInt('18446744073709551615'));
    expect(span.kind).toBe(2);
    expect(span.status).toEqual({ code: 2, message: 'failed' });
    expect(span.events[0].timeUnixNano).toBe(BigInt('1700000000000000001'));
    expect(span.attributes).toEqual({ n: 5, s: -42, big: '-9223372036854775808', d: 'Infinity', e: 2.5 });
    const [numeric] = decodeJsonRequest(request({ kind: 4, status: { code: 1 } }));
    expect(numeric).toMatchObject({ kind: 4, status: { code: 1, message: '' } });
  });

  it('accepts the proto field names, ignores unknown fields, and lets a later duplicate key win', () => {
    const text = JSON.stringify({
      resource_spans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { string_value: 'svc' } }], dropped_attributes_count: 0 },
          scope_spans: [
            {
              scope: { name: 'lib', version: '1' },
              schema_url: 'x',
              spans: [
                {
                  trace_id: '5b8efff798038103d269b633813fc60c',
                  span_id: 'eee19b7ec3c1b174',
                  parent_span_id: 'aaa19b7ec3c1b174',
                  start_time_unix_nano: '1',
                  end_time_unix_nano: '2',
                  flags: 257,
                  links: [{ traceId: 'x' }],
                  futureField: { anything: [1, 2] },
                  attributes: [
                    { key: 'k', value: { stringValue: 'first' } },
                    { key: 'list', value: { array_value: { values: [{ bool_value: true }, {}] } } },
                    { key: 'map', value: { kvlist_value: { values: [{ key: 'x', value: { bytes_value: 'AAE' } }] } } },
                    { key: 'k', value: { stringValue: 'second' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const [span] = decodeJsonRequest(text);
    expect(span).toMatchObject({ spanId: 'eee19b7ec3c1b174', parentSpanId: 'aaa19b7ec3c1b174', startTimeUnixNano: BigInt(1) });
    expect(span.attributes).toEqual({ k: 'second', list: [true, null], map: { x: 'AAE=' } });
    expect(span.resource.attributes).toEqual({ 'service.name': 'svc' });
    expect(span.scope).toEqual({ name: 'lib', version: '1', attributes: {} });
  });

  it('refuses text that is not JSON or not an OTLP request, naming the place', () => {
    const cases: [string, string][] = [
      ['{"resourceSpans": [', 'not valid JSON'],
      ['[]', 'request must be a JSON object'],
      ['null', 'request must be a JSON object'],
      ['{"resourceSpans": {}}', 'resourceSpans must be an array'],
      ['{"resourceSpans": [{"scopeSpans": [{"spans": [7]}]}]}', 'resourceSpans[0].scopeSpans[0].spans[0] must be an object'],
      ['{"resourceSpans": [{"scopeSpans": "x"}]}', 'resourceSpans[0].scopeSpans must be an array'],
      [request({ name: 5 }), 'spans[0].name must be a string'],
      [request({ traceId: 12 }), 'spans[0].traceId must be a string'],
      [request({ startTimeUnixNano: '-1' }), 'spans[0].startTimeUnixNano must be an unsigned 64-bit integer'],
      [request({ endTimeUnixNano: 1.5 }), 'spans[0].endTimeUnixNano must be an unsigned 64-bit integer'],
      [request({ endTimeUnixNano: '18446744073709551616' }), 'spans[0].endTimeUnixNano must be an unsigned 64-bit integer'],
      [request({ kind: 'SERVER' }), 'spans[0].kind must be an integer or one of SPAN_KIND_UNSPECIFIED'],
      [request({ status: { code: 'STATUS_CODE_BROKEN' } }), 'spans[0].status.code must be an integer or one of STATUS_CODE_UNSET'],
      [request({ status: 'error' }), 'spans[0].status must be an object'],
      [request({ attributes: {} }), 'spans[0].attributes must be an array'],
      [request({ attributes: [{ key: 'a', value: { boolValue: 'true' } }] }), 'spans[0].attributes["a"].boolValue must be a boolean'],
      [request({ attributes: [{ key: 'a', value: { intValue: '1e3' } }] }), 'spans[0].attributes["a"].intValue must be a 64-bit integer'],
      [request({ attributes: [{ key: 'a', value: { intValue: '9223372036854775808' } }] }), 'attributes["a"].intValue must be a 64-bit integer'],
      [request({ attributes: [{ key: 'a', value: { bytesValue: 'not base64!' } }] }), 'attributes["a"].bytesValue must be base64 text'],
      [request({ attributes: [{ key: 'a', value: { doubleValue: '0x10' } }] }), 'attributes["a"].doubleValue must be a number'],
      [request({ attributes: [{ key: 'a', value: { kvlistValue: { values: [{ key: 'b', value: { intValue: 'x' } }] } } }] }), 'attributes["a"].intValue must be a 64-bit integer'],
      [request({ attributes: [{ key: 'k'.repeat(500), value: { boolValue: 1 } }] }), `attributes["${'k'.repeat(80)}…"].boolValue must be a boolean`],
      [request({ attributes: [{ key: 'a', value: { stringValue: 'x', intValue: 1 } }] }), 'attributes["a"] sets both stringValue and intValue'],
      [request({ attributes: [{ key: 'a', value: 'plain' }] }), 'attributes["a"] must be an AnyValue object'],
      [request({ attributes: [{ key: 'a', value: { arrayValue: [] } }] }), 'attributes["a"].arrayValue must be an object'],
      [request({ attributes: [{ key: 7 }] }), 'spans[0].attributes[0].key must be a string'],
      [request({ events: [{ name: 'e', timeUnixNano: 'soon' }] }), 'spans[0].events[0].timeUnixNano must be an unsigned'],
      [request({}, { resourceSpans: [{ resource: { attributes: [{ key: 'k', value: { doubleValue: true } }] } }] }), 'resourceSpans[0].resource.attributes["k"].doubleValue must be a number'],
      [request({}, { resourceSpans: [{ scopeSpans: [{ scope: { name: ['x'] } }] }] }), 'resourceSpans[0].scopeSpans[0].scope.name must be a string'],
    ];
    for (const [text, message] of cases) {
      const err = refusal(() => decodeJsonRequest(text));
      expect(err.message, text).toContain(message);
      expect(err.message, text).toMatch(/^Invalid OTLP JSON body: /);
    }
  });

  it(`refuses attribute values nested deeper than ${MAX_ANY_VALUE_DEPTH} levels, however deep the text goes`, () => {
    // Built as text: JSON.stringify itself would overflow the stack on the deepest one.
    const nest = (levels: number) => {
      let v = '{"stringValue":"leaf"}';
      for (let i = 1; i < levels; i++) v = i % 2 ? `{"arrayValue":{"values":[${v}]}}` : `{"kvlistValue":{"values":[{"key":"k","value":${v}}]}}`;
      return `{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"deep","value":${v}}]}]}]}]}`;
    };
    const ok = decodeJsonRequest(nest(MAX_ANY_VALUE_DEPTH));
    expect(JSON.stringify(ok[0].attributes)).toContain('"leaf"');
    for (const levels of [MAX_ANY_VALUE_DEPTH + 1, 20_000]) {
      expect(refusal(() => decodeJsonRequest(nest(levels))).message).toBe(
        'Invalid OTLP JSON body: resourceSpans[0].scopeSpans[0].spans[0].attributes["deep"] is nested deeper than 64 levels',
      );
    }
  });

  it('keeps a __proto__ attribute key as data', () => {
    const [span] = decodeJsonRequest(request({ attributes: [{ key: '__proto__', value: { kvlistValue: { values: [{ key: '__proto__', value: { intValue: 1 } }] } } }] }));
    expect(Object.getPrototypeOf(span.attributes)).toBe(Object.prototype);
    expect(JSON.stringify(span.attributes)).toBe('{"__proto__":{"__proto__":1}}');
  });
});
