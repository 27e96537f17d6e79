// What a model call's request holds beside its messages. The OTLP cases read the recorded
// fixtures through the real decoder and mapper (input and metadata as stored); the JSON
// cases are request bodies as the providers' APIs take them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeJsonRequest } from '@/lib/transports/otlp/decode';
import { planOtlpRequest } from '@/lib/features/otlp/map';
import type { SpanInput } from '@/lib/features/ingest/validate';
import type { JsonValue } from '@/lib/features/traces/types';
import { toConversation } from './parse';
import { parameterText, requestDetails, type Parameter, type ToolDefinition } from './request';

function modelCalls(fixture: string): SpanInput[] {
  const file = path.join(import.meta.dirname, '../../../test/fixtures/otlp', `${fixture}.json`);
  const planned = planOtlpRequest(decodeJsonRequest(readFileSync(file, 'utf8')));
  return [...planned.traces()].flatMap((t) => t.spans).filter((s) => s.type === 'LLM_CALL');
}

const of = (span: SpanInput) => requestDetails(span.input as JsonValue, span.metadata as JsonValue);
const params = (list: Parameter[]) => list.map((p) => [p.name, p.value, p.from]);
const toolNames = (list: ToolDefinition[]) => list.map((t) => [t.name, t.description, t.schema !== null]);
const cityArgs = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('OTLP fixtures (input and metadata as stored)', () => {
  it.each([
    {
      fixture: 'vercel-ai',
      pick: (calls: SpanInput[]) => calls[0],
      parameters: [
        ['model', 'mock-model-1', 'gen_ai.request.model'],
        ['toolChoice', { type: 'auto' }, 'input'],
        ['maxRetries', 2, 'ai.settings.maxRetries'],
      ],
      tools: [
        ['get_weather', 'Current weather for a city', true],
        ['get_time', 'Local time in a city', true],
      ],
    },
    {
      fixture: 'openinference',
      pick: (calls: SpanInput[]) => calls[0],
      parameters: [
        ['model', 'gpt-4o-mini', 'llm.model_name'],
        ['temperature', 0, 'llm.invocation_parameters'],
      ],
      tools: [
        ['get_weather', 'Current weather for a city', true],
        ['search_docs', 'Search the travel guide', true],
      ],
    },
    {
      fixture: 'genai',
      pick: (calls: SpanInput[]) => calls.find((c) => !Array.isArray(c.input))!,
      parameters: [['model', 'gpt-4', 'gen_ai.request.model']],
      tools: [
        ['get_weather', 'Get the weather in a given location', true],
        ['get_forecast', 'Five-day forecast for a location', true],
      ],
    },
    {
      // A message list is no request object: the metadata's parameters alone.
      fixture: 'genai',
      pick: (calls: SpanInput[]) => calls.find((c) => Array.isArray(c.input))!,
      parameters: [['model', 'gpt-4', 'gen_ai.request.model']],
      tools: [],
    },
    {
      fixture: 'langfuse',
      pick: (calls: SpanInput[]) => calls[0],
      parameters: [
        ['model', 'gpt-4o', 'langfuse.observation.model.name'],
        ['temperature', 0, 'langfuse.observation.model.parameters'],
      ],
      tools: [
        ['lookup_order', 'Find an order by id', false],
        ['issue_refund', 'Refund an order', false],
      ],
    },
    {
      // OpenLLMetry over the AI SDK: the tool choice stays in metadata as JSON text.
      fixture: 'traceloop',
      pick: (calls: SpanInput[]) => calls[0],
      parameters: [
        ['model', 'gpt-4o-mini', 'gen_ai.request.model'],
        ['toolChoice', { type: 'auto' }, 'ai.prompt.toolChoice'],
        ['maxRetries', 2, 'ai.settings.maxRetries'],
      ],
      tools: [
        ['getWeather', 'Current weather for a city', true],
        ['getTime', 'Local time in a city', true],
      ],
    },
    {
      fixture: 'mastra',
      pick: (calls: SpanInput[]) => calls.find((c) => c.input === null)!,
      parameters: [['model', 'gpt-4o-mini', 'gen_ai.request.model']],
      tools: [],
    },
  ])('$fixture', ({ fixture, pick, parameters, tools }) => {
    const details = of(pick(modelCalls(fixture)));
    expect(params(details.parameters)).toEqual(parameters);
    expect(toolNames(details.tools)).toEqual(tools);
    // Nothing else in these inputs: OpenInference's input.value repeats the user's message.
    expect(details.extra).toBeNull();
  });

  it('keeps a tool schema as sent (the AI SDK inputSchema, OpenAI parameters)', () => {
    const [vercel] = modelCalls('vercel-ai');
    expect(of(vercel).tools[0]).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city',
      kind: null,
      schema: { $schema: 'http://json-schema.org/draft-07/schema#', ...cityArgs, additionalProperties: false },
      other: null,
    });
    const [oi] = modelCalls('openinference');
    expect(of(oi).tools[0].schema).toEqual(cityArgs);
  });
});

describe('request bodies', () => {
  const messages = [{ role: 'user', content: 'Hi' }];
  it.each<{ name: string; input: JsonValue; metadata?: JsonValue; parameters: unknown[]; tools: unknown[]; extra: JsonValue }>([
    {
      name: 'OpenAI chat: every parameter, a strict function tool, an unknown key',
      input: {
        model: 'gpt-4o',
        messages,
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 256,
        stop: ['\n\n'],
        seed: 7,
        response_format: { type: 'json_object' },
        tool_choice: 'auto',
        parallel_tool_calls: false,
        tools: [{ type: 'function', function: { name: 'lookup', description: 'Find a thing', parameters: cityArgs, strict: true } }],
        experiment: 'b',
      },
      parameters: [
        ['model', 'gpt-4o', 'input'],
        ['temperature', 0.2, 'input'],
        ['top_p', 0.9, 'input'],
        ['max_tokens', 256, 'input'],
        ['stop', ['\n\n'], 'input'],
        ['seed', 7, 'input'],
        ['response_format', { type: 'json_object' }, 'input'],
        ['tool_choice', 'auto', 'input'],
        ['parallel_tool_calls', false, 'input'],
      ],
      tools: [{ name: 'lookup', description: 'Find a thing', kind: null, schema: cityArgs, other: { strict: true } }],
      extra: { experiment: 'b' },
    },
    {
      name: 'Anthropic messages: system read as chat, input_schema, a server tool, thinking and metadata',
      input: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        system: 'Be terse.',
        messages,
        tools: [
          { name: 'get_weather', description: 'Weather', input_schema: cityArgs },
          { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
        ],
        tool_choice: { type: 'auto' },
        thinking: { type: 'enabled', budget_tokens: 2048 },
        metadata: { user_id: 'u-1' },
      },
      parameters: [
        ['model', 'claude-sonnet-4-5', 'input'],
        ['max_tokens', 1024, 'input'],
        ['thinking', { type: 'enabled', budget_tokens: 2048 }, 'input'],
        ['tool_choice', { type: 'auto' }, 'input'],
        ['metadata', { user_id: 'u-1' }, 'input'],
      ],
      tools: [
        { name: 'get_weather', description: 'Weather', kind: null, schema: cityArgs, other: null },
        { name: 'web_search', description: null, kind: 'web_search_20250305', schema: null, other: { max_uses: 3 } },
      ],
      extra: null,
    },
    {
      name: 'OpenAI Responses: instructions and a string input, a built-in tool named by its type',
      input: { model: 'gpt-5', instructions: 'Be kind.', input: 'Hi', reasoning: { effort: 'low' }, tools: [{ type: 'web_search_preview' }] },
      parameters: [
        ['model', 'gpt-5', 'input'],
        ['reasoning', { effort: 'low' }, 'input'],
      ],
      tools: [{ name: 'web_search_preview', description: null, kind: null, schema: null, other: null }],
      extra: null,
    },
    {
      name: 'AI SDK prompt object with settings in metadata; camelCase and snake_case are one parameter, the input wins; usual order',
      input: { system: 'Sys', messages, topP: 0.5 },
      metadata: { 'ai.settings.temperature': 0.3, 'gen_ai.request.top_p': 0.8, 'ai.settings.maxOutputTokens': 100, 'ai.model.id': 'gpt-4o' },
      parameters: [
        ['model', 'gpt-4o', 'ai.model.id'],
        ['temperature', 0.3, 'ai.settings.temperature'],
        ['topP', 0.5, 'input'],
        ['maxOutputTokens', 100, 'ai.settings.maxOutputTokens'],
      ],
      tools: [],
      extra: null,
    },
    {
      name: 'OpenInference: the raw request in input.value gives the parameters; its own extra keys stay visible',
      input: { messages, value: { model: 'gpt-4o', temperature: 1, messages, stream: true, trace_tag: 'x' } },
      parameters: [
        ['model', 'gpt-4o', 'input.value'],
        ['temperature', 1, 'input.value'],
        ['stream', true, 'input.value'],
      ],
      tools: [],
      extra: { value: { trace_tag: 'x' } },
    },
    {
      name: 'OpenInference: an input.value that is not the prompt is shown',
      input: { messages, value: 'Hi, as the app logged it' },
      parameters: [],
      tools: [],
      extra: { value: 'Hi, as the app logged it' },
    },
    {
      name: 'GenAI attributes in metadata, JSON text parsed; tools that are not definitions stay as sent',
      input: { messages, tools: ['search'] },
      metadata: { 'gen_ai.request.model': 'gpt-4', 'gen_ai.request.temperature': 0.25, 'gen_ai.request.stop_sequences': '["END"]', 'gen_ai.response.model': 'gpt-4-0613' },
      parameters: [
        ['model', 'gpt-4', 'gen_ai.request.model'],
        ['temperature', 0.25, 'gen_ai.request.temperature'],
        ['stop_sequences', ['END'], 'gen_ai.request.stop_sequences'],
      ],
      tools: [],
      extra: { tools: ['search'] },
    },
    {
      name: 'a value that is not a request object: only the metadata (known parameters first, then the others by name), the JSON viewer shows the rest',
      input: { query: 'x', model: 'mine' },
      metadata: { 'llm.invocation_parameters': '{"repetition_penalty":1.1,"max_tokens":5,"beam_width":2,"temperature":0}', 'llm.top_k': 3 },
      parameters: [
        ['temperature', 0, 'llm.invocation_parameters'],
        ['top_k', 3, 'llm.top_k'],
        ['max_tokens', 5, 'llm.invocation_parameters'],
        ['beam_width', 2, 'llm.invocation_parameters'],
        ['repetition_penalty', 1.1, 'llm.invocation_parameters'],
      ],
      tools: [],
      extra: null,
    },
  ])('$name', ({ input, metadata, parameters, tools, extra }) => {
    const details = requestDetails(input, metadata ?? null);
    expect(params(details.parameters)).toEqual(parameters);
    expect(details.tools).toEqual(tools);
    expect(details.extra).toEqual(extra);
  });

  it('a string prompt reads as chat beside request parameters, not beside unknown keys alone', () => {
    expect(toConversation({ model: 'gpt-5', input: 'Hi', temperature: 0 })).toEqual([{ role: 'user', name: null, parts: [{ kind: 'text', text: 'Hi' }] }]);
    expect(toConversation({ prompt: 'Hi', userId: 'u-1' })).toBeNull();
    expect(toConversation({ input: 'Hi', user: 'ada' })).toBeNull();
    expect(toConversation({ prompt: 'Hi', tools: [{ name: 'search' }] })).toHaveLength(1);
    expect(requestDetails({ prompt: 'Hi', userId: 'u-1' }, null)).toEqual({ parameters: [], tools: [], extra: null });
  });
  it('keeps a __proto__ key of parsed JSON as a plain key of the additional input', () => {
    const input = JSON.parse('{"model":"m","messages":[{"role":"user","content":"Hi"}],"__proto__":{"polluted":true}}') as JsonValue;
    const { extra } = requestDetails(input, null);
    expect(Object.keys(extra!)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
  });
});

describe('parameterText', () => {
  it.each<[JsonValue, string]>([
    ['gpt-4o', 'gpt-4o'],
    [0.2, '0.2'],
    [false, 'false'],
    [null, 'null'],
    ['\n', '"\\n"'],
    ['', '""'],
    [['END'], '["END"]'],
    [{ type: 'auto' }, '{"type":"auto"}'],
  ])('%j → %s', (value, shown) => {
    expect(parameterText(value)).toBe(shown);
  });
});
