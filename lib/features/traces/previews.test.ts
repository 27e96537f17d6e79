// The list's row previews and models on every test database: where the input and output
// are read from, how they read as text, the bound on large payloads, and the models.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { previewOf, PREVIEW_CHARS } from '@/lib/features/conversation/preview';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { listTraces } from './list';
import { tracePreviews } from './previews';
import { validateIngestBody } from '@/lib/features/ingest/validate';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };
const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 10, 0, s)).toISOString();

function span(id: string, fields: Record<string, unknown>) {
  return { id, name: id, type: 'CUSTOM', status: 'COMPLETED', startedAt: at(0), ...fields };
}

function trace(spans: Record<string, unknown>[]) {
  return makeTrace({ id: uid('prev'), name: 'preview run', decisionPoints: [], events: [], spans });
}

describe('previewOf', () => {
  it('reads the last user message of an input and the assistant text of an output', () => {
    const input = {
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: 'First answer' },
        { role: 'user', content: [{ type: 'text', text: 'Where is\n my   order?' }] },
      ],
    };
    expect(previewOf(input, 'input')).toBe('Where is my order?');
    expect(previewOf({ choices: [{ message: { role: 'assistant', content: 'It ships today.' } }] }, 'output')).toBe('It ships today.');
    expect(previewOf('plain answer', 'output')).toBe('plain answer');
  });

  it('names a tool call when a message has no text', () => {
    const output = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"id":7}' } }] };
    expect(previewOf(output, 'output')).toBe('lookup({"id":7})');
  });

  it('reads the telling key of a hand-written object, else its JSON, on one line, truncated', () => {
    expect(previewOf({ question: 'Population of Lyon?', locale: 'fr' }, 'input')).toBe('Population of Lyon?');
    expect(previewOf({ a: 1 }, 'input')).toBe('{"a":1}');
    const long = previewOf('x'.repeat(1000), 'input')!;
    expect(Array.from(long)).toHaveLength(PREVIEW_CHARS);
    expect(long.endsWith('…')).toBe(true);
    expect(previewOf(null, 'input')).toBeNull();
    expect(previewOf('   ', 'input')).toBeNull();
  });
});

describe.each(testDatabases())('tracePreviews on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    await truncateAll(db);
  });
  afterAll(async () => {
    await db.close();
  });

  async function ingest(traces: Record<string, unknown>[]) {
    await ingestTraces(testContext(db), validateIngestBody({ traces }, limits));
    return traces.map((t) => t.id as string);
  }

  it('takes the root span, else the first and last model calls, and lists the models', async () => {
    const [rooted, llmOnly, empty] = await ingest([
      trace([
        span('root', { type: 'AGENT', input: { question: 'Refund order 42?' }, output: 'Refunded.' }),
        span('llm', { parentSpanId: 'root', type: 'LLM_CALL', startedAt: at(1), input: 'ignored', metadata: { model: 'gpt-4o' } }),
      ]),
      trace([
        span('root', { type: 'AGENT' }),
        span('l1', { parentSpanId: 'root', type: 'LLM_CALL', startedAt: at(1), input: [{ role: 'user', content: 'first in' }], output: 'first out', metadata: { 'gen_ai.request.model': 'claude-x' } }),
        span('l2', { parentSpanId: 'root', type: 'LLM_CALL', startedAt: at(2), input: 'second in', output: { role: 'assistant', content: 'last out' }, metadata: { model: 'gpt-4o' } }),
        span('l3', { parentSpanId: 'root', type: 'LLM_CALL', startedAt: at(3), metadata: { model: { name: 'not a string' } } }),
      ]),
      trace([]),
    ]);
    const previews = await tracePreviews(db.sql, [rooted, llmOnly, empty, 'unknown']);
    expect(previews.get(rooted)).toEqual({ inputPreview: 'Refund order 42?', outputPreview: 'Refunded.', models: ['gpt-4o'] });
    expect(previews.get(llmOnly)).toEqual({ inputPreview: 'first in', outputPreview: 'last out', models: ['claude-x', 'gpt-4o'] });
    expect(previews.get(empty)).toEqual({ inputPreview: null, outputPreview: null, models: [] });
    expect(previews.has('unknown')).toBe(false);

    // The list answers them as new fields beside the record's.
    const page = await listTraces(testContext(db), { page: 1, limit: 10, search: 'preview run' }, { previews: true });
    const item = page.traces.find((t) => t.id === llmOnly)!;
    expect(item).toMatchObject({ inputPreview: 'first in', outputPreview: 'last out', models: ['claude-x', 'gpt-4o'], name: 'preview run' });
    // Only when asked (SOAP's rows have no field for them).
    const plain = await listTraces(testContext(db), { page: 1, limit: 10, search: 'preview run' });
    expect(plain.traces.find((t) => t.id === llmOnly)).not.toHaveProperty('inputPreview');
  });

  it('reads only the last message, or the start, of a large payload', async () => {
    const filler = 'lorem ipsum '.repeat(5000); // ~60 KB, over the whole-read bound
    const [messages, text] = await ingest([
      trace([span('root', { input: { messages: [{ role: 'user', content: filler }, { role: 'user', content: 'the latest ask' }] } })]),
      trace([span('root', { input: { blob: filler } })]),
    ]);
    const previews = await tracePreviews(db.sql, [messages, text]);
    expect(previews.get(messages)!.inputPreview).toBe('the latest ask');
    expect(previews.get(text)!.inputPreview).toMatch(/^\{"blob": "lorem ipsum lorem/);
    expect(Array.from(previews.get(text)!.inputPreview!).length).toBe(PREVIEW_CHARS);
  });
});
