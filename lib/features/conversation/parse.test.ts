// Every message shape ingest stores, read as a conversation. The OTLP cases take their
// payloads from the recorded fixtures through the real decoder and mapper, so they test
// what a span's input and output really hold once stored.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeJsonRequest } from '@/lib/transports/otlp/decode';
import { spanPayloadOf } from '@/lib/features/otlp/logs';
import { planOtlpRequest } from '@/lib/features/otlp/map';
import type { SpanInput } from '@/lib/features/ingest/validate';
import type { JsonValue } from '@/lib/features/traces/types';
import { toConversation, type Message } from './parse';
import { requestDetails } from './request';

/** The model-call spans of a recorded fixture as ingest stores them, in start order. */
function modelCalls(fixture: string): SpanInput[] {
  const file = path.join(import.meta.dirname, '../../../test/fixtures/otlp', `${fixture}.json`);
  const planned = planOtlpRequest(decodeJsonRequest(readFileSync(file, 'utf8')));
  expect(planned.rejected).toEqual([]);
  const spans = [...planned.traces()].flatMap((t) => t.spans);
  return spans.filter((s) => s.type === 'LLM_CALL');
}

const io = (s: SpanInput, side: 'input' | 'output') => s[side] as JsonValue;
const roles = (m: Message[] | null) => m?.map((x) => x.role);

describe('OTLP fixtures (payloads as stored)', () => {
  it('AI SDK: ai.prompt.messages with text, tool-call and tool-result parts; ai.response.text and toolCalls', () => {
    const [first, second] = modelCalls('vercel-ai');
    expect(toConversation(io(first, 'input'))).toEqual([
      { role: 'system', name: null, parts: [{ kind: 'text', text: 'You are a weather assistant.' }] },
      { role: 'user', name: null, parts: [{ kind: 'text', text: 'What is the weather in Paris?' }] },
    ]);
    expect(toConversation(io(first, 'output'), 'output')).toEqual([
      {
        role: 'assistant',
        name: null,
        parts: [
          { kind: 'text', text: 'Let me look up the weather in Paris.' },
          { kind: 'tool_call', id: 'call-1', name: 'get_weather', arguments: { city: 'Paris' } },
        ],
      },
    ]);
    const followUp = toConversation(io(second, 'input'))!;
    expect(roles(followUp)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(followUp[2].parts[1]).toEqual({ kind: 'tool_call', id: 'call-1', name: 'get_weather', arguments: { city: 'Paris' } });
    expect(followUp[3].parts).toEqual([
      { kind: 'tool_result', id: 'call-1', name: 'get_weather', content: { city: 'Paris', condition: 'sunny', celsius: 21 }, isError: false },
    ]);
    expect(toConversation(io(second, 'output'), 'output')).toEqual([
      { role: 'assistant', name: null, parts: [{ kind: 'text', text: 'It is sunny and 21°C in Paris.' }] },
    ]);
    expect(requestDetails(io(first, 'input'), null).tools.map((t) => t.name)).toEqual(['get_weather', 'get_time']);
  });

  it('OpenInference: llm.input_messages / llm.output_messages rebuilt, with tool_calls', () => {
    const [call] = modelCalls('openinference');
    expect(toConversation(io(call, 'input'))).toEqual([
      { role: 'system', name: null, parts: [{ kind: 'text', text: 'You are a travel assistant.' }] },
      { role: 'user', name: null, parts: [{ kind: 'text', text: 'What is the weather in Paris?' }] },
    ]);
    expect(toConversation(io(call, 'output'), 'output')).toEqual([
      {
        role: 'assistant',
        name: null,
        parts: [
          { kind: 'text', text: 'I will check the weather first.' },
          { kind: 'tool_call', id: 'call_oi_1', name: 'get_weather', arguments: { city: 'Paris' } },
        ],
      },
    ]);
    expect(requestDetails(io(call, 'input'), null).tools.map((t) => t.name)).toEqual(['get_weather', 'search_docs']);
  });

  it('GenAI semantic conventions: parts with text, tool_call and tool_call_response', () => {
    const calls = modelCalls('genai');
    const withHistory = calls.find((c) => Array.isArray(c.input))!;
    const conversation = toConversation(io(withHistory, 'input'))!;
    expect(roles(conversation)).toEqual(['user', 'assistant', 'tool']);
    expect(conversation[1].parts).toEqual([{ kind: 'tool_call', id: 'call_VSPy', name: 'get_weather', arguments: { location: 'Paris' } }]);
    expect(conversation[2].parts).toEqual([{ kind: 'tool_result', id: 'call_VSPy', name: 'get_weather', content: 'rainy, 57°F', isError: false }]);
    expect(toConversation(io(withHistory, 'output'), 'output')).toEqual([
      { role: 'assistant', name: null, parts: [{ kind: 'text', text: 'It is rainy in Paris, 57°F.' }] },
    ]);
    const first = calls.find((c) => !Array.isArray(c.input))!;
    expect(roles(toConversation(io(first, 'input')))).toEqual(['user']);
    expect(toConversation(io(first, 'output'), 'output')![0].parts.map((p) => p.kind)).toEqual(['text', 'tool_call']);
  });

  it('Langfuse: OpenAI messages in, one assistant message with tool_calls out', () => {
    const [call] = modelCalls('langfuse');
    expect(roles(toConversation(io(call, 'input')))).toEqual(['user']);
    expect(toConversation(io(call, 'output'), 'output')).toEqual([
      {
        role: 'assistant',
        name: null,
        parts: [
          { kind: 'text', text: 'Let me look that order up.' },
          { kind: 'tool_call', id: 'call_lf_1', name: 'lookup_order', arguments: { id: 7 } },
        ],
      },
    ]);
  });

  it('Mastra: agent steps (messages in, {text, toolCalls} out) and GenAI chat outputs', () => {
    const calls = modelCalls('mastra');
    const steps = calls.filter((c) => c.input !== null);
    expect(roles(toConversation(io(steps[0], 'input')))).toEqual(['system', 'user']);
    expect(toConversation(io(steps[0], 'output'), 'output')).toEqual([
      { role: 'assistant', name: null, parts: [{ kind: 'tool_call', id: 'call-1', name: 'getWeather', arguments: { city: 'Paris' } }] },
    ]);
    expect(roles(toConversation(io(steps[1], 'input')))).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(toConversation(io(steps[1], 'output'), 'output')).toEqual([
      { role: 'assistant', name: null, parts: [{ kind: 'text', text: 'It is sunny in Paris.' }] },
    ]);
    // A chat span whose only part is empty text is still a message, with nothing in it.
    for (const chat of calls.filter((c) => c.input === null)) {
      expect(roles(toConversation(io(chat, 'output'), 'output'))).toEqual(['assistant']);
    }
  });

  it('OpenLLMetry (Traceloop): GenAI messages with tool calls and responses', () => {
    const [first, second] = modelCalls('traceloop');
    expect(toConversation(io(first, 'output'), 'output')![0].parts).toEqual([
      { kind: 'tool_call', id: 'call-1', name: 'getWeather', arguments: { city: 'Paris' } },
    ]);
    const history = toConversation(io(second, 'input'))!;
    expect(roles(history)).toEqual(['user', 'assistant', 'tool']);
    expect(history[2].parts[0]).toMatchObject({ kind: 'tool_result', name: 'getWeather', content: { city: 'Paris', condition: 'sunny' } });
  });
});

describe('OTLP log events (GenAI per-message records, as the span payload they rebuild)', () => {
  it('reads system, user, assistant tool calls, tool results named by id, and the choice', () => {
    const payload = spanPayloadOf([
      { name: 'gen_ai.system.message', body: { content: 'Be brief.' }, attributes: {} },
      { name: 'gen_ai.user.message', body: 'Weather?', attributes: {} },
      {
        name: 'gen_ai.assistant.message',
        body: { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: { city: 'Paris' } } }] },
        attributes: {},
      },
      { name: 'gen_ai.tool.message', body: { id: 'c1', content: { sky: 'sunny' } }, attributes: {} },
      { name: 'gen_ai.choice', body: { index: 0, finish_reason: 'stop', message: { content: 'Sunny.' } }, attributes: {} },
    ]);
    const input = toConversation(payload.input as JsonValue)!;
    expect(roles(input)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(input[2].parts).toEqual([{ kind: 'tool_call', id: 'c1', name: 'weather', arguments: { city: 'Paris' } }]);
    expect(input[3].parts).toEqual([{ kind: 'tool_result', id: 'c1', name: 'weather', content: { sky: 'sunny' }, isError: false }]);
    expect(toConversation(payload.output as JsonValue, 'output')).toEqual([
      { role: 'assistant', name: null, parts: [{ kind: 'text', text: 'Sunny.' }] },
    ]);
  });
});

describe('JSON API shapes', () => {
  it('OpenAI chat: content string or parts, tool_calls with JSON-text arguments, role tool with tool_call_id', () => {
    const conversation = toConversation([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"found":true}' },
      { role: 'assistant', content: 'A cat.' },
    ]);
    expect(conversation).toEqual([
      { role: 'system', name: null, parts: [{ kind: 'text', text: 'Be brief.' }] },
      {
        role: 'user',
        name: null,
        parts: [
          { kind: 'text', text: 'What is this?' },
          { kind: 'image', src: 'data:image/png;base64,iVBORw0KGgo=', mediaType: null },
        ],
      },
      { role: 'assistant', name: null, parts: [{ kind: 'tool_call', id: 'c1', name: 'lookup', arguments: { q: 'x' } }] },
      { role: 'tool', name: null, parts: [{ kind: 'tool_result', id: 'c1', name: 'lookup', content: { found: true }, isError: false }] },
      { role: 'assistant', name: null, parts: [{ kind: 'text', text: 'A cat.' }] },
    ]);
  });

  it('OpenAI: a chat completion response, and arguments that are not JSON kept as text', () => {
    const out = toConversation(
      { id: 'x', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi', tool_calls: [{ id: 'c', function: { name: 'f', arguments: '{oops' } }] } }] },
      'output',
    );
    expect(out).toEqual([
      { role: 'assistant', name: null, parts: [{ kind: 'text', text: 'Hi' }, { kind: 'tool_call', id: 'c', name: 'f', arguments: '{oops' }] },
    ]);
  });

  it('Anthropic: system beside messages, text/tool_use/tool_result/image blocks, thinking', () => {
    const conversation = toConversation({
      system: 'You are terse.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
            { type: 'text', text: 'Describe, then look it up.' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'A search helps.' },
            { type: 'tool_use', id: 'tu1', name: 'search', input: { q: 'cat' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: 'no results' }], is_error: true }] },
      ],
    });
    expect(roles(conversation)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(conversation![1].parts.slice(0, 2)).toEqual([
      { kind: 'image', src: 'data:image/jpeg;base64,/9j/4AAQ', mediaType: 'image/jpeg' },
      { kind: 'image', src: 'https://example.com/a.png', mediaType: null },
    ]);
    expect(conversation![2].parts).toEqual([
      { kind: 'reasoning', text: 'A search helps.' },
      { kind: 'tool_call', id: 'tu1', name: 'search', arguments: { q: 'cat' } },
    ]);
    expect(conversation![3].parts).toEqual([{ kind: 'tool_result', id: 'tu1', name: 'search', content: 'no results', isError: true }]);
    // Anthropic's response: one message with content blocks.
    expect(roles(toConversation({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' }, 'output'))).toEqual([
      'assistant',
    ]);
  });

  it('OpenInference contents (text and image), a tool message with tool_call_id; GenAI blob and uri images', () => {
    const conversation = toConversation([
      { role: 'user', contents: [{ type: 'text', text: 'See:' }, { type: 'image', image: { url: 'https://example.com/x.jpg' } }] },
      { role: 'assistant', tool_calls: [{ id: 't1', function: { name: 'zoom', arguments: '{"x":1}' } }] },
      { role: 'tool', tool_call_id: 't1', content: 'zoomed' },
      { role: 'user', parts: [{ type: 'blob', modality: 'image', mime_type: 'image/webp', content: 'UklGR' }, { type: 'uri', modality: 'image', uri: 'https://example.com/y.png' }] },
    ]);
    expect(conversation![0].parts[1]).toEqual({ kind: 'image', src: 'https://example.com/x.jpg', mediaType: null });
    expect(conversation![2].parts).toEqual([{ kind: 'tool_result', id: 't1', name: 'zoom', content: 'zoomed', isError: false }]);
    expect(conversation![3].parts).toEqual([
      { kind: 'image', src: 'data:image/webp;base64,UklGR', mediaType: 'image/webp' },
      { kind: 'image', src: 'https://example.com/y.png', mediaType: null },
    ]);
  });

  it('AI SDK ai.prompt: {system, prompt} and {system, messages}', () => {
    expect(toConversation({ system: 'Sys', prompt: 'Hello' })).toEqual([
      { role: 'system', name: null, parts: [{ kind: 'text', text: 'Sys' }] },
      { role: 'user', name: null, parts: [{ kind: 'text', text: 'Hello' }] },
    ]);
    expect(roles(toConversation({ system: 'Sys', messages: [{ role: 'user', content: 'Hi' }] }))).toEqual(['system', 'user']);
    expect(roles(toConversation({ prompt: 'hi' }))).toEqual(['user']);
  });

  it('GenAI system instructions (parts) beside the messages', () => {
    expect(toConversation({ system: [{ type: 'text', content: 'Rules' }], messages: [{ role: 'user', parts: [{ type: 'text', content: 'Q' }] }] })).toEqual([
      { role: 'system', name: null, parts: [{ kind: 'text', text: 'Rules' }] },
      { role: 'user', name: null, parts: [{ kind: 'text', text: 'Q' }] },
    ]);
  });

  it('plain strings: the user on the input side, the assistant on the output side', () => {
    expect(toConversation('hello')).toEqual([{ role: 'user', name: null, parts: [{ kind: 'text', text: 'hello' }] }]);
    expect(toConversation('hi there', 'output')).toEqual([{ role: 'assistant', name: null, parts: [{ kind: 'text', text: 'hi there' }] }]);
    expect(toConversation({ text: 'First search the web.' }, 'output')).toEqual([
      { role: 'assistant', name: null, parts: [{ kind: 'text', text: 'First search the web.' }] },
    ]);
    expect(toConversation({ message: 'Can I get a refund?' })).toEqual([{ role: 'user', name: null, parts: [{ kind: 'text', text: 'Can I get a refund?' }] }]);
    expect(toConversation({ message: 'Here it is.' }, 'output')).toEqual([{ role: 'assistant', name: null, parts: [{ kind: 'text', text: 'Here it is.' }] }]);
  });

  it('unknown part types are kept as data; unknown shapes are null (the JSON viewer shows them)', () => {
    expect(toConversation([{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x' } }] }])![0].parts).toEqual([
      { kind: 'data', value: { type: 'input_audio', input_audio: { data: 'x' } } },
    ]);
    for (const value of [null, '', 42, true, [], [1, 2], [{ content: 'no role' }], { query: 'x' }, { message: '' }, { message: 'a', user: 'b' }, { message: 1 }, { messages: 'nope' }, { text: 1 }, { text: 'a', score: 2 }]) {
      expect(toConversation(value as JsonValue), JSON.stringify(value)).toBeNull();
    }
    expect(toConversation([{ role: 'user', content: [{ no: 'type' }] }])).toBeNull();
  });
});
