// Housekeeping closes idle OTLP traces through the process's database, at most once per
// interval when asked "if due", folds the insights deltas into their rollups, and
// indexes the traces queued for search after requests.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { expectRollupsExact, expectSearchWordsExact } from '@/test/support/derived';
import {
  SEARCH_INDEX_BUSY_BUDGET_MS,
  SEARCH_INDEX_INTERVAL_MS,
  SEARCH_INDEX_MAX_LAG_MS,
  runHousekeeping,
  runHousekeepingIfDue,
  runSearchIndex,
  runSearchIndexIfDue,
  searchIndexBudgetMs,
} from './';

describe("the search indexer's budget", () => {
  it('yields to ingest in progress until search lags by the limit, then catches up', () => {
    const idleBudgetMs = Infinity;
    expect(searchIndexBudgetMs({ ingestInProgress: false, lagMs: 5_000, idleBudgetMs })).toBe(Infinity);
    expect(searchIndexBudgetMs({ ingestInProgress: false, lagMs: 5_000, idleBudgetMs: 1_000 })).toBe(1_000);
    expect(searchIndexBudgetMs({ ingestInProgress: true, lagMs: 5_000, idleBudgetMs })).toBe(SEARCH_INDEX_BUSY_BUDGET_MS);
    expect(searchIndexBudgetMs({ ingestInProgress: true, lagMs: SEARCH_INDEX_MAX_LAG_MS - 1, idleBudgetMs })).toBe(SEARCH_INDEX_BUSY_BUDGET_MS);
    expect(searchIndexBudgetMs({ ingestInProgress: true, lagMs: SEARCH_INDEX_MAX_LAG_MS, idleBudgetMs })).toBe(Infinity);
    // The extra sessions of an idle run stop after their batch once ingest starts, lag or not.
    expect(searchIndexBudgetMs({ ingestInProgress: false, lagMs: 5_000, idleBudgetMs, extraSession: true })).toBe(Infinity);
    expect(searchIndexBudgetMs({ ingestInProgress: true, lagMs: 5_000, idleBudgetMs, extraSession: true })).toBe(0);
    expect(searchIndexBudgetMs({ ingestInProgress: true, lagMs: SEARCH_INDEX_MAX_LAG_MS, idleBudgetMs, extraSession: true })).toBe(0);
  });
});

describe.each(testDatabases())('housekeeping on $name', ({ open }) => {
  let db: Database;
  const saved = process.env.OTLP_TRACE_IDLE_TIMEOUT_SECONDS;
  beforeAll(async () => {
    db = await open();
    useDatabase(db);
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.OTLP_TRACE_IDLE_TIMEOUT_SECONDS;
    else process.env.OTLP_TRACE_IDLE_TIMEOUT_SECONDS = saved;
  });

  /** An OTLP trace with one non-root span whose last span arrived `ageSeconds` ago. */
  async function idleTrace(ageSeconds: number): Promise<string> {
    const id = randomBytes(16).toString('hex');
    await db.sql.query(
      `INSERT INTO "Trace" (id, name, status, tags, "startedAt", source, "lastSpanAt", "spanCount")
       VALUES ($1, 'orphan', 'RUNNING', '{}', now() - interval '1 hour', 'OTLP', now() - make_interval(secs => $2), 1)`,
      [id, ageSeconds],
    );
    await db.sql.query(
      `INSERT INTO "Span" ("traceId", id, "parentSpanId", name, type, status, "startedAt", "endedAt")
       VALUES ($1, 'aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'step', 'CUSTOM', 'COMPLETED', now() - interval '1 hour', now() - interval '59 minutes')`,
      [id],
    );
    return id;
  }
  const statusOf = async (id: string) => (await db.sql.query<{ status: string }>('SELECT status FROM "Trace" WHERE id = $1', [id]))[0].status;

  it('closes traces idle for longer than OTLP_TRACE_IDLE_TIMEOUT_SECONDS, and only those', async () => {
    process.env.OTLP_TRACE_IDLE_TIMEOUT_SECONDS = '120';
    const idle = await idleTrace(300);
    const recent = await idleTrace(30);
    await runHousekeeping();
    expect(await statusOf(idle)).toBe('COMPLETED');
    expect(await statusOf(recent)).toBe('RUNNING');
  });

  it('runs "if due" at most once per interval per process', async () => {
    process.env.OTLP_TRACE_IDLE_TIMEOUT_SECONDS = '1';
    await runHousekeeping();
    const idle = await idleTrace(300);
    await runHousekeepingIfDue();
    expect(await statusOf(idle)).toBe('RUNNING');
    await runHousekeeping(new Date());
    expect(await statusOf(idle)).toBe('COMPLETED');
  });

  it('folds the insights deltas into the rollups, the idle sweep\'s included', async () => {
    process.env.OTLP_TRACE_IDLE_TIMEOUT_SECONDS = '120';
    const idle = await idleTrace(300);
    const deltas = async () =>
      (await db.sql.query<{ n: number }>(`SELECT (SELECT count(*) FROM "InsightsTraceDelta") + (SELECT count(*) FROM "InsightsNameDelta") AS n`))[0].n;
    expect(Number(await deltas())).toBeGreaterThan(0);
    await runHousekeeping();
    // Closing the trace moved it from RUNNING to COMPLETED, and that was folded in too.
    expect(await statusOf(idle)).toBe('COMPLETED');
    expect(Number(await deltas())).toBe(0);
    await expectRollupsExact(db, { compacted: true });
  });

  it('indexes the traces queued for search, once per interval when the timer finds it due', async () => {
    const queued = async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM "SearchQueue"'))[0].n;
    await idleTrace(10);
    expect(await queued()).toBeGreaterThan(0);
    expect(await runSearchIndex()).toMatchObject({ drained: true });
    expect(await queued()).toBe(0);
    // The timer's idle run, with its extra sessions (PostgreSQL) or one (PGlite).
    await Promise.all([idleTrace(10), idleTrace(10), idleTrace(10)]);
    expect(await runSearchIndex({ idleBudgetMs: Infinity, sessions: 2 })).toMatchObject({ traces: 3 });
    expect(await queued()).toBe(0);
    await expectSearchWordsExact(db, { drained: true });

    // Just indexed: the timer's tick does nothing until the interval has passed.
    await idleTrace(10);
    expect(await runSearchIndexIfDue()).toBeUndefined();
    expect(await queued()).toBeGreaterThan(0);
    // Once it has (the clock set back), the next tick indexes.
    await runSearchIndex({ now: Date.now() - SEARCH_INDEX_INTERVAL_MS });
    await idleTrace(10);
    // The timer's run (two sessions on PostgreSQL: either may end its turn first) goes on until the queue is empty.
    expect(await runSearchIndexIfDue()).toMatchObject({ traces: 1 });
    expect(await queued()).toBe(0);
    await expectSearchWordsExact(db, { drained: true });
  });
});
