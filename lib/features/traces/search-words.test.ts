// A trace's search words (crossroads_trace_words, migrations search_words_in_one_sort and
// search_words_lowered_once) against the row-per-word rule they replaced, on every test
// database: the same text byte for byte, whichever of its two ways the function takes
// (sorts in C for texts under 1 MB with lexemes tsvector can hold; the row-per-word way
// otherwise).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { testContext } from '@/test/support/context';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';

const LIMITS = { maxBatchTraces: 100, maxChildrenPerTrace: 1000 };
const at = '2026-03-01T10:00:00.000Z';

// The rule as the first indexer wrote it: one row per word of each row's text.
const REFERENCE_SQL = `
  SELECT string_agg(w, ' ' ORDER BY w COLLATE "C") AS words FROM (
    SELECT DISTINCT w
      FROM (
        SELECT "crossroads_trace_search_text"(x."name", x."metadata") AS s FROM "Trace" x WHERE x."id" = $1
        UNION ALL
        SELECT "crossroads_span_search_text"(x."name", x."input", x."output", x."statusMessage", x."metadata") FROM "Span" x WHERE x."traceId" = $1
        UNION ALL
        SELECT "crossroads_decision_search_text"(x."reasoning", x."chosen", x."alternatives") FROM "DecisionPoint" x WHERE x."traceId" = $1
        UNION ALL
        SELECT "crossroads_event_search_text"(x."name", x."metadata") FROM "Event" x WHERE x."traceId" = $1
      ) texts
      CROSS JOIN LATERAL string_to_table(replace(texts.s, E'\\n', ' '), ' ') AS w
     WHERE length(w) >= 3
  ) words`;

const span = (id: string, input: unknown, output: unknown = null, extra: Record<string, unknown> = {}) => ({
  id,
  name: 'llm',
  type: 'LLM_CALL',
  status: 'COMPLETED',
  input,
  output,
  startedAt: at,
  ...extra,
});

describe.each(testDatabases())('search words on $name', ({ name, open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => truncateAll(db));

  const ingest = (traces: Record<string, unknown>[]) => ingestTraces(testContext(db), validateIngestBody({ traces }, LIMITS));
  const both = async (id: string) => {
    const [fast] = await db.sql.query<{ words: string | null }>('SELECT "crossroads_trace_words"($1) AS words', [id]);
    const [slow] = await db.sql.query<{ words: string | null }>(REFERENCE_SQL, [id]);
    return { fast: fast.words, slow: slow.words };
  };

  it('equal the row-per-word rule on mixed scripts, JSON punctuation, escapes and short words', async () => {
    await ingest([
      makeTrace({
        id: 'mixed',
        name: 'Ärger ΣΊΣΥΦΟΣ ΟΔΟΣ\nΣΟΦΟΣ İstanbul ǅemal 日本語 ab a\tb "quoted" back\\slash Refund refund REFUND',
        metadata: { z: 'Zed zed ZED', a: [1.5, 'x  y', null, true], 'key with space': 'É é e\u0301' },
        startedAt: at,
        spans: [
          span('s1', 'Refund the order   twice', { text: 'the order\nis ok', n: 12345678901234567890 }),
          span('s2', { messages: [{ role: 'user', content: 'über Über UBER 👍👍👍 zz zzz zzzz' }] }, 'control \u0001 char', { statusMessage: 'tab\there\r\nline' }),
          span('s3', null, null, { name: 'äöü' }),
        ],
        decisionPoints: [{ id: 'd1', type: 'ROUTING', reasoning: 'Zahlung prüfen', chosen: { tool: 'billing' }, alternatives: ['a', 'bb', 'ccc'], timestamp: at }],
        events: [{ id: 'e1', type: 'CUSTOM', name: 'done 👍', metadata: { why: 'ok ok ok' }, timestamp: at }],
      }),
    ]);
    const { fast, slow } = await both('mixed');
    expect(slow).not.toBeNull();
    expect(fast).toBe(slow);
  });

  it('is null for a trace with no word of 3 characters, as before', async () => {
    await ingest([makeTrace({ id: 'tiny', name: 'ab', metadata: null, startedAt: at, spans: [span('s1', 1, 2, { name: 'x' })], decisionPoints: [], events: [] })]);
    expect(await both('tiny')).toEqual({ fast: null, slow: null });
  });

  it('equal the rule for words too long for a tsvector lexeme (2,048 bytes and over)', async () => {
    await ingest([
      makeTrace({
        id: 'long',
        name: 'long words',
        startedAt: at,
        spans: [
          span('s1', 'a'.repeat(2045), 'b'.repeat(2046)),
          span('s2', 'c'.repeat(2048), `short ${'é'.repeat(1500)} words`),
          span('s3', 'd'.repeat(5000), 'd'.repeat(5000)),
        ],
      }),
    ]);
    const { fast, slow } = await both('long');
    expect(slow?.split(' ').filter((w) => Buffer.byteLength(w) >= 2048)).toHaveLength(4);
    expect(fast).toBe(slow);
  });

  it('equal the rule for a trace of more than 1 MB of text', async () => {
    const text = (k: number) => Array.from({ length: 2_000 }, (_, i) => `w${k}x${i}`).join(' ');
    await ingest([
      makeTrace({
        id: 'big',
        name: 'big',
        startedAt: at,
        spans: Array.from({ length: 60 }, (_, k) => span(`s${k}`, text(k), text(k + 1))),
      }),
    ]);
    const { fast, slow } = await both('big');
    expect(slow?.split(' ').length).toBeGreaterThan(100_000);
    expect(fast).toBe(slow);
  });

  it.runIf(name === 'postgres')('can be called in a query run by parallel workers (the recount in test/support/derived.ts)', async () => {
    await ingest([makeTrace({ id: 'p1', startedAt: at }), makeTrace({ id: 'p2', startedAt: at })]);
    const rows = await db.sql.transaction(async (tx) => {
      await tx.exec('SET LOCAL force_parallel_mode = on');
      await tx.exec('SET LOCAL parallel_setup_cost = 0');
      await tx.exec('SET LOCAL parallel_tuple_cost = 0');
      return tx.query<{ n: number }>('SELECT count("crossroads_trace_words"(t."id"))::int AS n FROM "Trace" t');
    });
    expect(rows[0].n).toBe(2);
  });
});
