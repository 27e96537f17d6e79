// Payload columns are compressed with lz4 where PostgreSQL has it (migration
// 20261129000000_lz4_payload_compression); PGlite, built without it, keeps pglz and
// stores the same values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import type { Database } from './open';
import { testContext } from '@/test/support/context';

const PAYLOAD_COLUMNS = [
  ['Span', 'input'],
  ['Span', 'output'],
  ['Span', 'metadata'],
  ['Span', 'statusMessage'],
  ['DecisionPoint', 'reasoning'],
  ['DecisionPoint', 'chosen'],
  ['DecisionPoint', 'alternatives'],
  ['DecisionPoint', 'contextSnapshot'],
  ['Event', 'metadata'],
  ['Trace', 'metadata'],
];

describe.each(testDatabases())('payload compression on $name', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it(`uses ${target.name === 'postgres' ? 'lz4' : 'the default (pglz)'} for every payload column`, async () => {
    const rows = await db.sql.query<{ table: string; column: string; method: string }>(
      `SELECT c.relname AS "table", a.attname AS "column", a.attcompression::text AS method
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = current_schema()::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
          AND (c.relname, a.attname) IN (${PAYLOAD_COLUMNS.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(', ')})`,
      PAYLOAD_COLUMNS.flat(),
    );
    expect(rows).toHaveLength(PAYLOAD_COLUMNS.length);
    // attcompression: 'l' lz4, '' the server's default_toast_compression (pglz unless configured).
    for (const row of rows) expect(row.method, `${row.table}.${row.column}`).toBe(target.name === 'postgres' ? 'l' : '');
  });

  it('stores and reads back a payload large enough to be compressed', async () => {
    const text = Array.from({ length: 400 }, (_, i) => `step ${i}: the agent looked the order up again`).join('\n');
    const trace = makeTrace({ id: 'compression-check' });
    const span = (trace.spans as Record<string, unknown>[])[0];
    span.input = { messages: [{ role: 'user', content: text }] };
    await ingestTraces(testContext(db), validateIngestBody({ traces: [trace] }, { maxBatchTraces: 1, maxChildrenPerTrace: 100 }));
    const [row] = await db.sql.query<{ content: string; method: string | null }>(
      `SELECT "input" -> 'messages' -> 0 ->> 'content' AS content, pg_column_compression("input") AS method
         FROM "Span" WHERE "traceId" = 'compression-check' AND "input" IS NOT NULL LIMIT 1`,
    );
    expect(row.content).toBe(text);
    expect(row.method).toBe(target.name === 'postgres' ? 'lz4' : 'pglz');
  });
});
