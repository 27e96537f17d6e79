import { describe, expect, it } from 'vitest';
import { SpanAttributes } from '@/lib/features/otlp/attributes';
import type { Attributes } from '@/lib/features/otlp/types';
import { inputOutputOf, IO_TABLES } from './io';

const io = (attributes: Attributes) => inputOutputOf(new SpanAttributes(attributes));

describe('inputOutputOf', () => {
  it('parses GenAI messages, the only field present being the value itself', () => {
    const messages = [{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] }];
    const out = [{ role: 'assistant', parts: [{ type: 'text', content: 'Rainy.' }], finish_reason: 'stop' }];
    const result = io({
      'gen_ai.input.messages': JSON.stringify(messages),
      'gen_ai.output.messages': JSON.stringify(out),
      'gen_ai.request.model': 'gpt-4',
    });
    expect(result.input).toEqual(messages);
    expect(result.output).toEqual(out);
    expect(result.consumed.sort()).toEqual(['gen_ai.input.messages', 'gen_ai.output.messages']);
  });

  it('keys several fields of one side by name (system instructions, messages, tools)', () => {
    const result = io({
      'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief' }]),
      'gen_ai.input.messages': '[]',
      'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', name: 'f' }]),
    });
    expect(result.input).toEqual({ system: [{ type: 'text', content: 'Be brief' }], messages: [], tools: [{ type: 'function', name: 'f' }] });
    expect(result.output).toBeNull();
  });

  it('reads GenAI tool call arguments and result', () => {
    const result = io({ 'gen_ai.tool.call.arguments': '{"location":"Paris"}', 'gen_ai.tool.call.result': 'rainy, 57°F' });
    expect(result.input).toEqual({ location: 'Paris' });
    expect(result.output).toBe('rainy, 57°F');
  });

  it('parses OpenInference values only when their mime type is JSON', () => {
    const json = io({ 'input.value': '{"q":1}', 'input.mime_type': 'application/json', 'output.value': '{"a":2}' });
    expect(json.input).toEqual({ q: 1 });
    expect(json.output).toBe('{"a":2}');
    // The mime type is not the payload: it stays in metadata.
    expect(json.consumed).not.toContain('input.mime_type');
  });

  it('rebuilds OpenInference flattened messages, tool calls and tools', () => {
    const result = io({
      'llm.input_messages.0.message.role': 'user',
      'llm.input_messages.0.message.content': 'hi',
      'llm.input_messages.1.message.role': 'assistant',
      'llm.input_messages.1.message.contents.0.message_content.type': 'text',
      'llm.input_messages.1.message.contents.0.message_content.text': 'hello',
      'llm.tools.0.tool.json_schema': '{"type":"function","function":{"name":"f"}}',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'c1',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'f',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"x":1}',
    });
    expect(result.input).toEqual({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', contents: [{ type: 'text', text: 'hello' }] },
      ],
      tools: [{ type: 'function', function: { name: 'f' } }],
    });
    expect(result.output).toEqual([
      { role: 'assistant', tool_calls: [{ id: 'c1', function: { name: 'f', arguments: '{"x":1}' } }] },
    ]);
    expect(result.consumed).toContain('llm.output_messages.0.message.tool_calls.0.tool_call.function.name');
  });

  it('compacts sparse or huge indices instead of allocating them', () => {
    const result = io({ 'llm.input_messages.4000000000.message.role': 'user', 'llm.input_messages.7.message.role': 'system' });
    expect(result.input).toEqual([{ role: 'system' }, { role: 'user' }]);
  });

  it('keeps a __proto__ segment as a plain key', () => {
    const result = io({ 'llm.input_messages.0.message.__proto__': 'x' });
    const [message] = result.input as Array<Record<string, unknown>>;
    expect(Object.getPrototypeOf(message)).toBe(Object.prototype);
    expect(Object.keys(message)).toEqual(['__proto__']);
  });

  it('reads Vercel AI SDK prompts, tools (an array of JSON texts) and responses', () => {
    const result = io({
      'ai.prompt.messages': '[{"role":"user","content":"hi"}]',
      'ai.prompt.tools': ['{"type":"function","name":"get_weather"}'],
      'ai.prompt.toolChoice': '{"type":"auto"}',
      'ai.response.text': 'Let me check.',
      'ai.response.toolCalls': '[{"toolCallId":"c1","toolName":"get_weather","input":"{\\"city\\":\\"Paris\\"}"}]',
      'ai.response.finishReason': 'tool-calls',
    });
    expect(result.input).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', name: 'get_weather' }],
      toolChoice: { type: 'auto' },
    });
    expect(result.output).toEqual({
      text: 'Let me check.',
      toolCalls: [{ toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' }],
    });
    expect(result.consumed).not.toContain('ai.response.finishReason');
  });

  it('reads Vercel tool call arguments and results', () => {
    const result = io({ 'ai.toolCall.name': 'get_weather', 'ai.toolCall.args': '{"city":"Paris"}', 'ai.toolCall.result': '{"celsius":21}' });
    expect(result).toEqual({ input: { city: 'Paris' }, output: { celsius: 21 }, consumed: ['ai.toolCall.args', 'ai.toolCall.result'] });
  });

  it('keeps text that is not JSON, and JSON that would not be storable, as sent', () => {
    expect(io({ 'gen_ai.input.messages': 'not json [' }).input).toBe('not json [');
    expect(io({ 'gen_ai.input.messages': '["a\\u0000b"]' }).input).toBe('["a\\u0000b"]');
    expect(io({ 'gen_ai.input.messages': '["\\ud800"]' }).input).toBe('["\\ud800"]');
    // An escaped pair (Python's json.dumps default) is a real character.
    expect(io({ 'gen_ai.input.messages': '["\\ud83d\\ude00"]' }).input).toEqual(['😀']);
    const deep = '['.repeat(300) + ']'.repeat(300);
    expect(io({ 'gen_ai.input.messages': deep }).input).toBe(deep);
  });

  it('takes each side from the first convention that has it', () => {
    const result = io({ 'input.value': 'oi', 'gen_ai.input.messages': '[]', 'gen_ai.output.messages': '[1]' });
    expect(result.input).toBe('oi');
    expect(result.output).toEqual([1]);
  });

  it("unwraps OpenLLMetry's entity envelope when it holds one thing", () => {
    const input = (value: unknown) => io({ 'traceloop.entity.input': JSON.stringify(value) }).input;
    expect(input({ args: [], kwargs: { city: 'Paris' } })).toEqual({ city: 'Paris' });
    expect(input({ args: ['Paris'], kwargs: {} })).toBe('Paris');
    expect(input({ args: [], kwargs: {} })).toBeNull();
    expect(input({ args: ['Paris', 2], kwargs: {} })).toEqual({ args: ['Paris', 2], kwargs: {} });
    expect(input({ args: ['Paris'], kwargs: { unit: 'C' } })).toEqual({ args: ['Paris'], kwargs: { unit: 'C' } });
    expect(io({ 'traceloop.entity.input': 'plain', 'traceloop.entity.output': '"done"' })).toMatchObject({ input: 'plain', output: 'done' });
  });

  it('reads Langfuse observation input and output, and Mastra payloads by span type', () => {
    expect(io({ 'langfuse.observation.input': '{"q":1}', 'langfuse.observation.output': 'text' })).toMatchObject({ input: { q: 1 }, output: 'text' });
    expect(io({ 'mastra.model_step.input': '[{"role":"user","content":"hi"}]', 'mastra.model_step.output': '{"text":"yo","toolCalls":[]}' })).toMatchObject({
      input: [{ role: 'user', content: 'hi' }],
      output: { text: 'yo', toolCalls: [] },
    });
    // An agent run's input is the user's message; its instructions and tools stay in metadata.
    const run = io({ 'mastra.agent_run.input': 'Hello', 'gen_ai.system_instructions': 'Be brief.', 'gen_ai.tool.definitions': '["a"]' });
    expect(run).toMatchObject({ input: 'Hello', consumed: ['mastra.agent_run.input'] });
  });
});

describe('IO_TABLES namespaces', () => {
  // A table with a namespace is skipped for spans without one of its keys: every key it reads must be in it.
  it.each(IO_TABLES.filter((t) => t.namespace !== undefined).map((t) => [t.convention, t] as const))('%s reads only its own namespace', (_, table) => {
    for (const field of [...table.input, ...table.output]) {
      expect(field.key.startsWith(`${table.namespace}.`)).toBe(true);
      if (field.read.kind === 'mime') expect(field.read.mimeKey.startsWith(`${table.namespace}.`)).toBe(true);
    }
  });

  it('still reads a table whose namespace the span carries, beside another convention', () => {
    expect(io({ 'traceloop.entity.input': '"q"', 'other.key': 1 }).input).toBe('q');
    expect(io({ 'other.key': 1 })).toEqual({ input: null, output: null, consumed: [] });
  });
});
