// The full-text search indexer (migration search_deferred_index). Writers queue the traces
// they wrote (a JSON batch writes its traces' words itself: ./trace-words.ts); this
// rewrites their words ("SearchDoc") in batches, after the write, not in it. Searches stay complete whatever it
// has reached: queued traces are tested row by row (search-sql.ts).
//
// It runs in two ways (lib/upkeep): on a timer in a long-running server, and with each
// call of GET /api/upkeep by a platform's cron (serverless hosts run no timer). Several sessions can index at once (migration search_index_slots): the queue
// is split into SEARCH_INDEX_SLOTS partitions by trace id, each with its own try-lock, so
// concurrent callers take different partitions, never the same trace, and return at once
// when every partition with work is taken.
import 'server-only';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';

/** Partitions of the queue: at most this many sessions index at once, across all instances. */
export const SEARCH_INDEX_SLOTS = 4;

/**
 * Traces per indexing transaction: ~0.2-0.4 s of work at the bench's shapes (3-7 ms a
 * trace). Short, because embedded PGlite runs one statement at a time: a request arriving
 * meanwhile waits for the batch in progress, not for the whole run.
 */
export const SEARCH_INDEX_BATCH = 50;

export interface SearchIndexRun {
  /** Traces indexed. */
  traces: number;
  /** Whether the queue was empty when the run stopped (false: the time budget ran out, or other sessions hold the partitions left). */
  drained: boolean;
}

/**
 * Indexes queued traces, a batch per transaction, until the queue is empty or `budgetMs`
 * has passed (the batch running then finishes). Infinity drains the queue. A function is
 * asked again after each batch, so the budget can shrink when other work arrives.
 */
export async function indexSearchBacklog(
  exec: Pick<SqlExecutor, 'query'>,
  budgetMs: number | (() => number) = Infinity,
  batch = SEARCH_INDEX_BATCH,
): Promise<SearchIndexRun> {
  const budget = typeof budgetMs === 'function' ? budgetMs : () => budgetMs;
  const start = Date.now();
  let traces = 0;
  for (;;) {
    const [{ n }] = await exec.query<{ n: number }>(sql`SELECT "crossroads_search_index"(${batch}::int, ${SEARCH_INDEX_SLOTS}::int) AS n`);
    if (n < 0) return { traces, drained: false };
    if (n === 0) return { traces, drained: true };
    traces += n;
    if (Date.now() - start >= budget()) return { traces, drained: false };
  }
}

/** How far behind the indexer is: queued traces (distinct) and the age of the oldest entry. */
export async function searchBacklog(exec: Pick<SqlExecutor, 'query'>): Promise<{ traces: number; oldestMs: number }> {
  const [row] = await exec.query<{ traces: number }>(sql`SELECT count(DISTINCT "traceId")::int AS traces FROM "SearchQueue"`);
  return { traces: row.traces, oldestMs: await searchLagMs(exec) };
}

/** How long the oldest queued trace has waited (0 when none is queued); one index probe. */
export async function searchLagMs(exec: Pick<SqlExecutor, 'query'>): Promise<number> {
  const [row] = await exec.query<{ lag_ms: number | null }>(
    sql`SELECT (extract(epoch FROM clock_timestamp() - min("queuedAt")) * 1000)::float8 AS lag_ms FROM "SearchQueue"`,
  );
  return row.lag_ms ?? 0;
}
