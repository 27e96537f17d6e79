// The detail JSON of a large trace is read in pages of spans in one snapshot and sent as
// it is read: joined, it must be the same JSON as the one-statement build, in the API's
// order, whatever ties, payloads, scores or concurrent changes the pages meet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';
import { saveScores, validateScoresBody } from '@/lib/features/scores';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { asKey } from '@/test/support/scores';
import { jsonChunks } from '@/lib/transports/http/respond';
import { getTraceJsonOrThrow, streamTraceJsonOrThrow, type StoredPagesOutcome, type TraceJsonOptions } from './detail';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { interceptStatements } from '@/test/support/executor';

const limits = { maxBatchTraces: 10, maxChildrenPerTrace: 10_000 };
// Every trace in pages of 7 spans, against every trace in one statement.
const PAGED: TraceJsonOptions = { spansInOneStatement: 0, pageSpans: 7 };
const WHOLE: TraceJsonOptions = { spansInOneStatement: 1_000_000 };

// JSON values of every kind, text that needs escaping, numbers at the edges.
const payloads: unknown[] = [
  null,
  'plain',
  'quotes " and \\ backslash, tab\t, newline\n, é, 日本, emoji 🙂, \u2028',
  0,
  -1.5e-7,
  123456789012,
  true,
  [],
  {},
  [1, 'two', { three: [null, false] }],
  { nested: { deep: { list: [1, 2, 3], text: 'x'.repeat(3_000) } }, 'key with space': 1 },
];

describe.each(testDatabases())('trace detail on $name', (target) => {
  let database: Database;
  const id = uid('large');
  const varied = uid('varied');
  const SPANS = 2_501;

  beforeAll(async () => {
    database = await target.open();
    // Ten distinct start times, so most neighbours in the order tie on startedAt and are
    // ordered by id; ids zero-padded so every collation sorts them alike; sent shuffled.
    const spans = Array.from({ length: SPANS }, (_, k) => ({
      id: `s${String((k * 7919) % SPANS).padStart(5, '0')}`,
      name: 'step',
      type: 'CUSTOM',
      status: 'COMPLETED',
      startedAt: `2026-01-02T03:04:0${k % 10}.000Z`,
      input: { k, text: 'x'.repeat(k % 50) },
    }));
    // Every optional field present or absent, payloads of every kind, ties on startedAt.
    const variedSpans = Array.from({ length: 40 }, (_, k) => ({
      id: `v${String(k).padStart(2, '0')}`,
      ...(k > 0 ? { parentSpanId: `v${String(Math.floor(k / 3)).padStart(2, '0')}` } : {}),
      name: `span ${k} "quoted"`,
      type: ['LLM_CALL', 'TOOL_CALL', 'MEMORY_OP', 'CHAIN', 'AGENT', 'CUSTOM'][k % 6],
      status: ['COMPLETED', 'ERROR', 'RUNNING'][k % 3],
      startedAt: `2026-01-02T03:04:${String(10 + (k % 13)).padStart(2, '0')}.${String(k % 4).padStart(3, '0')}Z`,
      ...(k % 2 ? { endedAt: '2026-01-02T03:05:00.000Z', durationMs: k * 11 } : {}),
      ...(k % 5 !== 1 ? { input: payloads[k % payloads.length], output: payloads[(k + 3) % payloads.length] } : {}),
      ...(k % 3 === 0 ? { tokenCount: k * 100, costUsd: k / 1000, statusMessage: `m ${k}`, metadata: { k, tags: ['a', 'b'] } } : {}),
    }));
    await ingestTraces(
      testContext(database),
      validateIngestBody(
        {
          traces: [
            makeTrace({ id, spans }),
            makeTrace({
              id: varied,
              metadata: payloads[10],
              spans: variedSpans,
              decisionPoints: [
                { id: 'd2', type: 'ROUTING', chosen: 'b', alternatives: ['a', 'b'], timestamp: '2026-01-02T03:04:06.000Z', parentSpanId: 'v03' },
                { id: 'd1', type: 'RETRY', chosen: null, alternatives: [], timestamp: '2026-01-02T03:04:05.000Z', reasoning: 'é "x"' },
              ],
              events: [
                { id: 'e2', type: 'ERROR', name: 'boom', timestamp: '2026-01-02T03:04:09.000Z', spanId: 'v07', metadata: { code: 7 } },
                { id: 'e1', type: 'CUSTOM', name: 'start', timestamp: '2026-01-02T03:04:05.500Z' },
              ],
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

  const read = (traceId: string, options: TraceJsonOptions, db: Database = database) => getTraceJsonOrThrow(testContext(db), traceId, options);

  it('reads a large trace in pages as the same JSON as in one statement, in startedAt then id order', async () => {
    const whole = await read(id, WHOLE);
    const paged = await read(id, {});
    expect(JSON.parse(paged)).toEqual(JSON.parse(whole));
    const spans = (JSON.parse(paged) as { spans: Array<{ id: string; startedAt: string }> }).spans;
    expect(spans).toHaveLength(SPANS);
    const keys = spans.map((s) => `${s.startedAt} ${s.id}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('streams a varied trace in pieces that join to the one-statement JSON, with and without scores', async () => {
    const chunks: string[] = [];
    for await (const chunk of await streamTraceJsonOrThrow(testContext(database), varied, PAGED)) {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    }
    // 40 spans in pages of 7: the head, 6 pages with a comma between each, the tail.
    expect(chunks).toHaveLength(13);
    const whole = JSON.parse(await read(varied, WHOLE)) as { spans: unknown[]; decisionPoints: Array<{ id: string }> };
    expect(JSON.parse(chunks.join(''))).toEqual(whole);
    expect(whole.spans).toHaveLength(40);
    expect(whole.decisionPoints.map((d) => d.id)).toEqual(['d1', 'd2']);

    const ctx = asKey(database, ['ingest', 'read'], 'k', null);
    await saveScores(
      ctx,
      validateScoresBody({
        scores: [
          { id: uid('st'), traceId: varied, name: 'quality', value: 0.5, comment: 'é "q"' },
          { id: uid('ss'), traceId: varied, spanId: 'v07', name: 'ok', value: true },
          { id: uid('ss'), traceId: varied, spanId: 'v07', name: 'label', value: 'good', metadata: { by: 'x' } },
          { id: uid('ss'), traceId: varied, spanId: 'v39', name: 'ok', value: false },
          { id: uid('sd'), traceId: varied, decisionPointId: 'd2', name: 'right', value: true },
        ],
      }),
    );
    const scored = JSON.parse(await read(varied, WHOLE)) as { scores: unknown[]; spans: Array<{ id: string; scores?: unknown[] }> };
    expect(scored.scores).toHaveLength(1);
    expect(scored.spans.find((s) => s.id === 'v07')?.scores).toHaveLength(2);
    expect(JSON.parse(await read(varied, PAGED))).toEqual(scored);
    expect(Object.keys(JSON.parse(await read(varied, PAGED)) as object)).toEqual(Object.keys(scored));
  });

  it('serves many concurrent reads of a large trace (two at a time, the rest wait)', async () => {
    const whole = JSON.parse(await read(id, WHOLE));
    const results = await Promise.all(Array.from({ length: 6 }, () => read(id, {})));
    for (const text of results) expect(JSON.parse(text)).toEqual(whole);
  });

  it('reads every page in the first statement\'s snapshot when the trace changes between them', async () => {
    const doomed = uid('doomed');
    const spans = Array.from({ length: 60 }, (_, k) => ({
      id: `s${k}`,
      name: 'step',
      type: 'CUSTOM',
      status: 'COMPLETED',
      startedAt: '2026-01-02T03:04:05.000Z',
    }));
    await ingestTraces(testContext(database), validateIngestBody({ traces: [makeTrace({ id: doomed, spans })] }, limits));
    const before = JSON.parse(await read(doomed, WHOLE)) as { spans: unknown[] };
    // The trace is deleted, from another connection, just before the third page is read.
    let pagesRead = 0;
    const beforePage = async (text: string) => {
      if (text.includes('string_agg') && text.includes('$5') && ++pagesRead === 3) await deleteOutside(doomed);
    };
    const spy = (sql: SqlExecutor): SqlExecutor => interceptStatements(sql, beforePage);
    // PGlite runs one transaction at a time, so there the delete waits for the read to end.
    const deleteOutside = async (traceId: string) => {
      const done = database.sql.exec(`DELETE FROM "Trace" WHERE id = '${traceId}'`);
      if (target.name === 'postgres') await done;
      else deleted = done;
    };
    let deleted: Promise<void> | undefined;
    const got = JSON.parse(await read(doomed, { spansInOneStatement: 0, pageSpans: 10 }, { ...database, sql: spy(database.sql) }));
    await deleted;
    expect(pagesRead).toBe(6);
    expect(got).toEqual(before);
    await expect(read(doomed, WHOLE)).rejects.toThrow('Trace not found');
  });

  it('sends a large trace\'s body byte for byte as the driver\'s strings would, built or stored', async () => {
    const settled = uid('bytes');
    const spans = Array.from({ length: 30 }, (_, k) => ({
      id: `b${String(k).padStart(2, '0')}`,
      name: `span ${k} é 🙂`,
      type: 'CUSTOM',
      status: 'COMPLETED',
      startedAt: `2026-01-02T03:04:${String(10 + (k % 13)).padStart(2, '0')}.000Z`,
      input: payloads[k % payloads.length],
      output: payloads[(k + 2) % payloads.length],
    }));
    await ingestTraces(testContext(database), validateIngestBody({ traces: [makeTrace({ id: settled, status: 'COMPLETED', spans })] }, limits));
    // Every value as the string the driver decodes, encoded again: how pages were read before bytes.
    const viaStrings = (sql: SqlExecutor): SqlExecutor => ({
      ...sql,
      queryBytes: async (text, params) => (await sql.query(text, params)).map((row) => Object.values(row).map((v) => (v === null ? null : Buffer.from(String(v))))),
      transaction: (fn) => sql.transaction((tx) => fn(viaStrings(tx))),
    });
    const body = async (sql: SqlExecutor) => {
      let settle!: (outcome: StoredPagesOutcome) => void;
      const outcome = new Promise<StoredPagesOutcome>((resolve) => (settle = resolve));
      const chunks = await streamTraceJsonOrThrow(testContext({ ...database, sql }), settled, { ...PAGED, onSettled: settle });
      const bytes = Buffer.from(await jsonChunks(chunks).arrayBuffer());
      return { bytes, outcome: await outcome };
    };
    const built = await body(database.sql);
    expect(built.outcome).toBe('stored');
    expect(JSON.parse(built.bytes.toString('utf8'))).toEqual(JSON.parse(await read(settled, WHOLE)));
    const reads = [await body(database.sql), await body(viaStrings(database.sql))];
    await database.sql.query(sql`DELETE FROM "StoredSpanPages" WHERE "traceId" = ${settled}`);
    reads.push(await body(viaStrings(database.sql)), await body(database.sql));
    expect(reads.map((r) => r.outcome)).toEqual(['sent stored', 'sent stored', 'stored', 'sent stored']);
    for (const r of reads) expect(r.bytes.equals(built.bytes)).toBe(true);
  });

  it('answers 404 and 400 before the first piece', async () => {
    await expect(streamTraceJsonOrThrow(testContext(database), uid('missing'), PAGED)).rejects.toThrow('Trace not found');
    await expect(streamTraceJsonOrThrow(testContext(database), '', PAGED)).rejects.toThrow('Invalid trace ID');
  });
});
