// The mapper on spans the real SDKs recorded (scripts/record-otlp-fixtures.ts), read
// through the real decoder. Ids and times change when fixtures are recorded again, so
// spans are found by name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SpanInput } from '@/lib/traces/validate';
import { SpanAttributes } from './attributes';
import { inputOutputOf } from './conventions/io';
import { decodeJsonRequest } from './decode';
import { mapOtlpSpans } from './map';

function load(name: string) {
  const spans = decodeJsonRequest(readFileSync(path.join(import.meta.dirname, '../../test/fixtures/otlp', `${name}.json`), 'utf8'));
  const mapped = mapOtlpSpans(spans);
  expect(mapped.rejected).toEqual([]);
  expect(mapped.traces).toHaveLength(1);
  const trace = mapped.traces[0];
  /** The span of that name (the one `which` picks, when several share it: spans may start in the same millisecond). */
  const named = (spanName: string, which: (s: SpanInput) => boolean = () => true): SpanInput => {
    const found = trace.spans.filter((s) => s.name === spanName && which(s));
    if (found.length !== 1) throw new Error(`${found.length} spans named ${spanName} in ${name}`);
    return found[0];
  };
  return { spans, mapped, trace, named };
}

const meta = (s: SpanInput) => s.metadata as Record<string, unknown>;
/** Vercel's model call that asked for a tool, and the one that answered. */
const callingTools = (s: SpanInput) => meta(s)['ai.response.finishReason'] === 'tool-calls';
const answering = (s: SpanInput) => !callingTools(s);
/** The GenAI chat that called the tool (it reports a cost), and the one after it. */
const firstChat = (s: SpanInput) => s.costUsd !== null;
const secondChat = (s: SpanInput) => s.costUsd === null;

const FIXTURES = ['vercel-ai', 'openinference', 'genai', 'crossroads'];

describe.each(FIXTURES)('%s fixture', (name) => {
  it('throws nothing away: each attribute is in input/output or metadata, with kind, scope and resource', () => {
    const { spans, trace } = load(name);
    for (const span of spans) {
      const record = trace.spans.find((s) => s.id === span.spanId)!;
      const metadata = record.metadata as Record<string, unknown>;
      const { consumed } = inputOutputOf(new SpanAttributes(span.attributes));
      for (const key of Object.keys(span.attributes)) {
        expect(consumed.includes(key) || metadata[key] === span.attributes[key], `${span.name}: ${key}`).toBe(true);
      }
      expect(metadata.otel).toMatchObject({
        kind: 'INTERNAL',
        scope: { name: span.scope.name },
        resource: { 'service.name': 'fixture-agent', 'service.version': '1.2.3' },
      });
    }
  });

  it('maps the same whatever the order of the spans', () => {
    const { spans, mapped } = load(name);
    expect(mapOtlpSpans([...spans].reverse())).toEqual(mapped);
  });
});

describe('Vercel AI SDK (generateText, a mock model, two tools)', () => {
  it('types and names the spans, counts tokens on model calls only', () => {
    const { trace, named } = load('vercel-ai');
    expect(named('ai.generateText')).toMatchObject({ type: 'CHAIN', parentSpanId: null, tokenCount: null });
    expect(named('ai.generateText.doGenerate', callingTools)).toMatchObject({ type: 'LLM_CALL', tokenCount: 138 });
    expect(named('ai.generateText.doGenerate', answering)).toMatchObject({ type: 'LLM_CALL', tokenCount: 172 });
    expect(named('get_weather')).toMatchObject({
      type: 'TOOL_CALL',
      input: { city: 'Paris' },
      output: { city: 'Paris', condition: 'sunny', celsius: 21 },
    });
    // The wrapper reports the sum of its model calls: counted once.
    const total = trace.spans.reduce((sum, s) => sum + (s.tokenCount ?? 0), 0);
    expect(total).toBe(meta(named('ai.generateText'))['ai.usage.totalTokens']);
  });

  it('reads prompts and responses as input and output', () => {
    const { named } = load('vercel-ai');
    expect(named('ai.generateText')).toMatchObject({
      input: { system: 'You are a weather assistant.', prompt: 'What is the weather in Paris?' },
      output: 'It is sunny and 21°C in Paris.',
    });
    const call = named('ai.generateText.doGenerate', callingTools);
    expect(call.input).toMatchObject({ messages: [{ role: 'system' }, { role: 'user' }], toolChoice: { type: 'auto' } });
    expect(call.output).toEqual({
      text: 'Let me look up the weather in Paris.',
      toolCalls: [{ toolCallId: 'call-1', toolName: 'get_weather', input: '{"city":"Paris"}' }],
    });
  });

  it('infers the tool selection of the first model call, and names the trace by functionId', () => {
    const { trace, named } = load('vercel-ai');
    expect(trace.decisionPoints).toEqual([
      expect.objectContaining({
        type: 'TOOL_SELECTION',
        chosen: { tool: 'get_weather', arguments: { city: 'Paris' } },
        alternatives: [{ tool: 'get_time', description: 'Local time in a city' }],
        reasoning: 'Let me look up the weather in Paris.',
        parentSpanId: named('ai.generateText.doGenerate', callingTools).id,
        timestamp: named('ai.generateText.doGenerate', callingTools).endedAt,
        inferred: true,
      }),
    ]);
    expect(trace.root).toMatchObject({ name: 'weather-agent', status: 'COMPLETED' });
  });
});

describe('OpenInference (agent, LLM with a tool call, tool, retriever, failing tool)', () => {
  it('types the spans and reads their payloads', () => {
    const { named } = load('openinference');
    expect(named('travel-agent')).toMatchObject({ type: 'AGENT', output: { answer: 'It is sunny in Paris.' } });
    expect(named('ChatCompletion')).toMatchObject({ type: 'LLM_CALL', tokenCount: 54, costUsd: 0.00021 });
    expect(named('ChatCompletion').input).toMatchObject({
      messages: [{ role: 'system', content: 'You are a travel assistant.' }, { role: 'user' }],
      tools: [{ type: 'function', function: { name: 'get_weather' } }, { function: { name: 'search_docs' } }],
    });
    expect(named('get_weather')).toMatchObject({ type: 'TOOL_CALL', input: { city: 'Paris' }, output: { city: 'Paris', condition: 'sunny' } });
    expect(named('search-docs')).toMatchObject({
      type: 'MEMORY_OP',
      input: 'museums',
      output: [{ content: 'Paris guide: museums', id: 'doc-1', score: 0.92 }],
    });
  });

  it('marks the failed tool ERROR, with its exception as an ERROR event', () => {
    const { trace, named } = load('openinference');
    const failed = named('book_table');
    expect(failed).toMatchObject({ status: 'ERROR', statusMessage: 'No table available at Le Cinq' });
    expect(trace.events).toEqual([
      expect.objectContaining({ id: `${failed.id}:e0`, spanId: failed.id, type: 'ERROR', name: 'Error' }),
    ]);
    expect(trace.events[0].metadata).toMatchObject({ 'exception.message': 'No table available at Le Cinq', 'exception.stacktrace': expect.any(String) });
  });

  it('infers the tool selection and reads session and tags', () => {
    const { trace, named } = load('openinference');
    expect(trace.decisionPoints).toEqual([
      expect.objectContaining({
        chosen: { tool: 'get_weather', arguments: { city: 'Paris' } },
        alternatives: [{ tool: 'search_docs', description: 'Search the travel guide' }],
        reasoning: 'I will check the weather first.',
        parentSpanId: named('ChatCompletion').id,
        inferred: true,
      }),
    ]);
    expect(trace).toMatchObject({ sessionId: 'session-oi-1', tags: ['fixture', 'openinference'], root: { name: 'travel-agent' } });
  });
});

describe('GenAI semantic conventions (agent, chat, tool, memory, failing tool)', () => {
  it('types and names the spans; the agent repeating usage is not counted', () => {
    const { named } = load('genai');
    expect(named('invoke_agent Forecaster')).toMatchObject({ type: 'AGENT', tokenCount: null });
    expect(named('chat gpt-4', firstChat)).toMatchObject({ type: 'LLM_CALL', tokenCount: 64, costUsd: 0.0019 });
    expect(named('chat gpt-4', secondChat)).toMatchObject({ type: 'LLM_CALL', tokenCount: 149 });
    expect(named('get_weather')).toMatchObject({ type: 'TOOL_CALL', input: { location: 'Paris' }, output: { condition: 'rainy', fahrenheit: 57 } });
    expect(named('search_memory notes').type).toBe('MEMORY_OP');
    expect(named('execute_tool send_email')).toMatchObject({
      type: 'TOOL_CALL',
      status: 'ERROR',
      statusMessage: 'SMTP server refused the connection',
    });
  });

  it('maps retry, fallback and exception events', () => {
    const { trace, named } = load('genai');
    const byType = Object.fromEntries(trace.events.map((e) => [e.type, e]));
    expect(byType.RETRY).toMatchObject({ name: 'retry attempt', spanId: named('get_weather').id, metadata: { attempt: 2 } });
    expect(byType.FALLBACK).toMatchObject({ name: 'model_fallback', spanId: named('chat gpt-4', secondChat).id });
    expect(byType.ERROR).toMatchObject({ name: 'TypeError', spanId: named('execute_tool send_email').id });
  });

  it('infers the tool selection from tool_call parts and names the trace by the agent', () => {
    const { trace, named } = load('genai');
    expect(trace.decisionPoints).toEqual([
      expect.objectContaining({
        chosen: { tool: 'get_weather', arguments: { location: 'Paris' } },
        alternatives: [{ tool: 'get_forecast', description: 'Five-day forecast for a location' }],
        reasoning: 'Checking the current weather.',
        parentSpanId: named('chat gpt-4', firstChat).id,
        contextSnapshot: { inferredFrom: 'gen_ai.output.messages', toolCallId: 'call_VSPy' },
      }),
    ]);
    expect(trace).toMatchObject({ sessionId: 'conv-42', tags: null, root: { name: 'Forecaster', status: 'COMPLETED' } });
  });
});

describe("Crossroads' own attributes", () => {
  it('takes the explicit span type, session, tags and decision events', () => {
    const { trace, named } = load('crossroads');
    const router = named('router');
    expect(router.type).toBe('AGENT');
    expect(trace).toMatchObject({ sessionId: 'session-cx-9', tags: ['support', 'priority'] });
    expect(trace.decisionPoints.map((d) => [d.id, d.type, d.inferred])).toEqual([
      [`${router.id}:d0`, 'ROUTING', false],
      [`${router.id}:d1`, 'ESCALATION', false],
      [`${router.id}:d2`, 'CUSTOM', false],
    ]);
    expect(trace.decisionPoints[0]).toMatchObject({
      chosen: { queue: 'billing' },
      alternatives: [{ queue: 'tech' }, { queue: 'sales' }],
      contextSnapshot: { ticket: 981, language: 'en' },
      costUsd: 0.0004,
      durationMs: 12.5,
      parentSpanId: router.id,
    });
    expect(trace.decisionPoints[1]).toMatchObject({ chosen: 'human agent', alternatives: ['bot', 'email'] });
    expect(trace.decisionPoints[2].contextSnapshot).toEqual({ context: null, declaredType: 'vibes' });
    expect(trace.events).toEqual([expect.objectContaining({ id: `${router.id}:e3`, type: 'CUSTOM', name: 'cache warmed' })]);
  });
});
