import { describe, expect, it } from 'vitest';
import { SpanAttributes } from '@/lib/features/otlp/attributes';
import type { Attributes } from '@/lib/features/otlp/types';
import { explicitDecision, inferredToolSelection } from './decisions';

const AT = new Date('2026-01-01T00:00:01.000Z');
const decide = (attributes: Attributes) => explicitDecision(attributes, 'span1:d0', 'span1', AT);
const infer = (attributes: Attributes) => inferredToolSelection(new SpanAttributes(attributes), 'span1', AT);

describe('explicitDecision', () => {
  it('reads every attribute as JSON text', () => {
    expect(
      decide({
        'crossroads.decision.type': 'ROUTING',
        'crossroads.decision.chosen': '{"queue":"billing"}',
        'crossroads.decision.alternatives': '[{"queue":"tech"}]',
        'crossroads.decision.reasoning': 'An invoice question.',
        'crossroads.decision.context': '{"ticket":981}',
        'crossroads.decision.cost_usd': 0.0004,
        'crossroads.decision.duration_ms': '12.5',
      }),
    ).toEqual({
      id: 'span1:d0',
      type: 'ROUTING',
      chosen: { queue: 'billing' },
      alternatives: [{ queue: 'tech' }],
      reasoning: 'An invoice question.',
      contextSnapshot: { ticket: 981 },
      costUsd: 0.0004,
      durationMs: 12.5,
      parentSpanId: 'span1',
      timestamp: AT,
      inferred: false,
    });
  });

  it('takes plain strings and string arrays as they are; alternatives are always an array', () => {
    const d = decide({
      'crossroads.decision.type': 'escalation',
      'crossroads.decision.chosen': 'human agent',
      'crossroads.decision.alternatives': ['bot', 'email'],
      'crossroads.decision.context': 'after two failed answers',
    });
    expect(d).toMatchObject({ type: 'ESCALATION', chosen: 'human agent', alternatives: ['bot', 'email'], contextSnapshot: 'after two failed answers' });
    expect(decide({ 'crossroads.decision.alternatives': 'no' }).alternatives).toEqual(['no']);
    expect(decide({ 'crossroads.decision.alternatives': '{"a":1}' }).alternatives).toEqual([{ a: 1 }]);
    expect(decide({}).alternatives).toEqual([]);
  });

  it('makes an unknown type CUSTOM and keeps the declared type in the context', () => {
    const d = decide({ 'crossroads.decision.type': 'vibes', 'crossroads.decision.context': '{"mood":"good"}' });
    expect(d.type).toBe('CUSTOM');
    expect(d.contextSnapshot).toEqual({ context: { mood: 'good' }, declaredType: 'vibes' });
  });

  it('is CUSTOM without a type, with empty fields null', () => {
    expect(decide({})).toMatchObject({ type: 'CUSTOM', chosen: null, reasoning: null, contextSnapshot: null, costUsd: null, durationMs: null });
  });

  it('keeps attributes the convention does not name in the context', () => {
    const d = decide({ 'crossroads.decision.type': 'RETRY', attempt: 3 });
    expect(d.contextSnapshot).toEqual({ context: null, attributes: { attempt: 3 } });
  });
});

describe('inferredToolSelection', () => {
  it('reads GenAI tool_call parts, the text beside them and gen_ai.tool.definitions', () => {
    const d = infer({
      'gen_ai.output.messages': JSON.stringify([
        {
          role: 'assistant',
          parts: [
            { type: 'text', content: 'Checking.' },
            { type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { location: 'Paris' } },
            { type: 'tool_call', id: 'c2', name: 'get_time', arguments: '{"tz":"CET"}' },
          ],
        },
      ]),
      'gen_ai.tool.definitions': JSON.stringify([
        { type: 'function', name: 'get_weather', description: 'Weather' },
        { type: 'function', name: 'get_time' },
        { type: 'function', name: 'send_email', description: 'Mail' },
      ]),
    });
    expect(d).toEqual({
      id: 'span1:tool_selection',
      type: 'TOOL_SELECTION',
      reasoning: 'Checking.',
      chosen: { tool: 'get_weather', arguments: { location: 'Paris' } },
      alternatives: [{ tool: 'get_time' }, { tool: 'send_email', description: 'Mail' }],
      contextSnapshot: {
        inferredFrom: 'gen_ai.output.messages',
        toolCallId: 'c1',
        otherCalls: [{ tool: 'get_time', arguments: { tz: 'CET' } }],
      },
      durationMs: null,
      costUsd: null,
      parentSpanId: 'span1',
      timestamp: AT,
      inferred: true,
    });
  });

  it('reads OpenInference output tool calls and llm.tools', () => {
    const d = infer({
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': 'I will search.',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'search_docs',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"query":"museums"}',
      'llm.tools.0.tool.json_schema': '{"type":"function","function":{"name":"get_weather","description":"Weather"}}',
      'llm.tools.1.tool.json_schema': '{"type":"function","function":{"name":"search_docs"}}',
    });
    expect(d).toMatchObject({
      reasoning: 'I will search.',
      chosen: { tool: 'search_docs', arguments: { query: 'museums' } },
      alternatives: [{ tool: 'get_weather', description: 'Weather' }],
      contextSnapshot: { inferredFrom: 'llm.output_messages' },
    });
  });

  it('reads Vercel ai.response.toolCalls (input as JSON text, or args before v5) and ai.prompt.tools', () => {
    const d = infer({
      'ai.response.text': 'Let me look.',
      'ai.response.toolCalls': '[{"toolCallId":"call-1","toolName":"get_weather","input":"{\\"city\\":\\"Paris\\"}"}]',
      'ai.prompt.tools': ['{"type":"function","name":"get_weather"}', '{"type":"function","name":"get_time","description":"Time"}'],
    });
    expect(d).toMatchObject({
      reasoning: 'Let me look.',
      chosen: { tool: 'get_weather', arguments: { city: 'Paris' } },
      alternatives: [{ tool: 'get_time', description: 'Time' }],
      contextSnapshot: { inferredFrom: 'ai.response.toolCalls', toolCallId: 'call-1' },
    });
    const v4 = infer({ 'ai.response.toolCalls': '[{"toolCallId":"c","toolName":"f","args":{"x":1}}]' });
    expect(v4).toMatchObject({ chosen: { tool: 'f', arguments: { x: 1 } }, alternatives: [], reasoning: null });
  });

  it('infers nothing from a model answer without tool calls', () => {
    expect(infer({ 'gen_ai.output.messages': '[{"role":"assistant","parts":[{"type":"text","content":"Hi"}]}]' })).toBeNull();
    expect(infer({ 'ai.response.text': 'Hi', 'ai.prompt.tools': ['{"name":"f"}'] })).toBeNull();
    expect(infer({ 'llm.output_messages.0.message.content': 'Hi' })).toBeNull();
  });

  it('takes tool definitions that are only names (Mastra)', () => {
    const d = infer({
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', name: 'getWeather', arguments: {} }] }]),
      'gen_ai.tool.definitions': '["getWeather","getTime"]',
    });
    expect(d?.alternatives).toEqual([{ tool: 'getTime' }]);
  });

  it("reads Langfuse output: OpenAI tool_calls, Anthropic tool_use blocks, a list of messages; tools from the input's tools", () => {
    const openai = infer({
      'langfuse.observation.output': JSON.stringify({ role: 'assistant', content: 'On it.', tool_calls: [{ id: 'c1', function: { name: 'search', arguments: '{"q":"x"}' } }] }),
      'langfuse.observation.input': JSON.stringify({ messages: [], tools: [{ type: 'function', function: { name: 'search' } }, { name: 'mail', description: 'Send mail' }] }),
    });
    expect(openai).toMatchObject({
      chosen: { tool: 'search', arguments: { q: 'x' } },
      alternatives: [{ tool: 'mail', description: 'Send mail' }],
      reasoning: 'On it.',
      contextSnapshot: { inferredFrom: 'langfuse.observation.output', toolCallId: 'c1' },
    });
    const anthropic = infer({
      'langfuse.observation.output': JSON.stringify([
        { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 't1', name: 'lookup', input: { id: 7 } }] },
      ]),
    });
    expect(anthropic).toMatchObject({ chosen: { tool: 'lookup', arguments: { id: 7 } }, reasoning: 'Looking.', alternatives: [] });
    expect(infer({ 'langfuse.observation.output': '"just text"' })).toBeNull();
  });

  it("reads a Mastra model step's toolCalls (args), with the step's text as the reasoning", () => {
    const d = infer({ 'mastra.model_step.output': JSON.stringify({ text: 'Checking.', toolCalls: [{ toolCallId: 'call-1', toolName: 'getWeather', args: { city: 'Paris' } }] }) });
    expect(d).toMatchObject({ chosen: { tool: 'getWeather', arguments: { city: 'Paris' } }, reasoning: 'Checking.', contextSnapshot: { inferredFrom: 'mastra.model_step.output', toolCallId: 'call-1' } });
  });
});
