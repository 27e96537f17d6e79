// The words a JSON batch writes for its traces (./trace-words.ts, migration
// search_words_at_ingest) against what the indexer reads back from the stored rows
// (crossroads_trace_words), on every test database: jsonb's key order, spacing, escapes
// and numbers; the batches whose words cannot be known exactly are queued instead.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { testContext } from '@/test/support/context';
import { expectSearchWordsExact } from '@/test/support/derived';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { indexSearchBacklog, searchBacklog } from './search-index';
import { parseIngestBody } from '@/lib/features/ingest/validate';

const LIMITS = { maxBatchTraces: 100, maxChildrenPerTrace: 1000 };
const at = '2026-03-01T10:00:00.000Z';

// Written by hand, as a client's serialiser might: spacing and line breaks between tokens,
// keys in any order and repeated, escapes JSON.stringify would not write, every kind of value.
const TRICKY = `{"traces": [
  {"id": "t1", "name": "Ärger\\nΣΊΣΥΦΟΣ  ΟΔΟΣ İstanbul ǅemal a\\tb", "startedAt": "${at}", "status": "COMPLETED", "tags": [],
   "metadata": {"zz": 1, "a": "first", "a": "last wins", "bb": [], "é": "accent key", "e": {}, "👍": "astral key", "\\uFB01": "ligature key",
                "key with space": "x  y ", "": "empty key", "nested": {"deep": [[1, [2, {"k": null}]], true, false, -3, 0.5, 0, 1.25]}},
   "decisionPoints": [{"id": "d1", "type": "ROUTING", "timestamp": "${at}", "reasoning": "Zahlung  prüfen\\r\\nnow",
                       "chosen": {"tool": "billing", "score": 0.75}, "alternatives": [{"b": 1, "a": "x y"}, "plain", 7, null],
                       "contextSnapshot": {"not": "searched words here"}, "costUsd": 1e-7}],
   "spans": [
     {"id": "s1", "name": "llm  call", "type": "LLM_CALL", "status": "COMPLETED", "startedAt": "${at}", "costUsd": 1.50, "durationMs": 2.0,
      "input": {"messages": [{"role": "user", "content": " Refund\\u0020the order\\/now \\u00e9t\\u00E9 \\"quoted\\" back\\\\slash ctl\\u001f del\\u007f sep\\u2028 "}], "model": "gpt-4o"},
      "output": "just a string", "metadata": {"tokens": 12, "ok": true}, "statusMessage": "tab\\there\\r\\nline"},
     {"id": "s2", "name": "tool", "type": "TOOL_CALL", "status": "ERROR", "startedAt": "${at}", "input": 42, "output": true, "metadata": null},
     {"id": "s3", "name": "empty", "type": "TOOL_CALL", "status": "COMPLETED", "startedAt": "${at}", "input": "", "output": [], "metadata": {}}
   ],
   "events": [{"id": "e1", "type": "CUSTOM", "name": "done 👍", "timestamp": "${at}", "metadata": {"why": "ok ok  ok", "n": [1, 2, 3]}}]},
  {"id": "t2", "name": "ab", "startedAt": "${at}", "status": "RUNNING", "tags": [], "decisionPoints": [], "spans": [], "events": []}
]}`;

describe.each(testDatabases())('search words written at ingest on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => truncateAll(db));

  const ingestText = (text: string) => ingestTraces(testContext(db), parseIngestBody(text, LIMITS));
  const doc = async (id: string) => (await db.sql.query<{ words: string }>('SELECT "words" FROM "SearchDoc" WHERE "traceId" = $1', [id]))[0]?.words ?? null;
  const indexerWords = async (id: string) =>
    (await db.sql.query<{ words: string | null }>('SELECT "crossroads_trace_words"($1) AS words', [id]))[0].words;

  it('are those the indexer reads back from the rows, and leave nothing queued', async () => {
    await ingestText(TRICKY);
    expect(await searchBacklog(db.sql)).toEqual({ traces: 0, oldestMs: 0 });
    const words = await doc('t1');
    expect(words).not.toBeNull();
    expect(words).toBe(await indexerWords('t1'));
    // A few of jsonb's printing rules, visible in the words: keys by length then bytes,
    // the last of a repeated key, escapes decoded and printed as jsonb prints them.
    expect(words!.split(' ')).toEqual(expect.arrayContaining(['{"":', '"a":', '"last', 'refund', 'the', '\\"quoted\\"', 'back\\\\slash', 'ctl\\u001f', 'order/now', 'été']));
    expect(words!.split(' ')).not.toContain('"first",');
    // "ab" is under three characters: no words, so no doc, and not queued either.
    expect(await doc('t2')).toBeNull();
    expect(await indexerWords('t2')).toBeNull();
    await expectSearchWordsExact(db, { drained: true });
  });

  it('queue the batch instead when a payload number is not written as JavaScript prints it', async () => {
    for (const [k, n] of ['1.50', '1e2', '-0', '12345678901234567890', '2.5E-3'].entries()) {
      const text = TRICKY.replaceAll('"t1"', `"n${k}"`).replaceAll('"t2"', `"m${k}"`).replace('"tokens": 12', `"tokens": ${n}`);
      await ingestText(text);
      expect(await doc(`n${k}`), n).toBeNull();
      expect((await searchBacklog(db.sql)).traces, n).toBe(2);
      expect(await indexSearchBacklog(db.sql)).toEqual({ traces: 2, drained: true });
      expect(await doc(`n${k}`), n).toBe(await indexerWords(`n${k}`));
    }
    await expectSearchWordsExact(db, { drained: true });
  });

  it('are left to the indexer with SEARCH_WORDS_AT_INGEST=false', async () => {
    process.env.SEARCH_WORDS_AT_INGEST = 'false';
    try {
      await ingestText(TRICKY);
    } finally {
      delete process.env.SEARCH_WORDS_AT_INGEST;
    }
    expect(await doc('t1')).toBeNull();
    expect(await searchBacklog(db.sql)).toMatchObject({ traces: 2 });
    await indexSearchBacklog(db.sql);
    expect(await doc('t1')).toBe(await indexerWords('t1'));
    await expectSearchWordsExact(db, { drained: true });
  });

  it('still queue what a later statement of the same transaction writes', async () => {
    await db.sql.transaction(async (tx) => {
      await ingestTraces(testContext({ ...db, sql: tx }), parseIngestBody(TRICKY, LIMITS));
      await tx.query(`INSERT INTO "Span" ("traceId", "id", "name", "type", "status", "startedAt", "output")
                      VALUES ('t1', 's9', 'later', 'TOOL_CALL', 'COMPLETED', now(), '"added afterwards"')`);
    });
    // t1 is queued for the span added afterwards. t2 may be queued too: the batch's own rows
    // skip the queue only when the clock moved during its statement (indexed twice, never missed).
    const queued = await db.sql.query<{ traceId: string }>('SELECT DISTINCT "traceId" FROM "SearchQueue"');
    expect(queued.map((r) => r.traceId)).toContain('t1');
    expect((await searchBacklog(db.sql)).traces).toBeLessThanOrEqual(2);
    await expectSearchWordsExact(db);
    await indexSearchBacklog(db.sql);
    expect((await doc('t1'))!.split(' ')).toContain('afterwards"');
    await expectSearchWordsExact(db, { drained: true });
  });
});
