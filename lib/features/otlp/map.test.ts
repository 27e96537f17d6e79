import { describe, expect, it } from 'vitest';
import { event, MS, resource, scope, span, spanId, START, TRACE_ID } from '@/test/support/otlp-spans';
import {
  mapOtlpSpans,
  MAX_ATTRIBUTE_CHARS,
  MAX_ATTRIBUTE_DEPTH,
  MAX_EVENTS_PER_SPAN,
  MAX_SPAN_NAME_CHARS,
  MAX_STATUS_MESSAGE_CHARS,
  REJECTION_REASONS,
  UNNAMED_SPAN,
} from './map';
import type { AttributeValue, OtlpSpan } from './types';

const only = (spans: OtlpSpan[]) => {
  const { traces, rejected } = mapOtlpSpans(spans);
  expect(rejected).toEqual([]);
  expect(traces).toHaveLength(1);
  return traces[0];
};
const one = (s: OtlpSpan) => only([s]).spans[0];
const rejectedFor = (s: OtlpSpan) => mapOtlpSpans([s]).rejected;

describe('mapOtlpSpans: spans', () => {
  it('keeps ids, parent, times (ms dates, sub-ms duration) and name', () => {
    const parent = spanId();
    const s = span({ parentSpanId: parent, name: 'work', startTimeUnixNano: START + 1_500_000n, endTimeUnixNano: START + 4_250_123n });
    expect(one(s)).toMatchObject({
      id: s.spanId,
      parentSpanId: parent,
      name: 'work',
      type: 'CUSTOM',
      startedAt: new Date('2026-01-01T00:00:00.001Z'),
      endedAt: new Date('2026-01-01T00:00:00.004Z'),
      durationMs: 2.750123,
      status: 'COMPLETED',
      statusMessage: null,
      tokenCount: null,
      costUsd: null,
      input: null,
      output: null,
    });
  });

  it('reads an empty or all-zero parent as a root, and a missing end as running time unknown', () => {
    expect(one(span({ parentSpanId: '0000000000000000', endTimeUnixNano: 0n }))).toMatchObject({
      parentSpanId: null,
      endedAt: null,
      durationMs: null,
    });
  });

  it('names a tool span after its tool when the span only names the operation', () => {
    expect(one(span({ name: 'execute_tool', attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather' } })).name).toBe('get_weather');
    expect(one(span({ name: 'ai.toolCall', attributes: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'search' } })).name).toBe('search');
    expect(one(span({ name: 'execute_tool get_weather', attributes: { 'gen_ai.tool.name': 'get_weather' } })).name).toBe('execute_tool get_weather');
    expect(one(span({ name: '' })).name).toBe(UNNAMED_SPAN);
  });

  it('counts tokens on LLM calls only, from each convention', () => {
    const usage = { 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5 };
    expect(one(span({ attributes: { 'gen_ai.operation.name': 'chat', ...usage } })).tokenCount).toBe(15);
    // An agent span repeating its children's usage is not counted again.
    expect(one(span({ attributes: { 'gen_ai.operation.name': 'invoke_agent', ...usage } })).tokenCount).toBeNull();
    const llm = (attributes: Record<string, AttributeValue>) => one(span({ attributes: { 'llm.model_name': 'm', ...attributes } })).tokenCount;
    expect(llm({ 'gen_ai.usage.prompt_tokens': 3, 'gen_ai.usage.completion_tokens': '4' })).toBe(7);
    expect(llm({ 'llm.token_count.prompt': 42, 'llm.token_count.completion': 12, 'llm.token_count.total': 54 })).toBe(54);
    expect(llm({ 'llm.token_count.total': 99 })).toBe(99);
    expect(llm({ 'ai.usage.inputTokens': 120, 'ai.usage.outputTokens': 18 })).toBe(138);
    expect(llm({ 'ai.usage.promptTokens': 1, 'ai.usage.completionTokens': 2 })).toBe(3);
    // Vercel repeats its usage as gen_ai.usage.*: one table (the AI SDK's) wins, nothing is added twice.
    expect(llm({ 'ai.usage.inputTokens': 120, 'ai.usage.outputTokens': 18, ...usage })).toBe(138);
    expect(llm({})).toBeNull();
  });

  it('takes cost from llm.cost.total or gen_ai.usage.cost', () => {
    expect(one(span({ attributes: { 'llm.cost.total': 0.25 } })).costUsd).toBe(0.25);
    expect(one(span({ attributes: { 'gen_ai.usage.cost': '0.5' } })).costUsd).toBe(0.5);
  });

  it('marks a failed span ERROR with its status message, else its first exception message', () => {
    const exception = event('exception', { 'exception.type': 'TimeoutError', 'exception.message': 'took too long' });
    expect(one(span({ status: { code: 2, message: 'boom' }, events: [exception] }))).toMatchObject({ status: 'ERROR', statusMessage: 'boom' });
    expect(one(span({ status: { code: 2, message: '' }, events: [event('note'), exception] }))).toMatchObject({ status: 'ERROR', statusMessage: 'took too long' });
    expect(one(span({ status: { code: 2, message: '' } }))).toMatchObject({ status: 'ERROR', statusMessage: null });
    expect(one(span({ status: { code: 1, message: 'fine' } }))).toMatchObject({ status: 'COMPLETED', statusMessage: null });
  });

  it('keeps every other attribute, the kind, scope and resource in metadata', () => {
    const s = span({
      kind: 3,
      attributes: { 'gen_ai.input.messages': '[]', 'gen_ai.request.model': 'gpt-4', 'http.status_code': 200, otel: 'mine' },
      scope: { name: 'sc', version: '2', attributes: { 'scope.attr': true } },
    });
    expect(one(s).metadata).toEqual({
      'gen_ai.request.model': 'gpt-4',
      'http.status_code': 200,
      otel: {
        kind: 'CLIENT',
        scope: { name: 'sc', version: '2', attributes: { 'scope.attr': true } },
        resource: resource.attributes,
        attribute: 'mine',
      },
    });
  });
});

describe('mapOtlpSpans: events', () => {
  it('maps exception, retry, fallback and other events on their span, with ids by index', () => {
    const exception = event('exception', { 'exception.type': 'ValueError', 'exception.message': 'bad', 'exception.stacktrace': 'at x', extra: 1 });
    const s = span({ events: [exception, event('Retry attempt', { attempt: 2 }), event('model_fallback'), event('cache warmed'), event('exception')] });
    const trace = only([s]);
    expect(trace.events.map((e) => [e.id, e.type, e.name, e.spanId])).toEqual([
      [`${s.spanId}:e0`, 'ERROR', 'ValueError', s.spanId],
      [`${s.spanId}:e1`, 'RETRY', 'Retry attempt', s.spanId],
      [`${s.spanId}:e2`, 'FALLBACK', 'model_fallback', s.spanId],
      [`${s.spanId}:e3`, 'CUSTOM', 'cache warmed', s.spanId],
      [`${s.spanId}:e4`, 'ERROR', 'exception', s.spanId],
    ]);
    expect(trace.events[0].metadata).toEqual(exception.attributes);
    expect(trace.events[0].timestamp).toEqual(new Date('2026-01-01T00:00:00.005Z'));
  });

  it('turns crossroads.decision events into decision points, not events', () => {
    const s = span({ events: [event('note'), event('crossroads.decision', { 'crossroads.decision.type': 'PLANNING', 'crossroads.decision.chosen': 'a' })] });
    const trace = only([s]);
    expect(trace.events.map((e) => e.id)).toEqual([`${s.spanId}:e0`]);
    expect(trace.decisionPoints).toMatchObject([{ id: `${s.spanId}:d1`, type: 'PLANNING', chosen: 'a', parentSpanId: s.spanId, inferred: false }]);
  });

  it('infers a tool selection on LLM calls only, at the span end', () => {
    const calls = '[{"toolCallId":"c","toolName":"f","input":"{}"}]';
    const llm = span({ attributes: { 'ai.operationId': 'ai.generateText.doGenerate', 'ai.response.toolCalls': calls } });
    const chain = span({ attributes: { 'ai.operationId': 'ai.generateText', 'ai.response.toolCalls': calls } });
    const { decisionPoints } = only([llm, chain]);
    expect(decisionPoints).toMatchObject([{ id: `${llm.spanId}:tool_selection`, timestamp: new Date('2026-01-01T00:00:00.010Z'), inferred: true }]);
  });
});

describe('mapOtlpSpans: traces', () => {
  it('fixes the trace fields from the root span', () => {
    const root = span({ name: 'run', attributes: { 'gen_ai.agent.name': 'Planner', 'ai.telemetry.functionId': 'fn' }, status: { code: 2, message: 'x' } });
    const trace = only([span({ parentSpanId: root.spanId, startTimeUnixNano: START - MS, name: 'early child' }), root]);
    expect(trace.root).toEqual({
      name: 'Planner',
      status: 'ERROR',
      endedAt: new Date('2026-01-01T00:00:00.010Z'),
      totalDuration: 10,
      metadata: { 'service.name': 'test-agent', resource: resource.attributes },
      userId: null,
    });
    expect(trace.provisionalName).toBe('early child');
  });

  it.each([
    'user.id',
    'langfuse.user.id',
    'traceloop.association.properties.user_id',
    'ai.telemetry.metadata.userId',
    'mastra.metadata.userId',
  ])('gives the trace its user from %s, on the root or else the first span that has one', (key) => {
    expect(only([span({ attributes: { [key]: 'u-1' } })]).root?.userId).toBe('u-1');
    const root = span({ startTimeUnixNano: START + 5n * MS });
    expect(only([root, span({ parentSpanId: root.spanId, attributes: { [key]: 'u-2' } })]).root?.userId).toBe('u-2');
    // An id unfit for a filter (too long, control characters) is no user.
    expect(only([span({ attributes: { [key]: 'x\n' } })]).root?.userId).toBeNull();
  });

  it("takes the session from each convention's key", () => {
    for (const key of ['langfuse.session.id', 'traceloop.association.properties.session_id', 'ai.telemetry.metadata.sessionId', 'mastra.metadata.sessionId']) {
      expect(only([span({ attributes: { [key]: 's-1' } })]).sessionId, key).toBe('s-1');
    }
  });

  it('fails a span whose Langfuse level is ERROR, with its status message', () => {
    const failed = one(span({ attributes: { 'langfuse.observation.level': 'ERROR', 'langfuse.observation.status_message': 'boom' } }));
    expect(failed).toMatchObject({ status: 'ERROR', statusMessage: 'boom' });
    expect(one(span({ attributes: { 'langfuse.observation.level': 'WARNING', 'langfuse.observation.status_message': 'hm' } }))).toMatchObject({ status: 'COMPLETED', statusMessage: null });
    // OTel's ERROR without a message takes the convention's.
    expect(one(span({ status: { code: 2, message: '' }, attributes: { 'langfuse.observation.status_message': 'down' } })).statusMessage).toBe('down');
  });

  it('offers a model call the tools of its nearest ancestor that lists some', () => {
    const agent = span({ name: 'agent', attributes: { 'gen_ai.tool.definitions': '["search","mail"]' } });
    const loop = span({ name: 'loop', parentSpanId: agent.spanId, startTimeUnixNano: START + MS });
    const step = span({
      name: 'step',
      parentSpanId: loop.spanId,
      startTimeUnixNano: START + 2n * MS,
      attributes: { 'mastra.span.type': 'model_step', 'mastra.model_step.output': '{"text":"","toolCalls":[{"toolName":"search","args":{"q":"x"}}]}' },
    });
    const [decision] = only([step, loop, agent]).decisionPoints;
    expect(decision).toMatchObject({ chosen: { tool: 'search', arguments: { q: 'x' } }, alternatives: [{ tool: 'mail' }] });
    expect(decision.contextSnapshot).toMatchObject({ toolsFromSpan: agent.spanId });
    // Without the ancestors in the batch: no alternatives, nothing invented.
    expect(only([step]).decisionPoints[0].alternatives).toEqual([]);
  });

  it('marks a model call reported twice (same model and usage, overlapping) as a duplicate of the outer one', () => {
    const usage = { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5 };
    const chain = span({ name: 'ChatOpenAI.chat', attributes: { ...usage, 'llm.request.type': 'chat', 'gen_ai.operation.name': 'chat' } });
    const client = span({ name: 'openai.chat', parentSpanId: chain.spanId, startTimeUnixNano: START + MS, attributes: { ...usage, 'gen_ai.operation.name': 'chat' } });
    const trace = only([chain, client]);
    const [outer, inner] = trace.spans;
    expect(outer.metadata).not.toHaveProperty('duplicateOf');
    expect(inner.metadata).toMatchObject({ duplicateOf: chain.spanId });
  });

  it('names the trace by ai.telemetry.functionId, else by the root span', () => {
    expect(only([span({ name: 'ai.generateText', attributes: { 'ai.telemetry.functionId': 'weather' } })]).root?.name).toBe('weather');
    expect(only([span({ name: 'main' })]).root).toMatchObject({ name: 'main', status: 'COMPLETED' });
  });

  it('has no root fields when the root span is elsewhere', () => {
    const trace = only([span({ parentSpanId: spanId(), name: 'child' })]);
    expect(trace.root).toBeNull();
    expect(trace.provisionalName).toBe('child');
  });

  it("takes session and tags from the root first, else from the first span that has them", () => {
    const root = span({ startTimeUnixNano: START + 5n * MS, attributes: { 'crossroads.session.id': 'root-session' } });
    const child = span({ parentSpanId: root.spanId, attributes: { 'session.id': 'child-session', 'tag.tags': '["a","b"]' } });
    const trace = only([child, root]);
    expect(trace.sessionId).toBe('root-session');
    expect(trace.tags).toEqual(['a', 'b']);
    expect(only([span({ attributes: { 'gen_ai.conversation.id': 'conv', 'crossroads.tags': ['x'] } })])).toMatchObject({ sessionId: 'conv', tags: ['x'] });
    expect(only([span()])).toMatchObject({ sessionId: null, tags: null });
  });

  it('cuts tags to the field limits instead of refusing them', () => {
    const tags = Array.from({ length: 150 }, (_, i) => `t${i}`);
    tags[0] = 'x'.repeat(300);
    const trace = only([span({ attributes: { 'crossroads.tags': tags } })]);
    expect(trace.tags).toHaveLength(100);
    expect(trace.tags![0]).toHaveLength(256);
  });

  it('groups spans by trace, in trace id order', () => {
    const other = 'f'.repeat(32);
    const { traces } = mapOtlpSpans([span({ traceId: other }), span(), span({ traceId: other })]);
    expect(traces.map((t) => [t.traceId, t.spans.length])).toEqual([[TRACE_ID, 1], [other, 2]]);
  });

  it('keeps the first copy of a span sent twice, silently', () => {
    const first = span({ name: 'first' });
    const { traces, rejected } = mapOtlpSpans([first, { ...first, name: 'second' }]);
    expect(rejected).toEqual([]);
    expect(traces[0].spans.map((s) => s.name)).toEqual(['first']);
  });

  it('does not depend on the order of the spans', () => {
    const root = span({ name: 'root', attributes: { 'session.id': 's' } });
    const spans = [
      root,
      span({ parentSpanId: root.spanId, startTimeUnixNano: START + MS, attributes: { 'session.id': 'b', 'tag.tags': ['b'] } }),
      span({ parentSpanId: root.spanId, startTimeUnixNano: START + MS, attributes: { 'tag.tags': ['a'] }, events: [event('e')] }),
      span({ traceId: 'e'.repeat(32), name: 'other' }),
      span({ traceId: '0'.repeat(32) }),
      span({ spanId: 'bad' }),
    ];
    const forward = mapOtlpSpans(spans);
    expect(mapOtlpSpans([...spans].reverse())).toEqual(forward);
    expect(mapOtlpSpans([spans[2], spans[5], spans[0], spans[4], spans[3], spans[1]])).toEqual(forward);
  });
});

describe('mapOtlpSpans: refusals', () => {
  const big = 'x'.repeat(MAX_ATTRIBUTE_CHARS + 1);
  const deep = (levels: number): AttributeValue => (levels === 0 ? 'leaf' : [deep(levels - 1)]);
  it.each<[string, Partial<OtlpSpan>, string]>([
    ['a short trace id', { traceId: 'abc' }, REJECTION_REASONS.traceId],
    ['an all-zero trace id', { traceId: '0'.repeat(32) }, REJECTION_REASONS.traceId],
    ['an uppercase trace id', { traceId: TRACE_ID.toUpperCase() }, REJECTION_REASONS.traceId],
    ['a long span id', { spanId: '0'.repeat(17) }, REJECTION_REASONS.spanId],
    ['an all-zero span id', { spanId: '0'.repeat(16) }, REJECTION_REASONS.spanId],
    ['a parent id of the wrong length', { parentSpanId: 'abcd' }, REJECTION_REASONS.parentSpanId],
    ['a start time of 0', { startTimeUnixNano: 0n, endTimeUnixNano: 0n }, REJECTION_REASONS.startTime],
    ['an end before the start', { endTimeUnixNano: START - 1n }, REJECTION_REASONS.endBeforeStart],
    ['a long name', { name: 'n'.repeat(MAX_SPAN_NAME_CHARS + 1) }, REJECTION_REASONS.nameLength],
    ['a long status message', { status: { code: 2, message: 'm'.repeat(MAX_STATUS_MESSAGE_CHARS + 1) } }, REJECTION_REASONS.statusMessageLength],
    ['too many events', { events: Array.from({ length: MAX_EVENTS_PER_SPAN + 1 }, () => event('e')) }, REJECTION_REASONS.tooManyEvents],
    ['a long attribute value', { attributes: { big } }, REJECTION_REASONS.attributeLength],
    ['a long string nested in a value', { attributes: { list: [{ k: big }] } }, REJECTION_REASONS.attributeLength],
    ['a long event attribute', { events: [event('e', { big })] }, REJECTION_REASONS.attributeLength],
    ['a value nested too deep', { attributes: { deep: deep(MAX_ATTRIBUTE_DEPTH + 1) } }, REJECTION_REASONS.attributeDepth],
    ['a NUL in the name', { name: 'a\u0000b' }, REJECTION_REASONS.unstorableText],
    ['a lone surrogate in an attribute value', { attributes: { k: 'a\ud800' } }, REJECTION_REASONS.unstorableText],
    ['a NUL in an attribute key', { attributes: { 'k\u0000': 1 } }, REJECTION_REASONS.unstorableText],
    ['a lone surrogate in a nested key', { attributes: { k: { '\udc00': 1 } } }, REJECTION_REASONS.unstorableText],
    ['a NUL in an event name', { events: [event('e\u0000')] }, REJECTION_REASONS.unstorableText],
    ['a NUL in an event attribute', { events: [event('e', { k: ['\u0000'] })] }, REJECTION_REASONS.unstorableText],
    ['a NUL in the status message', { status: { code: 2, message: '\u0000' } }, REJECTION_REASONS.unstorableText],
    ['a NUL in a resource attribute', { resource: { attributes: { 'host.name': '\u0000' } } }, REJECTION_REASONS.unstorableText],
    ['a lone surrogate in the scope name', { scope: { ...scope, name: '\ud800' } }, REJECTION_REASONS.unstorableText],
  ])('refuses a span with %s', (_, fields, reason) => {
    expect(rejectedFor(span(fields))).toEqual([{ count: 1, reason }]);
  });

  it('accepts the limits themselves, and paired surrogates', () => {
    const s = span({
      name: 'n'.repeat(MAX_SPAN_NAME_CHARS),
      attributes: { big: 'x'.repeat(MAX_ATTRIBUTE_CHARS), emoji: '😀', deep: deep(MAX_ATTRIBUTE_DEPTH - 1) },
      events: Array.from({ length: MAX_EVENTS_PER_SPAN }, () => event('e')),
      endTimeUnixNano: START,
    });
    expect(mapOtlpSpans([s]).rejected).toEqual([]);
  });

  it('counts refusals by reason and stores the rest (partial success)', () => {
    const { traces, rejected } = mapOtlpSpans([span({ spanId: 'x' }), span(), span({ spanId: 'y' }), span({ traceId: '' })]);
    expect(traces[0].spans).toHaveLength(1);
    expect(rejected).toEqual([
      { count: 2, reason: REJECTION_REASONS.spanId },
      { count: 1, reason: REJECTION_REASONS.traceId },
    ]);
  });
});
