// A large settled trace's span pages are stored by its first read and sent from there
// after. Whatever writes spans (by any path, committed at any moment of a read), a read
// must answer exactly what the rows say in its snapshot: the same JSON as the live build.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';
import { saveScores, validateScoresBody } from '@/lib/features/scores';
import { testDatabases } from '@/test/support/databases';
import { expectStoredSpanPagesExact } from '@/test/support/derived';
import { makeTrace, uid } from '@/test/support/fixtures';
import { asKey } from '@/test/support/scores';
import { testContext } from '@/test/support/context';
import { getTraceJsonOrThrow, type StoredPagesOutcome, type TraceJsonOptions } from './detail';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { interceptStatements } from '@/test/support/executor';

const limits = { maxBatchTraces: 10, maxChildrenPerTrace: 10_000 };
const WHOLE: TraceJsonOptions = { spansInOneStatement: 1_000_000 };

function spansOf(count: number) {
  return Array.from({ length: count }, (_, k) => ({
    id: `s${String(k).padStart(3, '0')}`,
    name: `step ${k} "q"`,
    type: 'CUSTOM',
    status: 'COMPLETED',
    startedAt: `2026-01-02T03:04:0${k % 10}.000Z`,
    input: { k, text: 'é'.repeat(k % 7) },
  }));
}

describe.each(testDatabases())('stored span pages on $name', (target) => {
  let db: Database;

  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  async function addTrace(overrides: Record<string, unknown> = {}): Promise<string> {
    const id = uid('stored');
    await ingestTraces(testContext(db), validateIngestBody({ traces: [makeTrace({ id, spans: spansOf(30), ...overrides })] }, limits));
    return id;
  }

  /** A paged read (pages of 7 spans) and what it did with stored pages. */
  async function paged(id: string, sql: SqlExecutor = db.sql): Promise<{ json: unknown; outcome: StoredPagesOutcome }> {
    let settled!: (outcome: StoredPagesOutcome) => void;
    const outcome = new Promise<StoredPagesOutcome>((resolve) => (settled = resolve));
    const text = await getTraceJsonOrThrow(testContext({ ...db, sql }), id, { spansInOneStatement: 0, pageSpans: 7, onSettled: settled });
    // The pages are stored after the last one was read: wait for that.
    return { json: JSON.parse(text), outcome: await outcome };
  }
  const whole = async (id: string) => JSON.parse(await getTraceJsonOrThrow(testContext(db), id, WHOLE)) as unknown;
  const storedState = async (id: string) =>
    (await db.sql.query<{ token: string | null; pages: number }>(
      sql`SELECT h."token", (SELECT count(*)::int FROM "StoredSpanPage" p WHERE p."traceId" = h."traceId") AS pages FROM "StoredSpanPages" h WHERE h."traceId" = ${id}`,
    ))[0];

  /** Reads until the pages are stored, then once from them; both answers equal the live build. */
  async function expectStoredAndExact(id: string): Promise<void> {
    const first = await paged(id);
    expect(first.json).toEqual(await whole(id));
    expect(await storedState(id)).toEqual({ token: null, pages: 5 });
    const second = await paged(id);
    expect(second.outcome).toBe('sent stored');
    expect(second.json).toEqual(await whole(id));
    await expectStoredSpanPagesExact(db);
  }

  it('stores a settled trace\'s pages on the first read and sends them from there', async () => {
    const id = await addTrace();
    const first = await paged(id);
    expect(first.outcome).toBe('stored');
    expect(await storedState(id)).toEqual({ token: null, pages: 5 });
    expect(first.json).toEqual(await whole(id));
    const second = await paged(id);
    expect(second.outcome).toBe('sent stored');
    expect(second.json).toEqual(first.json);
    await expectStoredSpanPagesExact(db);
  });

  it('forgets them on every span write: insert, update, delete, TRUNCATE, trace delete', async () => {
    const id = await addTrace();
    await expectStoredAndExact(id);
    await db.sql.query(
      sql`INSERT INTO "Span" ("traceId", "id", "name", "type", "status", "startedAt") VALUES (${id}, 'late', 'late', 'CUSTOM', 'COMPLETED', '2026-01-02T03:04:05.500Z')`,
    );
    expect(await storedState(id)).toBeUndefined();
    const added = (await paged(id)).json as { spans: Array<{ id: string }> };
    expect(added.spans.map((s) => s.id)).toContain('late');
    expect(added).toEqual(await whole(id));
    expect(await storedState(id)).toEqual({ token: null, pages: 5 });

    await db.sql.query(sql`UPDATE "Span" SET "name" = 'renamed' WHERE "traceId" = ${id} AND "id" = 's003'`);
    expect(await storedState(id)).toBeUndefined();
    const renamed = (await paged(id)).json as { spans: Array<{ id: string; name: string }> };
    expect(renamed.spans.find((s) => s.id === 's003')?.name).toBe('renamed');
    expect(await storedState(id)).toEqual({ token: null, pages: 5 });

    await db.sql.query(sql`DELETE FROM "Span" WHERE "traceId" = ${id} AND "id" IN ('late', 's004')`);
    expect(await storedState(id)).toBeUndefined();
    expect((await paged(id)).json).toEqual(await whole(id));
    await expectStoredAndExact(id);

    await db.sql.query(sql`TRUNCATE "Span"`);
    expect(await storedState(id)).toBeUndefined();
    expect(((await paged(id)).json as { spans: unknown[] }).spans).toEqual([]);

    const other = await addTrace();
    await expectStoredAndExact(other);
    await db.sql.query(sql`DELETE FROM "Trace" WHERE "id" = ${other}`);
    expect(await storedState(other)).toBeUndefined();
    expect((await db.sql.query(sql`SELECT 1 FROM "StoredSpanPage" WHERE "traceId" = ${other}`)).length).toBe(0);
  });

  it('does not store a RUNNING trace, nor one with scores on its spans', async () => {
    const running = await addTrace({ status: 'RUNNING' });
    expect((await paged(running)).json).toEqual(await whole(running));
    expect(await storedState(running)).toBeUndefined();

    const scored = await addTrace();
    await saveScores(asKey(db, ['ingest', 'read'], 'k', null), validateScoresBody({ scores: [{ id: uid('sc'), traceId: scored, spanId: 's001', name: 'ok', value: true }] }));
    const read = (await paged(scored)).json as { spans: Array<{ id: string; scores?: unknown[] }> };
    expect(read.spans.find((s) => s.id === 's001')?.scores).toHaveLength(1);
    expect(read).toEqual(await whole(scored));
    expect(await storedState(scored)).toBeUndefined();
  });

  it('stores nothing when a span write commits while the first read builds the pages', async () => {
    const id = await addTrace();
    let pagesRead = 0;
    let written: Promise<unknown> | undefined;
    const beforePage = async (text: string) => {
      if (text.includes('string_agg') && text.includes('$5') && ++pagesRead === 3) {
        // From another connection; PGlite runs one transaction at a time, so there the
        // write waits for the read's snapshot to end, and commits before the store.
        written = db.sql.query(sql`UPDATE "Span" SET "name" = 'changed' WHERE "traceId" = ${id} AND "id" = 's020'`);
        if (target.name === 'postgres') await written;
      }
    };
    const spy = (sql: SqlExecutor): SqlExecutor => interceptStatements(sql, beforePage);
    const during = await paged(id, spy(db.sql));
    await written;
    expect(pagesRead).toBe(5);
    expect(during.outcome).toBe('built');
    expect((during.json as { spans: Array<{ id: string; name: string }> }).spans.find((s) => s.id === 's020')?.name).toBe('step 20 "q"');
    expect(await storedState(id)).toBeUndefined();
    const after = (await paged(id)).json as { spans: Array<{ id: string; name: string }> };
    expect(after.spans.find((s) => s.id === 's020')?.name).toBe('changed');
    await expectStoredAndExact(id);
  });

  it.runIf(target.name === 'postgres')('does not wait for, nor store around, a span writer still in progress', async () => {
    const id = await addTrace();
    const before = await whole(id);
    await db.sql.transaction(async (tx) => {
      await tx.query(sql`UPDATE "Span" SET "name" = 'pending' WHERE "traceId" = ${id} AND "id" = 's010'`);
      const during = await paged(id);
      expect(during.json).toEqual(before);
      expect(during.outcome).toBe('built');
    });
    expect(await storedState(id)).toBeUndefined();
    const after = (await paged(id)).json as { spans: Array<{ id: string; name: string }> };
    expect(after.spans.find((s) => s.id === 's010')?.name).toBe('pending');
    await expectStoredAndExact(id);
  });
});
