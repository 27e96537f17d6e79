// Retention through housekeeping: RETENTION_DAYS unset keeps everything; set, the traces
// that started longer ago go (with their children and derived rows) and recent ones stay,
// at most once per interval per process.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDatabase } from '@/lib/db';
import { getRetentionDays } from '@/lib/core/config';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { expectDerivedExact } from '@/test/support/derived';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { resetRetentionClock, retentionDue, runRetention, runRetentionIfDue } from './';
import { testContext } from '@/test/support/context';

describe('RETENTION_DAYS', () => {
  const saved = process.env.RETENTION_DAYS;
  afterEach(() => {
    if (saved === undefined) delete process.env.RETENTION_DAYS;
    else process.env.RETENTION_DAYS = saved;
  });
  it('unset or empty keeps everything; otherwise a whole number of days from 1', () => {
    delete process.env.RETENTION_DAYS;
    expect(getRetentionDays()).toBeUndefined();
    process.env.RETENTION_DAYS = ' ';
    expect(getRetentionDays()).toBeUndefined();
    process.env.RETENTION_DAYS = '30';
    expect(getRetentionDays()).toBe(30);
    for (const bad of ['0', '-1', '1.5', 'thirty', '36501']) {
      process.env.RETENTION_DAYS = bad;
      expect(() => getRetentionDays(), bad).toThrow(/RETENTION_DAYS must be an integer/);
    }
  });
});

describe.each(testDatabases())('retention on $name', ({ open }) => {
  let db: Database;
  const saved = process.env.RETENTION_DAYS;
  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    await db.close();
    vi.restoreAllMocks();
  });
  beforeEach(async () => {
    useDatabase(db);
    await truncateAll(db);
    resetRetentionClock();
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.RETENTION_DAYS;
    else process.env.RETENTION_DAYS = saved;
  });

  const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
  async function storeAges(ages: number[]): Promise<string[]> {
    const traces = ages.map((d, i) =>
      makeTrace({ startedAt: daysAgo(d), endedAt: null, status: (['RUNNING', 'COMPLETED', 'ERROR'] as const)[i % 3] }),
    );
    await ingestTraces(testContext(db), validateIngestBody({ traces }, { maxBatchTraces: 100, maxChildrenPerTrace: 100 }));
    return traces.map((t) => t.id as string);
  }
  const ids = async () => (await db.sql.query<{ id: string }>('SELECT id FROM "Trace" ORDER BY id')).map((r) => r.id);

  it('unset: keeps everything, however old', async () => {
    delete process.env.RETENTION_DAYS;
    await storeAges([3650, 1]);
    expect(retentionDue()).toBe(false);
    expect(await runRetention()).toBe(0);
    expect(await ids()).toHaveLength(2);
  });

  it('deletes the traces older than RETENTION_DAYS, keeps the recent ones, counts stay exact', async () => {
    process.env.RETENTION_DAYS = '30';
    const [old1, old2, old3, recent1, recent2] = await storeAges([400, 31, 30.01, 29.9, 0]);
    expect(await runRetentionIfDue()).toBe(3);
    expect(await ids()).toEqual([recent1, recent2].sort());
    for (const id of [old1, old2, old3]) expect(await ids()).not.toContain(id);
    await expectDerivedExact(db);
  });

  it('runs at most once per interval per process', async () => {
    process.env.RETENTION_DAYS = '7';
    await storeAges([10]);
    expect(await runRetentionIfDue()).toBe(1);
    await storeAges([10]);
    expect(retentionDue()).toBe(false);
    expect(await runRetentionIfDue()).toBe(0);
    expect(await ids()).toHaveLength(1);

    // Due again (a new interval): it runs.
    resetRetentionClock();
    expect(retentionDue()).toBe(true);
    expect(await runRetentionIfDue()).toBe(1);
    expect(await ids()).toHaveLength(0);
    await expectDerivedExact(db);
  });
});
