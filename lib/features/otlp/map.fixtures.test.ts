// The mapper on spans the real SDKs recorded (scripts/record-otlp-fixtures.ts), read
// through the real decoder. Ids and times change when fixtures are recorded again, so
// spans are found by name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calcPrice } from '@pydantic/genai-prices';
import { priceModelCall } from '@/lib/features/pricing/price';
import type { SpanInput } from '@/lib/features/ingest/validate';
import { SpanAttributes } from './attributes';
import { inputOutputOf } from './conventions/io';
import { decodeJsonRequest } from '@/lib/transports/otlp/decode';
import { mapOtlpSpans } from './map';

function load(name: string) {
  const spans = decodeJsonRequest(readFileSync(path.join(import.meta.dirname, '../../../test/fixtures/otlp', `${name}.json`), 'utf8'));
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

const FIXTURES = ['vercel-ai', 'openinference', 'genai', 'crossroads', 'langfuse', 'mastra', 'traceloop', 'traceloop-langchain'];
/** Mastra and OpenLLMetry's LangChain and openai instrumentations export their model calls as CLIENT spans. */
const KINDS: Record<string, string> = { 'chat gpt-4o-mini@mastra': 'CLIENT', 'chat gpt-4o-mini@traceloop-langchain': 'CLIENT' };

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
        kind: KINDS[`${span.name}@${name}`] ?? 'INTERNAL',
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

/** Every span of that name (OpenLLMetry and Mastra name each model call alike). */
const all = (trace: { spans: SpanInput[] }, spanName: string) => trace.spans.filter((s) => s.name === spanName);

describe('Langfuse (@langfuse/tracing through LangfuseSpanProcessor)', () => {
  it('types observations, reads their input, output, model usage and cost', () => {
    const { named } = load('langfuse');
    expect(named('support-agent')).toMatchObject({
      type: 'AGENT',
      parentSpanId: null,
      input: { question: 'Where is order 7?' },
      output: { answer: 'Order 7 has shipped.' },
    });
    const generation = named('chat-completion');
    // 70 new + 30 cached input tokens + 20 output; cost_details.total is the span's cost.
    expect(generation).toMatchObject({ type: 'LLM_CALL', tokenCount: 120, costUsd: 0.0006 });
    expect(generation.input).toMatchObject({ messages: [{ role: 'user', content: 'Where is order 7?' }] });
    expect(meta(generation)).toMatchObject({
      'langfuse.observation.model.name': 'gpt-4o',
      'langfuse.observation.usage_details': '{"input":70,"input_cached_tokens":30,"output":20,"total":120}',
    });
    expect(named('lookup_order')).toMatchObject({ type: 'TOOL_CALL', input: { id: 7 }, output: { id: 7, status: 'shipped' } });
    expect(named('user-feedback')).toMatchObject({ type: 'CUSTOM', input: { rating: 'up' } });
  });

  it('makes level ERROR a failed span with its status message', () => {
    const { named } = load('langfuse');
    expect(named('issue_refund')).toMatchObject({ type: 'TOOL_CALL', status: 'ERROR', statusMessage: 'Refund service unavailable' });
  });

  it('infers the tool selection from the OpenAI tool_calls of the output, alternatives from the input tools', () => {
    const { trace, named } = load('langfuse');
    expect(trace.decisionPoints).toEqual([
      expect.objectContaining({
        type: 'TOOL_SELECTION',
        chosen: { tool: 'lookup_order', arguments: { id: 7 } },
        alternatives: [{ tool: 'issue_refund', description: 'Refund an order' }],
        reasoning: 'Let me look that order up.',
        parentSpanId: named('chat-completion').id,
        contextSnapshot: { inferredFrom: 'langfuse.observation.output', toolCallId: 'call_lf_1' },
      }),
    ]);
  });

  it('puts langfuse.trace.* on the trace: name, tags, user, session, input, output, metadata', () => {
    const { trace } = load('langfuse');
    expect(trace).toMatchObject({ sessionId: 'session-lf-1', tags: ['fixture', 'langfuse'] });
    expect(trace.root).toMatchObject({
      name: 'refund-request',
      status: 'COMPLETED',
      userId: 'user-lf-1',
      metadata: {
        'service.name': 'fixture-agent',
        input: { question: 'Where is order 7?' },
        output: { answer: 'Order 7 has shipped.' },
        metadata: { plan: 'pro' },
      },
    });
  });
});

describe('Mastra (an Agent through @mastra/observability and OtelExporter)', () => {
  it('types agent run, model generation, model steps, model calls and the tool call', () => {
    const { trace, named } = load('mastra');
    expect(named('invoke_agent Weather Agent')).toMatchObject({
      type: 'AGENT',
      parentSpanId: null,
      input: 'What is the weather in Paris?',
      output: { text: 'It is sunny in Paris.' },
    });
    expect(named('model_generation gpt-4o-mini').type).toBe('AGENT');
    const steps = all(trace, 'agent_step Weather Agent');
    expect(steps.map((s) => s.type)).toEqual(['LLM_CALL', 'LLM_CALL']);
    // The step holds the prompt and the tool calls; the model call inside it the usage.
    expect(steps[0].input).toEqual([
      { role: 'system', content: 'You are a weather assistant.' },
      { role: 'user', content: 'What is the weather in Paris?' },
    ]);
    expect(steps[0].output).toMatchObject({ toolCalls: [{ toolCallId: 'call-1', toolName: 'getWeather', args: { city: 'Paris' } }] });
    const calls = all(trace, 'chat gpt-4o-mini');
    expect(calls.map((s) => [s.type, s.tokenCount, s.parentSpanId])).toEqual([
      ['LLM_CALL', 138, steps[0].id],
      ['LLM_CALL', 172, steps[1].id],
    ]);
    expect(named('execute_tool getWeather')).toMatchObject({ type: 'TOOL_CALL', input: { city: 'Paris' }, output: { city: 'Paris', condition: 'sunny' } });
    // Each model call is counted once: the steps, the generation and the agent carry no usage.
    expect(trace.spans.reduce((sum, s) => sum + (s.tokenCount ?? 0), 0)).toBe(310);
  });

  it("infers the tool selection from the step's tool calls, offered tools from the agent's list of names", () => {
    const { trace } = load('mastra');
    const [step] = all(trace, 'agent_step Weather Agent');
    expect(trace.decisionPoints).toEqual([
      expect.objectContaining({
        type: 'TOOL_SELECTION',
        chosen: { tool: 'getWeather', arguments: { city: 'Paris' } },
        alternatives: [{ tool: 'getTime' }],
        parentSpanId: step.id,
        contextSnapshot: {
          inferredFrom: 'mastra.model_step.output',
          toolCallId: 'call-1',
          toolsFromSpan: load('mastra').named('invoke_agent Weather Agent').id,
        },
      }),
    ]);
  });

  it('names the trace by the agent; user and session from the tracing metadata; cache reads kept', () => {
    const { trace } = load('mastra');
    expect(trace).toMatchObject({ sessionId: 'session-ma-1', root: { name: 'Weather Agent', userId: 'user-ma-1' } });
    expect(meta(all(trace, 'chat gpt-4o-mini')[0])).toMatchObject({ 'gen_ai.usage.cache_read.input_tokens': 20 });
  });
});

describe('OpenLLMetry (Traceloop: workflow, agent, tool, task, and the AI SDK inside)', () => {
  it('types the decorated spans, reads their entity input and output, names tools', () => {
    const { named } = load('traceloop');
    expect(named('trip_planner.workflow')).toMatchObject({ type: 'CHAIN', parentSpanId: null, tokenCount: null });
    expect(named('weather_agent.agent')).toMatchObject({ type: 'AGENT', output: 'IT IS SUNNY IN PARIS.' });
    expect(named('lookup_city')).toMatchObject({ type: 'TOOL_CALL', input: { query: 'paris' }, output: { city: 'Paris', query: 'paris' } });
    expect(named('summarise.task')).toMatchObject({ type: 'CHAIN', input: 'It is sunny in Paris.', output: 'IT IS SUNNY IN PARIS.' });
    expect(named('getWeather')).toMatchObject({ type: 'TOOL_CALL', input: { city: 'Paris' }, output: { city: 'Paris', condition: 'sunny' } });
  });

  it('counts the model calls its processor rewrote to GenAI, not the generateText around them', () => {
    const { trace } = load('traceloop');
    const chats = all(trace, 'chat gpt-4o-mini');
    expect(chats.map((s) => [s.type, s.tokenCount])).toEqual([
      ['CHAIN', null],
      ['LLM_CALL', 138],
      ['LLM_CALL', 172],
    ]);
    expect(chats[1].output).toEqual([
      { role: 'assistant', finish_reason: 'tool_call', parts: [{ type: 'tool_call', name: 'getWeather', id: 'call-1', arguments: { city: 'Paris' } }] },
    ]);
    expect(trace.decisionPoints).toEqual([
      expect.objectContaining({
        chosen: { tool: 'getWeather', arguments: { city: 'Paris' } },
        alternatives: [{ tool: 'getTime', description: 'Local time in a city' }],
        parentSpanId: chats[1].id,
        contextSnapshot: { inferredFrom: 'gen_ai.output.messages', toolCallId: 'call-1' },
      }),
    ]);
  });

  it('takes session and user from the association properties and names the trace by its workflow', () => {
    const { trace } = load('traceloop');
    expect(trace).toMatchObject({ sessionId: 'session-tl-1', root: { name: 'trip_planner', userId: 'user-tl-1', status: 'COMPLETED' } });
  });
});

describe('OpenLLMetry with LangChain (a LangChain agent with a tool; the LangChain and openai instrumentations both on)', () => {
  const scope = (s: SpanInput) => (meta(s).otel as { scope: { name: string } }).scope.name;

  it('stores a LangChain tool run as a TOOL_CALL named for the tool: gen_ai.operation.name wins over traceloop.span.kind', () => {
    const { trace, named } = load('traceloop-langchain');
    // The instrumentation names the tool by its class: that is the entity name it sends.
    const tool = named('DynamicStructuredTool');
    // Its output is LangChain's serialised ToolMessage.
    expect(tool).toMatchObject({ type: 'TOOL_CALL', output: { kwargs: { name: 'get_weather', content: '{"city":"Paris","condition":"sunny"}' } } });
    expect(meta(tool)).toMatchObject({ 'traceloop.span.kind': 'task', 'gen_ai.operation.name': 'execute_tool' });
    expect(trace.spans.filter((s) => s.name.startsWith('workflow ')).map((s) => s.type)).toEqual(expect.arrayContaining(['CHAIN']));
    expect(new Set(trace.spans.filter((s) => s.name.startsWith('workflow ')).map((s) => s.type))).toEqual(new Set(['CHAIN']));
    expect(trace).toMatchObject({ sessionId: 'session-lc-1', root: { name: 'weather_chat' } });
  });

  it("reports each model call twice, as sibling chat spans; the openai client's is marked the copy of LangChain's", () => {
    const { trace } = load('traceloop-langchain');
    const chats = all(trace, 'chat gpt-4o-mini');
    const langchain = chats.filter((s) => scope(s) === '@traceloop/instrumentation-langchain');
    const client = chats.filter((s) => scope(s) === '@traceloop/instrumentation-openai');
    expect([langchain.length, client.length]).toEqual([2, 2]);
    expect(new Set(chats.map((s) => s.parentSpanId)).size).toBe(1);
    expect(langchain.map((s) => [s.type, s.tokenCount, meta(s).duplicateOf])).toEqual([
      ['LLM_CALL', 75, undefined],
      ['LLM_CALL', 99, undefined],
    ]);
    expect(client.map((s) => [s.type, s.tokenCount, meta(s).duplicateOf])).toEqual([
      ['LLM_CALL', 75, langchain[0].id],
      ['LLM_CALL', 99, langchain[1].id],
    ]);
  });
});

/** The catalog's own price, in its terms (input includes the cache). */
const catalogPrice = (usage: Record<string, number>, model: string, at: Date) => calcPrice(usage, model, { providerId: 'openai', timestamp: at })!.total_price;

describe('cached input, priced at the catalog cache-read rate in every convention that reports it', () => {
  // Each case: a model call of a fixture and the usage its SDK was given, in the catalog's
  // terms. `model` stands in for a fixture's fake model id, which the catalog cannot price.
  const CASES: Array<{ fixture: string; pick: (trace: { spans: SpanInput[] }) => SpanInput; usage: Record<string, number>; model?: string }> = [
    {
      fixture: 'vercel-ai',
      pick: (t) => t.spans.find((s) => s.name === 'ai.generateText.doGenerate' && callingTools(s))!,
      usage: { input_tokens: 120, cache_read_tokens: 40, output_tokens: 18 },
      model: 'gpt-4o-mini',
    },
    {
      fixture: 'vercel-ai',
      pick: (t) => t.spans.find((s) => s.name === 'ai.generateText.doGenerate' && answering(s))!,
      usage: { input_tokens: 160, cache_read_tokens: 120, output_tokens: 12 },
      model: 'gpt-4o-mini',
    },
    { fixture: 'traceloop', pick: (t) => all(t, 'chat gpt-4o-mini')[1], usage: { input_tokens: 120, cache_read_tokens: 20, output_tokens: 18 } },
    { fixture: 'mastra', pick: (t) => all(t, 'chat gpt-4o-mini')[0], usage: { input_tokens: 120, cache_read_tokens: 20, output_tokens: 18 } },
    { fixture: 'openinference', pick: (t) => all(t, 'ChatCompletion')[0], usage: { input_tokens: 42, cache_read_tokens: 16, output_tokens: 12 } },
    { fixture: 'genai', pick: (t) => all(t, 'chat gpt-4').find(secondChat)!, usage: { input_tokens: 97, cache_read_tokens: 64, output_tokens: 52 } },
    // Langfuse's `input` leaves the cached tokens out: 70 + 30.
    { fixture: 'langfuse', pick: (t) => all(t, 'chat-completion')[0], usage: { input_tokens: 100, cache_read_tokens: 30, output_tokens: 20 } },
  ];

  it.each(CASES.map((c) => [`${c.fixture} ${c.usage.input_tokens}`, c] as const))('%s', (_, { fixture, pick, usage, model }) => {
    const call = pick(load(fixture).trace);
    const priced = model ?? call.usage!.model!;
    const price = priceModelCall(call.usage!, priced, call.usage!.provider, [], call.startedAt);
    expect(call.usage!.cacheReadTokens).toBe(usage.cache_read_tokens);
    expect(price?.costUsd).toBe(catalogPrice(usage, priced, call.startedAt));
  });
});

describe('Vercel AI SDK telemetry metadata', () => {
  it('gives the trace its user (ai.telemetry.metadata.userId)', () => {
    expect(load('vercel-ai').trace.root).toMatchObject({ userId: 'user-7' });
  });
});
