// Every model call of the recorded OTLP fixtures, as ingest stores it, renders as a chat
// (server-side render: the same markup the first paint shows), with each role's label.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { toConversation } from '@/lib/features/conversation/parse';
import { decodeJsonRequest } from '@/lib/transports/otlp/decode';
import { planOtlpRequest } from '@/lib/features/otlp/map';
import type { JsonValue } from '@/lib/features/traces/types';
import { ChatPayload } from './ChatPayload';

const FIXTURES = ['vercel-ai', 'openinference', 'genai', 'langfuse', 'mastra', 'traceloop'];
const LABEL: Record<string, string> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' };

describe.each(FIXTURES)('%s model calls', (fixture) => {
  const file = path.join(import.meta.dirname, '../../../../test/fixtures/otlp', `${fixture}.json`);
  const spans = [...planOtlpRequest(decodeJsonRequest(readFileSync(file, 'utf8'))).traces()].flatMap((t) => t.spans).filter((s) => s.type === 'LLM_CALL');

  it('render as chat, every message with its role label', () => {
    expect(spans.length).toBeGreaterThan(0);
    for (const span of spans) {
      for (const side of ['input', 'output'] as const) {
        const value = span[side] as JsonValue;
        const messages = toConversation(value, side);
        if (value === null) continue;
        expect(messages, `${span.name} ${side}`).not.toBeNull();
        const html = renderToStaticMarkup(<ChatPayload label={side} value={value} side={side} />);
        expect(html.match(/data-testid="chat-message"/g)).toHaveLength(messages!.length);
        for (const m of messages!) expect(html).toContain(`>${LABEL[m.role]}</span>`);
      }
    }
  });
});

describe('ChatPayload', () => {
  it('shows tool calls with name and arguments, and a collapsed image', () => {
    const html = renderToStaticMarkup(
      <ChatPayload
        label="Input"
        side="input"
        value={[
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
          { role: 'assistant', tool_calls: [{ id: 'c1', function: { name: 'lookup_order', arguments: '{"id":7}' } }] },
        ]}
      />,
    );
    expect(html).toContain('Tool call');
    expect(html).toContain('lookup_order');
    expect(html).toContain('Show image');
    expect(html).not.toContain('<img');
  });

  it("shows a request's parameters as a table, its tools folded to name and description, and its other keys", () => {
    const html = renderToStaticMarkup(
      <ChatPayload
        label="Input"
        side="input"
        metadata={{ 'gen_ai.request.seed': 7 }}
        value={{
          model: 'gpt-4o',
          temperature: 0.2,
          messages: [{ role: 'user', content: 'Hi' }],
          tools: [{ type: 'function', function: { name: 'lookup_order', description: 'Find an order by id', parameters: { type: 'object' } } }],
          experiment: 'b',
        }}
      />,
    );
    expect(html).toContain('<caption');
    expect(html).toContain('<th scope="col"');
    for (const name of ['model', 'temperature', 'seed']) expect(html).toMatch(new RegExp(`<th scope="row"[^>]*><code[^>]*>${name}</code>`));
    expect(html.replaceAll('<wbr/>', '')).toContain('from <code class="font-mono">gen_ai.request.seed</code>');
    // Folded: the name and description in the summary, the schema only once opened.
    expect(html).toMatch(/<details[^>]*><summary[^>]*>.*lookup_order.*Find an order by id.*<\/summary>/);
    expect(html).not.toMatch(/<details [^>]*open/);
    expect(html).toContain('aria-label="Additional input"');
  });

  it("shows the metadata's parameters beside an input that is no conversation", () => {
    const html = renderToStaticMarkup(<ChatPayload label="Input" side="input" value={null} metadata={{ 'gen_ai.request.model': 'gpt-4o-mini' }} />);
    expect(html).toContain('gpt-4o-mini');
    expect(html).not.toContain('chat-message');
  });

  it('falls back to the JSON viewer for a shape it does not know', () => {
    const html = renderToStaticMarkup(<ChatPayload label="Input" side="input" value={{ query: 'x' }} />);
    expect(html).not.toContain('chat-message');
    expect(html).toContain('aria-label="Input"');
  });
});
