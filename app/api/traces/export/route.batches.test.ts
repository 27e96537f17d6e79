// The export streams: a few thousand traces leave in bounded batches (keyset pages of
// EXPORT_BATCH_SIZE rows, ties on startedAt crossing batch boundaries), the response body
// arrives in many chunks, the next statement waits for the reader (backpressure), a
// client that goes away stops the queries, and a failure after the first byte aborts the
// body instead of ending it cleanly.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GET } from '@/app/api/traces/export/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { CHILDREN_PER_STATEMENT, EXPORT_BATCH_SIZE, listRowBatches } from '@/lib/features/traces/export/batches';
import { testContext } from '@/test/support/context';
import { statementOf } from '@/test/support/executor';
import { isSql } from '@/lib/db/sql';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const TRACES = 2_600;
const BASE = Date.UTC(2026, 4, 1);

function exportOf(query: string, signal?: AbortSignal): Promise<Response> {
  return GET(new Request(`http://test/api/traces/export?${query}`, { signal }), undefined);
}

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

/**
 * A batch of the export's list rows (listRowBatches), among every statement of the request
 * (the upkeep it schedules, the search probe, scores): its text starts with the list's columns.
 */
const isBatch = (statement: unknown): boolean => /SELECT \* FROM \(SELECT t\."id", t\."name"/.test(isSql(statement) ? statement.text : String(statement));

/** The upkeep a request schedules (insights and paths compaction, the status count fold), which may run on the same handle meanwhile. */
const isUpkeep = (text: string): boolean => /insights_compact|paths_compact|trace_status_count_fold/.test(text);

/** The export's own statements among a spy's calls. */
function exportCalls(spy: { mock: { calls: unknown[][] } }): number {
  return spy.mock.calls.filter((c) => isBatch(c[0])).length;
}

describe.each(testDatabases())('export streaming on $name', ({ open }) => {
  let db: Database;
  /** Every id in the list's order (startedAt DESC, id DESC), as SQL sorts them. */
  let order: string[];

  beforeAll(async () => {
    db = await open();
    await truncateAll(db);
    for (let start = 0; start < TRACES; start += 1000) {
      const traces = [];
      // Seven traces share each startedAt, so batch boundaries fall inside ties.
      for (let i = start; i < Math.min(TRACES, start + 1000); i++) {
        traces.push(makeTrace({ id: `bulk-${i}`, name: `bulk ${i % 3}`, startedAt: new Date(BASE - Math.floor(i / 7) * 1000).toISOString(), endedAt: undefined }));
      }
      await ingestTraces(testContext(db), parseIngestBody(JSON.stringify({ traces }), LIMITS));
    }
    const rows = await db.sql.query<{ id: string }>('SELECT id FROM "Trace" ORDER BY "startedAt" DESC, id DESC');
    order = rows.map((r) => r.id);
  }, 120_000);
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => {
    useDatabase(db);
    delete process.env.API_KEYS;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('the verb reads in batches of at most EXPORT_BATCH_SIZE rows, one statement each, every trace once', async () => {
    const statements = vi.spyOn(db.sql, 'query');
    const sizes: number[] = [];
    const ids: string[] = [];
    for await (const batch of listRowBatches(testContext(db), {})) {
      sizes.push(batch.length);
      ids.push(...batch.map((r) => r.id));
    }
    expect(sizes).toEqual([500, 500, 500, 500, 500, 100]);
    expect(EXPORT_BATCH_SIZE).toBe(500);
    // A last short batch ends it: no statement beyond the sixth.
    expect(exportCalls(statements)).toBe(6);
    expect(ids).toEqual(order);
  });

  it('a count that is a multiple of the batch size ends with one empty statement', async () => {
    const statements = vi.spyOn(db.sql, 'query');
    const sizes: number[] = [];
    for await (const batch of listRowBatches(testContext(db), {}, { batchSize: 650 })) sizes.push(batch.length);
    expect(sizes).toEqual([650, 650, 650, 650]);
    expect(exportCalls(statements)).toBe(5);
  });

  it('keyset pages with a filter follow the filtered order', async () => {
    const ids: string[] = [];
    for await (const batch of listRowBatches(testContext(db), { name: 'bulk 1' }, { batchSize: 97 })) ids.push(...batch.map((r) => r.id));
    const expected = (await db.sql.query<{ id: string }>(`SELECT id FROM "Trace" WHERE name = 'bulk 1' ORDER BY "startedAt" DESC, id DESC`)).map((r) => r.id);
    expect(ids).toEqual(expected);
    expect(ids.length).toBe(867);
  });

  it('q: the rare-term plan (ids from the indexes) and the common-term plan (tested as walked) give the same batches', async () => {
    const collect = async (probeCap?: number) => {
      const ids: string[] = [];
      for await (const batch of listRowBatches(testContext(db), { q: 'WEATHER', name: 'bulk 2' }, { batchSize: 100, probeCap })) ids.push(...batch.map((r) => r.id));
      return ids;
    };
    const expected = (await db.sql.query<{ id: string }>(`SELECT id FROM "Trace" WHERE name = 'bulk 2' ORDER BY "startedAt" DESC, id DESC`)).map((r) => r.id);
    expect(await collect()).toEqual(expected);
    expect(await collect(1)).toEqual(expected);
    const none: unknown[] = [];
    for await (const batch of listRowBatches(testContext(db), { q: 'no trace says this' })) none.push(...batch);
    expect(none).toEqual([]);
  });

  it('the response body arrives in many chunks of whole lines, one per batch', async () => {
    const res = await exportOf('format=ndjson');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(decoder.decode(value));
    }
    expect(chunks.length).toBe(6);
    for (const chunk of chunks) expect(chunk.endsWith('\n')).toBe(true);
    const ids = chunks.join('').trimEnd().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids).toEqual(order);
  });

  it('backpressure: the next statement runs only when the reader asks for more', async () => {
    const statements = vi.spyOn(db.sql, 'query');
    const res = await exportOf('format=csv');
    // The first batch is read before answering (so its failure is still a proper status).
    expect(exportCalls(statements)).toBe(1);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value); // the header and the first batch
    await tick();
    // The stream keeps at most one piece ready beyond what was read.
    expect(exportCalls(statements)).toBeLessThanOrEqual(2);
    text += decoder.decode((await reader.read()).value);
    await tick();
    expect(exportCalls(statements)).toBeLessThanOrEqual(3);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(exportCalls(statements)).toBe(6);
    expect(text.split('\r\n')).toHaveLength(1 + TRACES + 1);
  });

  it('a client that disconnects (request.signal) stops the queries', async () => {
    const statements = vi.spyOn(db.sql, 'query');
    const abort = new AbortController();
    const res = await exportOf('', abort.signal);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    abort.abort();
    const before = exportCalls(statements);
    // What was already queued may still come; then the stream ends without another statement.
    for (let i = 0; i < 3; i++) if ((await reader.read()).done) break;
    expect((await reader.read()).done).toBe(true);
    await tick(100);
    expect(exportCalls(statements)).toBeLessThanOrEqual(before);
    expect(before).toBeLessThanOrEqual(2);
  });

  it('cancelling the body stops the queries too', async () => {
    const statements = vi.spyOn(db.sql, 'query');
    const res = await exportOf('');
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    const after = exportCalls(statements);
    await tick(100);
    expect(exportCalls(statements)).toBe(after);
    expect(after).toBeLessThanOrEqual(2);
  });

  it('a failure after the first byte aborts the body (a truncated download), and is logged', async () => {
    const real = db.sql.query.bind(db.sql);
    let calls = 0;
    vi.spyOn(db.sql, 'query').mockImplementation(((...args: Parameters<typeof real>) => {
      // Only the export's own statements count.
      if (!isBatch(args[0])) return real(...args);
      calls += 1;
      if (calls === 3) return Promise.reject(new Error('connection lost'));
      return real(...args);
    }) as typeof real);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await exportOf('');
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read();
    await expect(reader.read()).rejects.toThrow('connection lost');
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/^\[download\] crossroads-traces-.*\.ndjson aborted after the response had started:$/), expect.any(Error));
  });

  it('a failure before the first byte is an ordinary error answer', async () => {
    const real = db.sql.query.bind(db.sql);
    vi.spyOn(db.sql, 'query').mockImplementation(((...args: Parameters<typeof real>) =>
      isBatch(args[0]) ? Promise.reject(new Error('database down')) : real(...args)) as typeof real);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await exportOf('format=csv');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'Internal server error' });
  });

  it('include=children loads children per run of traces, never per trace', async () => {
    const statements = vi.spyOn(db.sql, 'query');
    const res = await exportOf('include=children');
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(order);
    // Each trace has 4 children: a batch of 500 is 2,000, one statement per batch.
    expect(4 * EXPORT_BATCH_SIZE).toBeLessThanOrEqual(CHILDREN_PER_STATEMENT);
    // (The search indexer and the upkeep, which requests may start after answering, use the same handle, as do the list's batches.)
    const calls = statements.mock.calls
      .map(statementOf)
      .filter(({ text }) => !text.includes('crossroads_search_index') && !isUpkeep(text) && !isBatch(text));
    // Each batch's scores come in one statement of their own, also per run.
    const scores = calls.filter(({ text }) => text.includes('FROM "Score"'));
    const children = calls.filter(({ text }) => !text.includes('FROM "Score"'));
    expect(children).toHaveLength(6);
    expect(scores).toHaveLength(6);
    for (const { values } of children) expect((values[0] as string[]).length).toBeLessThanOrEqual(EXPORT_BATCH_SIZE);
  });

  it('include=children: a trace with more children than a statement takes is read alone, as the detail reads it', async () => {
    const spans = Array.from({ length: CHILDREN_PER_STATEMENT + 100 }, (_, i) => ({
      id: `s${i}`,
      name: `step ${i}`,
      type: 'CHAIN',
      status: 'COMPLETED',
      startedAt: new Date(BASE + 10_000 + i).toISOString(),
      input: { i, text: 'x'.repeat(50) },
    }));
    const big = makeTrace({ id: 'big-one', name: 'big one', startedAt: new Date(BASE + 10_000).toISOString(), spans, decisionPoints: [] });
    const small = makeTrace({ id: 'small-one', name: 'big one', startedAt: new Date(BASE + 5_000).toISOString() });
    await ingestTraces(testContext(db), parseIngestBody(JSON.stringify({ traces: [big, small] }), LIMITS));
    try {
      const lines = (await (await exportOf('name=big%20one&include=children')).text()).trimEnd().split('\n');
      const parsed = lines.map((l) => JSON.parse(l) as { id: string; spans: unknown[] });
      expect(parsed.map((t) => [t.id, t.spans.length])).toEqual([
        ['big-one', CHILDREN_PER_STATEMENT + 100],
        ['small-one', 2],
      ]);
    } finally {
      await db.sql.query(`DELETE FROM "Trace" WHERE id IN ('big-one', 'small-one')`);
    }
  });
});
