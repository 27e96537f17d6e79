import { describe, expect, it } from 'vitest';
import { resource, scope, START, TRACE_ID } from '@/test/support/otlp-spans';
import { decodeJsonLogsRequest, decodeProtobufLogsRequest } from '@/lib/transports/otlp/decode';
import { LOG_REJECTION_REASONS, planLogRecords, spanPayloadOf } from './logs';
import { ExportLogsServiceRequest } from '@/lib/transports/otlp/proto';
import type { OtlpLogRecord } from './types';

const SPAN = '00f067aa0ba902b7';
const record = (fields: Partial<OtlpLogRecord> = {}): OtlpLogRecord => ({
  timeUnixNano: START,
  observedTimeUnixNano: START,
  severityNumber: 9,
  severityText: 'INFO',
  body: 'hello',
  attributes: {},
  traceId: TRACE_ID,
  spanId: SPAN,
  eventName: '',
  resource,
  scope,
  ...fields,
});

describe('decoding ExportLogsServiceRequest', () => {
  const json = {
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
        scopeLogs: [
          {
            scope: { name: 'genai', version: '1.0' },
            logRecords: [
              {
                timeUnixNano: '1767225600000000000',
                severityNumber: 'SEVERITY_NUMBER_ERROR',
                severityText: 'ERROR',
                eventName: 'gen_ai.user.message',
                body: { kvlistValue: { values: [{ key: 'content', value: { stringValue: 'Hi' } }] } },
                attributes: [{ key: 'gen_ai.system', value: { stringValue: 'openai' } }],
                traceId: TRACE_ID,
                spanId: SPAN,
              },
            ],
          },
        ],
      },
    ],
  };
  const expected = {
    timeUnixNano: START,
    observedTimeUnixNano: 0n,
    severityNumber: 17,
    severityText: 'ERROR',
    eventName: 'gen_ai.user.message',
    body: { content: 'Hi' },
    attributes: { 'gen_ai.system': 'openai' },
    traceId: TRACE_ID,
    spanId: SPAN,
    resource: { attributes: { 'service.name': 'svc' } },
    scope: { name: 'genai', version: '1.0', attributes: {} },
  };

  it('reads OTLP/JSON (enum names, hex ids, AnyValue body)', () => {
    expect(decodeJsonLogsRequest(JSON.stringify(json))).toEqual([expected]);
    expect(decodeJsonLogsRequest('')).toEqual([]);
    expect(() => decodeJsonLogsRequest('{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityNumber":"LOUD"}]}]}]}')).toThrow(/severityNumber/);
  });

  it('reads protobuf, as the SDK encodes it', () => {
    const message = ExportLogsServiceRequest.fromObject({
      resourceLogs: [
        {
          resource: { attributes: [{ key: Buffer.from('service.name'), value: { stringValue: Buffer.from('svc') } }] },
          scopeLogs: [
            {
              scope: { name: Buffer.from('genai'), version: Buffer.from('1.0') },
              logRecords: [
                {
                  timeUnixNano: '1767225600000000000',
                  severityNumber: 17,
                  severityText: Buffer.from('ERROR'),
                  eventName: Buffer.from('gen_ai.user.message'),
                  body: { stringValue: Buffer.from('Hi') },
                  attributes: [{ key: Buffer.from('gen_ai.system'), value: { stringValue: Buffer.from('openai') } }],
                  traceId: Buffer.from(TRACE_ID, 'hex'),
                  spanId: Buffer.from(SPAN, 'hex'),
                  flags: 1,
                },
              ],
            },
          ],
        },
      ],
    });
    const bytes = ExportLogsServiceRequest.encode(message).finish();
    expect(decodeProtobufLogsRequest(bytes)).toEqual([{ ...expected, body: 'Hi' }]);
    expect(decodeProtobufLogsRequest(new Uint8Array(0))).toEqual([]);
    expect(() => decodeProtobufLogsRequest(new Uint8Array([0x0a, 0x05, 0x01]))).toThrow(/Invalid OTLP protobuf body/);
  });
});

describe('planLogRecords', () => {
  it('makes records events of the span they name, with a stable id; a repeat in one request is kept once', () => {
    const planned = planLogRecords([record(), record(), record({ eventName: 'tool.retry', timeUnixNano: START + 1_000_000n })]);
    expect(planned.rejected).toEqual([]);
    const [trace] = planned.traces;
    expect(trace.events.map((e) => [e.spanId, e.type, e.name])).toEqual([
      [SPAN, 'CUSTOM', 'INFO'],
      [SPAN, 'RETRY', 'tool.retry'],
    ]);
    expect(trace.events[0].id).toMatch(new RegExp(`^${SPAN}:log:${String(START).padStart(20, '0')}\\.000000:[0-9a-f]{16}$`));
    expect(planLogRecords([record()]).traces[0].events[0].id).toBe(trace.events[0].id);
    expect(trace.events[0].metadata).toEqual({ log: { body: 'hello', scope: 'test-scope', severityText: 'INFO', severityNumber: 9 } });
    expect(trace).toMatchObject({ startedAt: new Date('2026-01-01T00:00:00.000Z'), provisionalName: 'INFO', contentSpans: [] });
  });

  it('keeps the order of records sent in the same millisecond: their ids sort as they were sent', () => {
    const message = (eventName: string, content: string) => record({ eventName, body: { content } });
    const sent = [message('gen_ai.system.message', 'Be brief.'), message('gen_ai.user.message', 'Hi'), message('gen_ai.assistant.message', 'Hello'), message('gen_ai.user.message', 'Bye')];
    for (const order of [sent, [...sent].reverse()]) {
      const [trace] = planLogRecords(order).traces;
      expect(trace.events.map((e) => (e.metadata as { log: { body: { content: string } } }).log.body.content)).toEqual(order.map((r) => (r.body as { content: string }).content));
      const ids = trace.events.map((e) => e.id);
      expect([...ids].sort()).toEqual(ids);
    }
  });

  it('refuses records without a span or a time, and unstorable text, counting them by reason', () => {
    const planned = planLogRecords([
      record({ spanId: '' }),
      record({ traceId: '', spanId: '' }),
      record({ timeUnixNano: 0n, observedTimeUnixNano: 0n }),
      record({ body: 'a\u0000b' }),
      record(),
    ]);
    expect(planned.rejected).toEqual([
      { count: 1, reason: LOG_REJECTION_REASONS.noTime },
      { count: 2, reason: LOG_REJECTION_REASONS.noSpan },
      { count: 1, reason: LOG_REJECTION_REASONS.unstorableText },
    ].sort((a, b) => (a.reason < b.reason ? -1 : 1)));
    expect(planned.traces[0].events).toHaveLength(1);
  });

  it('names ERROR events by severity, and takes the older event.name attribute', () => {
    const [trace] = planLogRecords([record({ severityNumber: 21, severityText: 'FATAL' }), record({ attributes: { 'event.name': 'gen_ai.choice' }, body: {} })]).traces;
    expect(trace.events.map((e) => [e.type, e.name])).toEqual([
      ['ERROR', 'FATAL'],
      ['CUSTOM', 'gen_ai.choice'],
    ]);
    expect(trace.contentSpans).toEqual([SPAN]);
  });
});

describe('spanPayloadOf', () => {
  it('lists message records as the input and choices as the output, in the order given', () => {
    expect(
      spanPayloadOf([
        { name: 'gen_ai.system.message', body: { content: 'Be brief.' }, attributes: {} },
        { name: 'gen_ai.user.message', body: 'Hi', attributes: {} },
        { name: 'gen_ai.tool.message', body: { id: 'c1', content: 'sunny' }, attributes: {} },
        { name: 'gen_ai.choice', body: { index: 0, finish_reason: 'stop', message: { content: 'Sunny.' } }, attributes: {} },
      ]),
    ).toEqual({
      input: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'tool', id: 'c1', content: 'sunny' },
      ],
      output: [{ role: 'assistant', content: 'Sunny.', finish_reason: 'stop' }],
    });
  });

  it("takes a call's details record as span attributes would be read", () => {
    expect(
      spanPayloadOf([
        {
          name: 'gen_ai.client.inference.operation.details',
          body: null,
          attributes: { 'gen_ai.input.messages': '[{"role":"user","parts":[]}]', 'gen_ai.output.messages': '[{"role":"assistant","parts":[]}]' },
        },
      ]),
    ).toEqual({ input: [{ role: 'user', parts: [] }], output: [{ role: 'assistant', parts: [] }] });
    expect(spanPayloadOf([{ name: 'other', body: 'x', attributes: {} }])).toEqual({});
  });
});
