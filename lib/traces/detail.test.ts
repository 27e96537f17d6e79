// The detail JSON of a large trace is built from span ranges read concurrently: it must
// be the same text as the one-statement build, in the API's order, whatever ties or
// concurrent changes the ranges meet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/storage/open';
import type { SqlExecutor } from '@/lib/storage/sql';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { getTraceJsonOrThrow } from './detail';
import { ingestTraces } from './ingest';
import { validateIngestBody } from './validate';
import { testContext } from '@/test/support/context';

const limits = { maxBatchTraces: 10, maxChildrenPerTrace: 10_000 };

describe.each(testDatabases())('trace detail on $name', (target) => {
  let database: Database;
  const id = uid('large');
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
    await ingestTraces(testContext(database), validateIngestBody({ traces: [makeTrace({ id, spans }), makeTrace()] }, limits));
  });

  afterAll(async () => {
    await database?.close();
  });

  const inOneStatement = () => getTraceJsonOrThrow(testContext({ ...database, kind: 'pglite' }), id);
  const inRanges = () => getTraceJsonOrThrow(testContext({ ...database, kind: 'postgres' }), id);

  it('reads a large trace in ranges as the same JSON as in one statement, in startedAt then id order', async () => {
    const whole = await inOneStatement();
    const ranged = await inRanges();
    expect(JSON.parse(ranged)).toEqual(JSON.parse(whole));
    const spans = (JSON.parse(ranged) as { spans: Array<{ id: string; startedAt: string }> }).spans;
    expect(spans).toHaveLength(SPANS);
    const keys = spans.map((s) => `${s.startedAt} ${s.id}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('serves many concurrent reads of a large trace (two builds at a time, the rest wait)', async () => {
    const whole = JSON.parse(await inOneStatement());
    const results = await Promise.all(Array.from({ length: 6 }, () => inRanges()));
    for (const text of results) expect(JSON.parse(text)).toEqual(whole);
  });

  it('never returns part of the spans when the trace changes between the range statements', async () => {
    const doomed = uid('doomed');
    const spans = Array.from({ length: SPANS }, (_, k) => ({
      id: `s${k}`,
      name: 'step',
      type: 'CUSTOM',
      status: 'COMPLETED',
      startedAt: '2026-01-02T03:04:05.000Z',
    }));
    await ingestTraces(testContext(database), validateIngestBody({ traces: [makeTrace({ id: doomed, spans })] }, limits));
    // The trace is deleted just before the second range statement runs.
    const sql: SqlExecutor = {
      ...database.sql,
      async query(text, params = []) {
        if (text.includes('string_agg') && params[1] !== null) {
          await database.sql.exec(`DELETE FROM "Trace" WHERE id = '${doomed}'`);
        }
        return database.sql.query(text, params);
      },
    };
    const got = JSON.parse(await getTraceJsonOrThrow(testContext({ ...database, kind: 'postgres', sql }), doomed)) as { spans: unknown[] };
    // The halves no longer add up, so the spans were read again in one statement.
    expect(got.spans).toHaveLength(0);
  });
});
