// The list's totals come from trigger-maintained per-status counts when there is no
// filter or only a status; they must equal count(*) through every write path.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { countTraces } from './list';
import { parseListParams } from '@/lib/features/query/list-params';
import { RUN_STATUSES } from './types';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { sql } from '@/lib/db/sql';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 };
const batch = (statuses: string[]) =>
  validateIngestBody({ traces: statuses.map((status) => makeTrace({ status })) }, LIMITS);

describe.each(testDatabases())('trace totals on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await truncateAll(db);
  });

  async function expectExactTotals() {
    const real = await db.sql.query<{ status: string; n: number }>(
      sql`SELECT status::text AS status, count(*)::int AS n FROM "Trace" GROUP BY status`,
    );
    const byStatus = Object.fromEntries(real.map((r) => [r.status, r.n]));
    for (const status of RUN_STATUSES) {
      expect(await countTraces(db.sql, { status }), status).toBe(byStatus[status] ?? 0);
    }
    expect(await countTraces(db.sql, {})).toBe(real.reduce((sum, r) => sum + r.n, 0));
  }

  it('match count(*) after ingest, concurrent batches, deletes, updates and truncate', async () => {
    await ingestTraces(testContext(db), batch(['RUNNING', 'COMPLETED', 'COMPLETED', 'ERROR']));
    await expectExactTotals();
    expect(await countTraces(db.sql, { status: 'COMPLETED' })).toBe(2);

    // Concurrent batches touching every status in different orders: no deadlock, exact.
    const orders = [
      ['ERROR', 'RUNNING', 'COMPLETED'],
      ['COMPLETED', 'ERROR', 'RUNNING'],
      ['RUNNING', 'COMPLETED', 'ERROR'],
    ];
    await Promise.all(Array.from({ length: 12 }, (_, i) => ingestTraces(testContext(db), batch(orders[i % 3]))));
    await expectExactTotals();
    expect(await countTraces(db.sql, {})).toBe(40);

    // A failed batch (duplicate id) leaves the totals untouched.
    const dup = batch(['ERROR']);
    await ingestTraces(testContext(db), dup);
    const withDup = batch(['ERROR', 'RUNNING', 'COMPLETED']);
    withDup.traces[2] = dup.traces[0];
    withDup.json = JSON.stringify({ traces: withDup.traces });
    await expect(ingestTraces(testContext(db), withDup)).rejects.toThrow(
      'Duplicate trace ID detected',
    );
    await expectExactTotals();

    // Paths outside the application: deletes, status updates, bulk SQL inserts, truncate.
    await db.sql.exec(`DELETE FROM "Trace" WHERE id IN (SELECT id FROM "Trace" WHERE status = 'ERROR' LIMIT 3)`);
    await db.sql.exec(`UPDATE "Trace" SET status = 'ERROR' WHERE status = 'RUNNING'`);
    await db.sql.exec(
      `INSERT INTO "Trace" (id, name, status, tags, "startedAt") SELECT 'bulk-' || i, 'n', 'COMPLETED', '{}', now() FROM generate_series(1, 50) i`,
    );
    await expectExactTotals();
    await truncateAll(db);
    await expectExactTotals();
    expect(await countTraces(db.sql, {})).toBe(0);
  });

  it('counts a search exactly as ILIKE on the names, through every write path', async () => {
    const names = ['Refund request', 'REFUND', 'réfund', 'RÉFUND', 'Straße', 'STRASSE', 'İstanbul', 'ΣΊΣΥΦΟΣ', 'σίσυφος', '50% off', 'a_b', 'a\\b'];
    const terms = ['refund', 'RÉF', 'é', 'straße', 'ss', 'i̇', 'İ', 'σ', 'ς', 'Σ', '%', '_', '\\', 'zzz', 'x'];
    const expectSameAsIlike = async (when: string) => {
      for (const search of terms) {
        const [{ n }] = await db.sql.query<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM "Trace" WHERE "name" ILIKE ${`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`,
        );
        expect(await countTraces(db.sql, { search }), `${when}: ${search}`).toBe(n);
      }
    };
    await ingestTraces(testContext(db), validateIngestBody({ traces: names.map((name) => makeTrace({ name })) }, LIMITS));
    await expectSameAsIlike('after ingest');
    expect(await countTraces(db.sql, { search: 'refund' })).toBe(2);
    expect(await countTraces(db.sql, { search: '%' })).toBe(1);

    // Paths outside the application: renames, a changed id, deletes, bulk SQL, truncate.
    await db.sql.exec(`UPDATE "Trace" SET name = 'was ' || upper(name) WHERE name LIKE 'R%'`);
    await db.sql.exec(`UPDATE "Trace" SET id = id || '-moved' WHERE name = 'Straße'`);
    await db.sql.exec(`DELETE FROM "Trace" WHERE name = 'STRASSE'`);
    await db.sql.exec(
      `INSERT INTO "Trace" (id, name, status, tags, "startedAt") SELECT 'bulk-' || i, 'Bulk REFUND ' || i, 'COMPLETED', '{}', now() FROM generate_series(1, 5) i`,
    );
    await expectSameAsIlike('after SQL writes');
    const [{ orphans }] = await db.sql.query<{ orphans: number }>(
      sql`SELECT count(*)::int AS orphans FROM "Trace" t FULL JOIN "TraceName" n ON n."traceId" = t.id WHERE t.id IS NULL OR n."traceId" IS NULL`,
    );
    expect(orphans).toBe(0);
    await truncateAll(db);
    expect(await countTraces(db.sql, { search: 'refund' })).toBe(0);
  });

  it('counts other filters through the rows themselves', async () => {
    const traces = [
      makeTrace({ name: 'Alpha', sessionId: 'x', tags: ['a', 'b'] }),
      makeTrace({ name: 'beta', sessionId: 'x', tags: ['b'] }),
    ];
    await ingestTraces(testContext(db), validateIngestBody({ traces }, LIMITS));
    expect(await countTraces(db.sql, { search: 'ALP' })).toBe(1);
    expect(await countTraces(db.sql, { sessionId: 'x' })).toBe(2);
    expect(await countTraces(db.sql, { tag: ['b'] })).toBe(2);
    expect(await countTraces(db.sql, { tag: ['a'], status: 'COMPLETED' })).toBe(1);
  });
});

describe('parseListParams', () => {
  it('applies defaults and keeps only non-empty filters', () => {
    expect(parseListParams(new URLSearchParams(''))).toEqual({ page: 1, limit: 20 });
    expect(parseListParams(new URLSearchParams('status=&search=&sessionId='))).toEqual({ page: 1, limit: 20 });
    expect(parseListParams(new URLSearchParams('page=2&limit=100&status=ERROR&search=a&sessionId=s'))).toEqual({
      page: 2,
      limit: 100,
      status: 'ERROR',
      search: 'a',
      sessionId: 's',
    });
  });
});
