// The detail page's three reads through their real route handlers: the outline, one
// span's payloads, and search inside the trace; answers and the errors' JSON.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { GET as getSearch } from '../search/route';
import { GET as getSpan } from '../spans/[spanId]/route';
import { GET as getOutline } from './route';

const base = (id: string) => `http://test/api/traces/${encodeURIComponent(id)}`;
const outline = (id: string, query = '') => getOutline(new Request(`${base(id)}/outline${query}`), { params: Promise.resolve({ id }) });
const span = (id: string, spanId: string) => getSpan(new Request(`${base(id)}/spans/${spanId}`), { params: Promise.resolve({ id, spanId }) });
const search = (id: string, query: string) => getSearch(new Request(`${base(id)}/search${query}`), { params: Promise.resolve({ id }) });

describe.each(testDatabases())('trace outline, span and search routes on $name', ({ open }) => {
  let db: Database;
  const savedEnv = { ...process.env };
  const id = uid('route');

  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    useDatabase(db);
    delete process.env.API_KEYS;
    await truncateAll(db);
    const spans = [{ id: 'a', name: 'lookup', type: 'TOOL_CALL', status: 'COMPLETED', startedAt: '2026-01-02T03:04:05.000Z', input: { order: 'ORD-9' }, output: 'shipped' }];
    await ingestTraces(testContext(db), validateIngestBody({ traces: [makeTrace({ id, spans })] }, { maxBatchTraces: 10, maxChildrenPerTrace: 10 }));
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });

  it('sends the outline without payloads, the span with them, and the places a text occurs', async () => {
    const res = await outline(id);
    expect(res.status).toBe(200);
    const { trace } = await res.json();
    expect(trace.id).toBe(id);
    expect(trace.spans).toEqual([expect.objectContaining({ id: 'a', name: 'lookup', model: null })]);
    expect(trace.spans[0]).not.toHaveProperty('input');

    // The columnar form: the same span as one array of values.
    const columns = await (await outline(id, '?format=columns')).json();
    expect(columns.trace.spans).toBeUndefined();
    expect(columns.trace.spanRows).toHaveLength(1);
    expect(columns.trace.spanRows[0][columns.trace.spanColumns.indexOf('name')]).toBe('lookup');

    const one = await span(id, 'a');
    expect(one.status).toBe(200);
    expect((await one.json()).span).toMatchObject({ id: 'a', traceId: id, input: { order: 'ORD-9' }, output: 'shipped' });

    const found = await search(id, '?q=ord-9');
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual({ q: 'ord-9', matches: [{ kind: 'span', id: 'a', field: 'input', snippet: '{"order": "ORD-9"}' }], truncated: false });
  });

  it('answers the errors as JSON naming what is wrong', async () => {
    expect(await (await outline('missing')).json()).toEqual({ error: 'Trace not found' });
    const badFormat = await outline(id, '?format=csv');
    expect(badFormat.status).toBe(400);
    expect(await badFormat.json()).toEqual({ error: 'Invalid format parameter: objects or columns' });
    expect((await span(id, 'nope')).status).toBe(404);
    expect(await (await span(id, 'nope')).json()).toEqual({ error: 'Span not found' });
    const noQ = await search(id, '');
    expect(noQ.status).toBe(400);
    expect(await noQ.json()).toEqual({ error: 'Invalid q parameter: required (the text to find)' });
    expect((await search(id, `?q=${'x'.repeat(201)}`)).status).toBe(400);
    expect((await search('missing', '?q=x')).status).toBe(404);
  });
});
