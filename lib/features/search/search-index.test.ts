// The search indexer and the words it keeps (migration search_deferred_index,
// lib/features/search/search-index.ts), on every test database: which words a trace gets, that
// writes queue their traces and updates make stale words harmless, that searches find
// queued traces before the indexer reaches them, and that indexing racing with ingest
// leaves every trace's words equal to a recount.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { expectSearchWordsExact, requeueForSearch } from '@/test/support/derived';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { listTraces } from '@/lib/features/traces/list';
import { parseListParams } from '@/lib/features/query/list-params';
import { needlePieces, wordsDecide } from '@/lib/features/query/search-sql';
import { raw, sql } from '@/lib/db/sql';
import { SEARCH_INDEX_SLOTS, indexSearchBacklog, searchBacklog, searchLagMs } from './search-index';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';

const LIMITS = { maxBatchTraces: 100, maxChildrenPerTrace: 1000 };
const at = '2026-03-01T10:00:00.000Z';

describe('the pieces of a term the words must hold', () => {
  it('are its runs of 3+ letters or digits, in any script', () => {
    expect(needlePieces('ORD-77123')).toEqual(['ORD', '77123']);
    expect(needlePieces('"stars": 5')).toEqual(['stars']);
    expect(needlePieces('Müller GmbH')).toEqual(['Müller', 'GmbH']);
    expect(needlePieces('注文番号を')).toEqual(['注文番号を']);
    expect(needlePieces('🚀 go')).toEqual([]);
    expect(needlePieces('a_b%c')).toEqual([]);
  });

  it('decide a match alone only for a single run of letters and digits', () => {
    expect(wordsDecide('refund')).toBe(true);
    expect(wordsDecide('注文番号')).toBe(true);
    expect(wordsDecide('ORD-77123')).toBe(false);
    expect(wordsDecide('two words')).toBe(false);
    expect(wordsDecide('ab')).toBe(false);
  });
});

describe.each(testDatabases())('search indexing on $name', ({ name, open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => truncateAll(db));

  const ingest = (traces: Record<string, unknown>[]) => ingestTraces(testContext(db), validateIngestBody({ traces }, LIMITS));
  const words = async (id: string) =>
    (await db.sql.query<{ words: string }>(sql`SELECT "words" FROM "SearchDoc" WHERE "traceId" = ${id}`))[0]?.words.split(' ') ?? null;
  const found = async (q: string) =>
    (await listTraces(testContext(db), parseListParams(new URLSearchParams({ q, limit: '100' })))).traces.map((t) => t.id).sort();

  it("keeps each trace's distinct words of 3+ characters, from every field, once", async () => {
    await ingest([
      makeTrace({
        id: 'w1',
        name: 'Refund Agent',
        metadata: null,
        startedAt: at,
        spans: [
          { id: 's1', name: 'llm', type: 'LLM_CALL', status: 'COMPLETED', input: 'Refund the order', output: { text: 'the order\nis ok' }, startedAt: at },
          { id: 's2', name: 'llm', type: 'LLM_CALL', status: 'COMPLETED', input: 'Refund the order', output: null, startedAt: at },
        ],
        decisionPoints: [{ id: 'd1', type: 'ROUTING', reasoning: 'Zahlung prüfen', chosen: 'billing', alternatives: [], timestamp: at }],
        events: [{ id: 'e1', type: 'CUSTOM', name: 'done 👍', metadata: null, timestamp: at }],
      }),
    ]);
    // Lower-cased, split at spaces and line breaks only (JSON punctuation stays on its
    // word; a line break inside a JSON string is printed as \n), each once; "[]" (the
    // alternatives) and the emoji are under 3 characters.
    const expected = ['refund', 'agent', 'llm', '"refund', 'the', 'order"', '{"text":', '"the', 'order\\nis', 'ok"}', 'zahlung', 'prüfen', '"billing"', 'done'];
    expected.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    // The JSON batch wrote them itself; the indexer, given the trace, writes the same.
    expect(await searchBacklog(db.sql)).toEqual({ traces: 0, oldestMs: 0 });
    expect(await words('w1')).toEqual(expected);
    await requeueForSearch(db);
    expect(await searchBacklog(db.sql)).toMatchObject({ traces: 1 });
    expect(await words('w1')).toBeNull();
    expect(await indexSearchBacklog(db.sql)).toEqual({ traces: 1, drained: true });
    expect(await searchBacklog(db.sql)).toEqual({ traces: 0, oldestMs: 0 });
    expect(await words('w1')).toEqual(expected);
    await expectSearchWordsExact(db, { drained: true });
  });

  it('finds a trace while it is queued, through its words once indexed, and never through stale words', async () => {
    await ingest([
      makeTrace({ id: 'u1', startedAt: at, spans: [{ id: 'su', name: 'tool', type: 'TOOL_CALL', status: 'COMPLETED', output: 'parcel PX-4411 shipped', startedAt: at }] }),
      makeTrace({ id: 'u2', startedAt: at, spans: [{ id: 'sv', name: 'tool', type: 'TOOL_CALL', status: 'COMPLETED', output: 'nothing here', startedAt: at }] }),
    ]);
    expect(await found('px-4411')).toEqual(['u1']);
    expect(await found('shipped')).toEqual(['u1']);
    await indexSearchBacklog(db.sql);
    expect(await found('px-4411')).toEqual(['u1']);
    expect(await found('shipped')).toEqual(['u1']);

    // Any writer changing searchable text queues the trace again (here: plain SQL, as an
    // OTLP upsert of a changed span would); until it is indexed, its rows decide.
    await db.sql.exec(`UPDATE "Span" SET "output" = '"parcel returned"' WHERE "id" = 'su'`);
    expect(await searchBacklog(db.sql)).toMatchObject({ traces: 1 });
    expect(await words('u1')).toContain('shipped"');
    expect(await found('shipped')).toEqual([]);
    expect(await found('returned')).toEqual(['u1']);
    await indexSearchBacklog(db.sql);
    expect(await words('u1')).not.toContain('shipped"');
    expect(await found('shipped')).toEqual([]);
    expect(await found('returned')).toEqual(['u1']);

    // An update that leaves the searchable text as it was queues nothing.
    await db.sql.exec(`UPDATE "Span" SET "durationMs" = 5 WHERE "id" = 'su'`);
    await db.sql.exec(`UPDATE "Trace" SET "status" = 'ERROR' WHERE "id" = 'u2'`);
    expect(await searchBacklog(db.sql)).toMatchObject({ traces: 0 });
    await expectSearchWordsExact(db, { drained: true });
  });

  it('stops once its budget, asked again after each batch, has run out', async () => {
    await ingest([makeTrace({ id: 'b1', startedAt: at }), makeTrace({ id: 'b2', startedAt: at }), makeTrace({ id: 'b3', startedAt: at })]);
    await requeueForSearch(db);
    // The housekeeping budget shrinks when ingest starts: here the first answer lets the
    // run go on, the second ends it, so two one-trace batches run.
    const answers = [Infinity, 0];
    expect(await indexSearchBacklog(db.sql, () => answers.shift() ?? 0, 1)).toEqual({ traces: 2, drained: false });
    expect(await searchBacklog(db.sql)).toMatchObject({ traces: 1 });
    // The lag the housekeeping budget reads: the oldest entry's age.
    await db.sql.exec(`UPDATE "SearchQueue" SET "queuedAt" = clock_timestamp() - interval '90 seconds'`);
    // ("queuedAt" keeps milliseconds: the stored time may round up by half of one.)
    expect(await searchLagMs(db.sql)).toBeGreaterThanOrEqual(89_999);
    expect(await searchLagMs(db.sql)).toBeLessThan(100_000);
    expect(await indexSearchBacklog(db.sql, 0, 1)).toEqual({ traces: 1, drained: false });
    expect(await indexSearchBacklog(db.sql, 0, 1)).toEqual({ traces: 0, drained: true });
    expect(await searchLagMs(db.sql)).toBe(0);
    await expectSearchWordsExact(db, { drained: true });
  });

  it('lets several sessions index at once, each trace by one of them', async () => {
    await ingest(Array.from({ length: 40 }, (_, i) => makeTrace({ id: `p${i}`, name: `partition ${i}`, startedAt: at })));
    await requeueForSearch(db);
    const runs = await Promise.all(Array.from({ length: 4 }, () => indexSearchBacklog(db.sql, Infinity, 3)));
    // A trace's queue entries all go in one batch of the one partition it hashes to.
    expect(runs.reduce((n, r) => n + r.traces, 0)).toBe(40);
    expect(await searchBacklog(db.sql)).toEqual({ traces: 0, oldestMs: 0 });
    expect(await found('partition')).toHaveLength(40);
    await expectSearchWordsExact(db, { drained: true });
  });

  it.runIf(name === 'postgres')('never indexes a partition another session holds, and says it did not drain', async () => {
    await ingest(Array.from({ length: 12 }, (_, i) => makeTrace({ id: `h${i}`, startedAt: at })));
    await requeueForSearch(db);
    const slotOf = raw(`abs(hashtext("traceId") % ${SEARCH_INDEX_SLOTS})`);
    const inSlot0 = await db.sql.query<{ id: string }>(sql`SELECT DISTINCT "traceId" AS id FROM "SearchQueue" WHERE ${slotOf} = 0 ORDER BY 1`);
    expect(inSlot0.length).toBeGreaterThan(0);
    await db.sql.transaction(async (tx) => {
      // Another session indexing partition 0 holds this lock until it commits.
      await tx.query(sql`SELECT pg_advisory_xact_lock(hashtext('crossroads_search_index'), 0)`);
      expect(await indexSearchBacklog(db.sql)).toEqual({ traces: 12 - inSlot0.length, drained: false });
      expect(await db.sql.query(sql`SELECT DISTINCT "traceId" AS id FROM "SearchQueue" ORDER BY 1`)).toEqual(inSlot0);
    });
    expect(await indexSearchBacklog(db.sql)).toEqual({ traces: inSlot0.length, drained: true });
    await expectSearchWordsExact(db, { drained: true });
  });

  it('drops the words with their trace, and drains queue entries of deleted traces', async () => {
    await ingest([makeTrace({ id: 'd1', name: 'gone soon', startedAt: at }), makeTrace({ id: 'd2', name: 'kept', startedAt: at })]);
    await requeueForSearch(db);
    await indexSearchBacklog(db.sql);
    await ingest([makeTrace({ id: 'd3', name: 'queued then deleted', startedAt: at })]);
    await db.sql.exec(`DELETE FROM "SearchDoc" WHERE "traceId" = 'd3'`);
    await db.sql.exec(`INSERT INTO "SearchQueue" ("traceId") VALUES ('d3')`);
    await db.sql.exec(`DELETE FROM "Trace" WHERE "id" IN ('d1', 'd3')`);
    expect(await words('d1')).toBeNull();
    expect(await indexSearchBacklog(db.sql)).toEqual({ traces: 1, drained: true });
    expect(await words('d3')).toBeNull();
    expect(await found('soon')).toEqual([]);
    expect(await found('kept')).toEqual(['d2']);
  });

  it('keeps every trace findable and its words exact while indexing races with ingest', async () => {
    const token = (k: number) => `tok${k}x`;
    const batch = (k: number) =>
      Array.from({ length: 3 }, (_, i) =>
        makeTrace({
          id: `r-${k}-${i}`,
          startedAt: at,
          spans: [{ id: `rs-${k}-${i}`, name: 'step', type: 'CUSTOM', status: 'COMPLETED', output: { note: `${token(k * 10 + i)} common words` }, startedAt: at }],
        }),
      );
    const ops: Promise<unknown>[] = [];
    for (let k = 0; k < 20; k++) {
      ops.push(ingest(batch(k)));
      if (k % 3 === 0) ops.push(indexSearchBacklog(db.sql, Infinity, 2));
    }
    await Promise.all(ops);
    await expectSearchWordsExact(db);
    // Mid-way (some traces indexed, some queued), every trace is found by its own token.
    for (const k of [0, 7, 19]) for (const i of [0, 2]) expect(await found(token(k * 10 + i))).toEqual([`r-${k}-${i}`]);
    await indexSearchBacklog(db.sql);
    await expectSearchWordsExact(db, { drained: true });
    for (const k of [0, 7, 19]) for (const i of [0, 2]) expect(await found(token(k * 10 + i))).toEqual([`r-${k}-${i}`]);
    expect((await found('common')).length).toBe(60);
  });
});
