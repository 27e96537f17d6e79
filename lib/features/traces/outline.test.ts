// The detail page's first load (the outline: spans without payloads), a span's payloads
// on demand, and search inside one trace, on every test database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { contextAs, testContext } from '@/test/support/context';
import { getSpanOrThrow } from './children';
import { getTraceOrThrow } from './detail';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { getTraceOutlineJsonOrThrow, getTraceOutlineOrThrow, OUTLINE_STATUS_MESSAGE_CHARS, outlineFormatOrThrow } from './outline';
import { outlineFromColumns, SPAN_COLUMNS, type ColumnarOutline } from './outline-columns';
import { saveScores, validateScoresBody } from '@/lib/features/scores';
import { asKey } from '@/test/support/scores';
import { MAX_TRACE_MATCHES, searchTraceOrThrow } from '@/lib/features/search/search-trace';
import { validateIngestBody } from '@/lib/features/ingest/validate';

const limits = { maxBatchTraces: 10, maxChildrenPerTrace: 10_000 };
const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 3, 4, 0) + s * 1000).toISOString();

describe.each(testDatabases())('trace outline and in-trace search on $name', (target) => {
  let database: Database;
  const id = uid('outline');
  const many = uid('many');

  beforeAll(async () => {
    database = await target.open();
    const spans = [
      { id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', startedAt: at(0), endedAt: at(10), input: { question: 'Where is ORD-77?' }, output: 'It ships today', metadata: { env: 'prod' } },
      // The response model wins over the request model, whatever the key order.
      { id: 'llm', parentSpanId: 'root', name: 'chat', type: 'LLM_CALL', status: 'COMPLETED', startedAt: at(1), endedAt: at(3), tokenCount: 120, costUsd: 0.002, input: [{ role: 'user', content: 'find ORD-77' }], output: 'calling lookup', metadata: { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.response.model': ' gpt-4o-2024-08-06 ' } },
      // A blank or non-string model attribute is skipped.
      { id: 'llm2', parentSpanId: 'root', name: 'chat again', type: 'LLM_CALL', status: 'COMPLETED', startedAt: at(4), endedAt: at(5), metadata: { 'gen_ai.response.model': '  ', 'llm.model_name': 42, model: 'claude-x' } },
      { id: 'tool', parentSpanId: 'root', name: 'lookup_order', type: 'TOOL_CALL', status: 'ERROR', statusMessage: `timeout ${'x'.repeat(500)}`, startedAt: at(6), endedAt: at(7), input: { order: 'ORD-77' }, output: null, metadata: { 'ai.toolCall.id': 'call-1' } },
    ];
    await ingestTraces(
      testContext(database),
      validateIngestBody(
        {
          traces: [
            makeTrace({ id, startedAt: at(0), endedAt: at(10), spans, decisionPoints: [], events: [{ id: 'e1', spanId: 'tool', type: 'ERROR', name: 'ORD-77 failed', timestamp: at(7) }] }),
            makeTrace({
              id: many,
              spans: Array.from({ length: MAX_TRACE_MATCHES + 5 }, (_, k) => ({ id: `m${String(k).padStart(5, '0')}`, name: `step needle ${k}`, type: 'CUSTOM', status: 'COMPLETED', startedAt: at(k) })),
            }),
          ],
        },
        limits,
      ),
    );
  });

  afterAll(async () => {
    await database?.close();
  });

  it('sends every span without its payloads, and the rest of the trace as the detail route does', async () => {
    const ctx = testContext(database);
    const [outline, detail] = await Promise.all([getTraceOutlineOrThrow(ctx, id), getTraceOrThrow(ctx, id)]);
    const { spans: outlineSpans, ...outlineRest } = outline;
    const { spans: detailSpans, ...detailRest } = detail;
    expect(outlineRest).toEqual(detailRest);
    expect(outlineSpans.map((s) => s.id)).toEqual(detailSpans.map((s) => s.id));
    for (const [i, s] of outlineSpans.entries()) {
      expect(Object.keys(s)).not.toContain('input');
      expect(Object.keys(s)).not.toContain('output');
      expect(Object.keys(s)).not.toContain('metadata');
      const full = detailSpans[i];
      const keys = ['parentSpanId', 'name', 'type', 'tokenCount', 'costUsd', 'costSource', 'pricedModel', 'durationMs', 'status', 'startedAt', 'endedAt'] as const;
      for (const key of keys) expect(s[key], `${s.id}.${key}`).toEqual(full[key]);
      expect(s.statusMessage).toBe(full.statusMessage === null ? null : full.statusMessage.slice(0, OUTLINE_STATUS_MESSAGE_CHARS));
    }
    expect((await getTraceOutlineJsonOrThrow(ctx, id)).spanCount).toBe(4);
  });

  it('sends the same outline in the columnar form, scores included', async () => {
    const ctx = testContext(database);
    const scoredId = uid('scored');
    await ingestTraces(
      ctx,
      validateIngestBody(
        {
          traces: [
            makeTrace({
              id: scoredId,
              startedAt: at(0),
              spans: [
                { id: 'a', name: 'first', type: 'LLM_CALL', status: 'COMPLETED', startedAt: at(0), endedAt: at(1), metadata: { model: 'm-1' } },
                { id: 'b', parentSpanId: 'a', name: 'second', type: 'TOOL_CALL', status: 'ERROR', statusMessage: 'x'.repeat(400), startedAt: at(1) },
              ],
            }),
          ],
        },
        limits,
      ),
    );
    const both = async () => {
      const objects = await getTraceOutlineOrThrow(ctx, scoredId);
      const wire = JSON.parse((await getTraceOutlineJsonOrThrow(ctx, scoredId, { format: 'columns' })).json) as ColumnarOutline;
      return { objects, wire };
    };
    let { objects, wire } = await both();
    expect(wire).not.toHaveProperty('spans');
    expect(wire.spanColumns).toEqual([...SPAN_COLUMNS]);
    expect(wire.spanRows).toHaveLength(2);
    expect(outlineFromColumns(wire)).toEqual(objects);
    expect(await getTraceOutlineOrThrow(ctx, scoredId, 'columns')).toEqual(objects);
    expect(objects.spans[1].statusMessage).toHaveLength(OUTLINE_STATUS_MESSAGE_CHARS);

    // A score on one span: the columnar form adds a score column, null for the others.
    await saveScores(asKey(database), validateScoresBody({ scores: [{ traceId: scoredId, spanId: 'b', name: 'helpful', value: 0.5 }] }));
    ({ objects, wire } = await both());
    expect(wire.spanColumns).toEqual([...SPAN_COLUMNS, 'scores']);
    expect(objects.spans[1].scores).toEqual([expect.objectContaining({ name: 'helpful', value: 0.5 })]);
    expect(objects.spans[0]).not.toHaveProperty('scores');
    expect(outlineFromColumns(wire)).toEqual(objects);
  });

  it('reads the format parameter: objects by default, columns, nothing else', () => {
    expect(outlineFormatOrThrow(null)).toBe('objects');
    expect(outlineFormatOrThrow('')).toBe('objects');
    expect(outlineFormatOrThrow('columns')).toBe('columns');
    expect(() => outlineFormatOrThrow('rows')).toThrow('Invalid format parameter: objects or columns');
  });

  it('sends only the trace’s own fields when it has more spans than the caller takes', async () => {
    const ctx = testContext(database);
    const small = await getTraceOutlineJsonOrThrow(ctx, id, { maxSpans: 4 });
    expect(small.complete).toBe(true);
    const large = await getTraceOutlineJsonOrThrow(ctx, id, { maxSpans: 3 });
    expect(large).toMatchObject({ complete: false, spanCount: 4 });
    const record = JSON.parse(large.json);
    expect(record.id).toBe(id);
    expect(record).not.toHaveProperty('spans');
    expect(record).not.toHaveProperty('decisionPoints');
  });

  it('names each span’s model as the viewer reads it from the metadata', async () => {
    const outline = await getTraceOutlineOrThrow(testContext(database), id);
    expect(Object.fromEntries(outline.spans.map((s) => [s.id, s.model]))).toEqual({
      root: null,
      llm: 'gpt-4o-2024-08-06',
      llm2: 'claude-x',
      tool: null,
    });
  });

  it('names the tool call a tool span ran, for matching tool selections without the metadata', async () => {
    const outline = await getTraceOutlineOrThrow(testContext(database), id);
    expect(Object.fromEntries(outline.spans.map((s) => [s.id, s.toolCallId]))).toEqual({ root: null, llm: null, llm2: null, tool: 'call-1' });
  });

  it('loads one span with its payloads when it is opened', async () => {
    const span = await getSpanOrThrow(testContext(database), id, 'llm');
    expect(span.input).toEqual([{ role: 'user', content: 'find ORD-77' }]);
    expect(span.metadata).toMatchObject({ 'gen_ai.request.model': 'gpt-4o' });
    await expect(getSpanOrThrow(testContext(database), id, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses unknown, invalid and unauthorised reads', async () => {
    const ctx = testContext(database);
    await expect(getTraceOutlineOrThrow(ctx, 'no-such-trace')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(getTraceOutlineOrThrow(ctx, '')).rejects.toMatchObject({ code: 'VALIDATION' });
    const nobody = contextAs(database, { mode: 'protected', keysOnly: true, credential: { kind: 'none' } });
    await expect(getTraceOutlineOrThrow(nobody, id)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(searchTraceOrThrow(nobody, id, 'ORD')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('finds a text in names, inputs, outputs, status messages and events, in the trace’s order', async () => {
    const result = await searchTraceOrThrow(testContext(database), id, 'ord-77');
    expect(result.truncated).toBe(false);
    expect(result.matches.map((m) => `${m.kind}:${m.id}:${m.field}`)).toEqual([
      'span:root:input',
      'span:llm:input',
      'span:tool:input',
      'event:e1:name',
    ]);
    expect(result.matches[0].snippet).toContain('ORD-77');
    expect((await searchTraceOrThrow(testContext(database), id, 'SHIPS')).matches.map((m) => `${m.id}:${m.field}`)).toEqual(['root:output']);
    expect((await searchTraceOrThrow(testContext(database), id, 'absent-text')).matches).toEqual([]);
  });

  it('lists at most MAX_TRACE_MATCHES places and says when there were more', async () => {
    const result = await searchTraceOrThrow(testContext(database), many, 'needle');
    expect(result.matches).toHaveLength(MAX_TRACE_MATCHES);
    expect(result.truncated).toBe(true);
    expect(result.matches[0].id).toBe('m00000');
    expect(result.matches.at(-1)?.id).toBe(`m${String(MAX_TRACE_MATCHES - 1).padStart(5, '0')}`);
  });

  it('answers 400 for a missing, empty or too long q, and 404 for an unknown trace', async () => {
    const ctx = testContext(database);
    await expect(searchTraceOrThrow(ctx, id, null)).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('q parameter') });
    await expect(searchTraceOrThrow(ctx, id, '')).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(searchTraceOrThrow(ctx, id, 'x'.repeat(201))).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('200') });
    await expect(searchTraceOrThrow(ctx, 'no-such-trace', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
