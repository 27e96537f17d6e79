// The per-status trace counts: writers append deltas without locking a shared row, a fold
// moves them into the counters, and a read (counters plus deltas) is exact throughout.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { testContext } from '@/test/support/context';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { countTracesByStatus, foldTraceStatusCounts } from './status-counts';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { sql } from '@/lib/db/sql';

const limits = { maxBatchTraces: 1000, maxChildrenPerTrace: 100 };

describe.each(testDatabases())('per-status trace counts on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await truncateAll(db);
    await foldTraceStatusCounts(testContext(db));
  });

  const store = (traces: Record<string, unknown>[]) => ingestTraces(testContext(db), validateIngestBody({ traces }, limits));
  const counters = async () =>
    Object.fromEntries(
      (await db.sql.query<{ status: string; n: number }>(sql`SELECT status::text AS status, count::int AS n FROM "TraceStatusCount"`)).map((r) => [r.status, r.n]),
    );
  const deltas = async () => (await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "TraceStatusCountDelta"`))[0].n;
  const read = async () => ({
    all: await countTracesByStatus(db.sql, undefined),
    RUNNING: await countTracesByStatus(db.sql, 'RUNNING'),
    COMPLETED: await countTracesByStatus(db.sql, 'COMPLETED'),
    ERROR: await countTracesByStatus(db.sql, 'ERROR'),
  });

  it('counts inserts, status moves and deletes before and after a fold, which empties the deltas', async () => {
    const a = makeTrace({ status: 'RUNNING' });
    await store([a, makeTrace({ status: 'ERROR' }), makeTrace({ status: 'COMPLETED' }), makeTrace({ status: 'COMPLETED' })]);
    expect(await read()).toEqual({ all: 4, RUNNING: 1, COMPLETED: 2, ERROR: 1 });
    expect(await deltas()).toBeGreaterThan(0);
    expect(await counters()).toEqual({ RUNNING: 0, COMPLETED: 0, ERROR: 0 });

    // A status move appends its net change only; an update that moves none appends nothing.
    const before = await deltas();
    await db.sql.query(sql`UPDATE "Trace" SET "status" = 'COMPLETED' WHERE id = ${a.id}`);
    await db.sql.query(sql`UPDATE "Trace" SET "name" = 'renamed' WHERE id = ${a.id}`);
    expect(await deltas()).toBe(before + 2);
    expect(await read()).toEqual({ all: 4, RUNNING: 0, COMPLETED: 3, ERROR: 1 });

    expect(await foldTraceStatusCounts(testContext(db))).toBe(before + 2);
    expect(await deltas()).toBe(0);
    expect(await counters()).toEqual({ RUNNING: 0, COMPLETED: 3, ERROR: 1 });
    expect(await read()).toEqual({ all: 4, RUNNING: 0, COMPLETED: 3, ERROR: 1 });

    await db.sql.query(sql`DELETE FROM "Trace" WHERE id = ${a.id}`);
    expect(await read()).toEqual({ all: 3, RUNNING: 0, COMPLETED: 2, ERROR: 1 });
    expect(await foldTraceStatusCounts(testContext(db))).toBe(1);
    expect(await counters()).toEqual({ RUNNING: 0, COMPLETED: 2, ERROR: 1 });
    expect(await foldTraceStatusCounts(testContext(db))).toBe(0);
  });

  it('TRUNCATE zeroes the counters and drops the deltas', async () => {
    await store([makeTrace({ status: 'ERROR' })]);
    await foldTraceStatusCounts(testContext(db));
    await store([makeTrace({ status: 'COMPLETED' })]);
    await truncateAll(db);
    expect(await deltas()).toBe(0);
    expect(await counters()).toEqual({ RUNNING: 0, COMPLETED: 0, ERROR: 0 });
    expect(await read()).toEqual({ all: 0, RUNNING: 0, COMPLETED: 0, ERROR: 0 });
  });

  it('a writer never waits for another open transaction that changed the counts, and a fold leaves that one’s deltas for later', async () => {
    if (db.kind !== 'postgres') return; // PGlite has one connection: nothing can wait.
    await store([makeTrace({ status: 'COMPLETED' })]);
    await db.sql.transaction(async (tx) => {
      await tx.query(sql`UPDATE "Trace" SET "status" = 'ERROR'`);
      await tx.query(
        sql`INSERT INTO "Trace" (id, name, status, "startedAt") VALUES ('open-tx', 'open', 'RUNNING', now())`,
      );
      // From other connections, while this transaction holds its deltas: ingest and a fold
      // both finish (before, ingest waited for this commit on the counter rows: a hang here).
      await store([makeTrace({ status: 'COMPLETED' })]);
      expect(await foldTraceStatusCounts(testContext(db))).toBeGreaterThan(0);
      // Not yet committed: the others see one COMPLETED trace stored before and one now.
      expect(await read()).toEqual({ all: 2, RUNNING: 0, COMPLETED: 2, ERROR: 0 });
    });
    expect(await read()).toEqual({ all: 3, RUNNING: 1, COMPLETED: 1, ERROR: 1 });
    expect(await foldTraceStatusCounts(testContext(db))).toBeGreaterThan(0);
    expect(await deltas()).toBe(0);
    expect(await counters()).toEqual({ RUNNING: 1, COMPLETED: 1, ERROR: 1 });
  });
});
