// Bulk seeding straight into the tables with COPY (not through the API: loading 1M
// traces over HTTP would take hours). Same generator as the HTTP scenarios; the report
// labels these steps "seed" and never counts them as API figures.
import { generateTrace, type GenTrace, type TraceShape } from './generate';
import type { RawDb } from './database';
import { TABLES, copyText, traceRows } from './rows';
import { SEARCH_INDEX_SLOTS } from '@/lib/features/search';

export interface SeedOptions {
  seed: number;
  /** Trace indexes [from, to). */
  from: number;
  to: number;
  shape: TraceShape;
  population: number;
  /** Traces per COPY round (one transaction). */
  chunk?: number;
  /** Explicit ids by index (detail traces). */
  idFor?: (index: number) => string | undefined;
  onProgress?: (done: number, total: number) => void;
  /**
   * Whether the seeded traces stay queued for the search indexer (the search scenario,
   * which then drains the queue). Otherwise their queue entries go in the same
   * transaction: the server's indexer would spend the measured scenarios indexing data
   * they never search, which a long-running deployment indexed when it came in.
   */
  searchQueue?: boolean;
  /** Rewrites each generated trace before it is stored (a scenario's own decisions or names). */
  transform?: (trace: GenTrace, index: number) => GenTrace;
}

export interface SeedResult {
  traces: number;
  records: number;
  seconds: number;
}

const LOAD_ORDER = [...TABLES.filter((t) => t !== 'Trace'), 'Trace'] as const;

export async function seedTraces(db: RawDb, options: SeedOptions): Promise<SeedResult> {
  const chunk = options.chunk ?? 5000;
  const started = performance.now();
  const conn = await db.connect();
  let records = 0;
  let inFlight: Promise<void> | undefined;
  try {
    for (let start = options.from; start < options.to; start += chunk) {
      const end = Math.min(options.to, start + chunk);
      const traces = [];
      for (let i = start; i < end; i++) {
        const generated = generateTrace({
          seed: options.seed,
          index: i,
          shape: options.shape,
          population: options.population,
          id: options.idFor?.(i),
        });
        traces.push(options.transform ? options.transform(generated, i) : generated);
      }
      const rows = traceRows(traces);
      const ids = traces.map((t) => t.id);
      // Children first, the traces last with the children's foreign keys checked at commit,
      // as POST /api/traces stores them: the insights rollup trigger on "Trace" then sees
      // each trace's decision points (migration 20261125000000_insights_rollups).
      const data = LOAD_ORDER.map((t) => [t, Buffer.from(copyText(rows[t]))] as const);
      records += TABLES.reduce((n, t) => n + rows[t].length, 0);
      // PostgreSQL loads chunk k while this process generates chunk k+1.
      await inFlight;
      options.onProgress?.(start - options.from, options.to - options.from);
      inFlight = (async () => {
        await conn.query('BEGIN');
        await conn.query('SET CONSTRAINTS ALL DEFERRED');
        for (const [table, buf] of data) await conn.copy(table, buf);
        if (!options.searchQueue) await conn.query('DELETE FROM "SearchQueue" WHERE "traceId" = ANY($1::text[])', [ids]);
        await conn.query('COMMIT');
      })();
      inFlight.catch(() => undefined);
    }
    await inFlight;
  } finally {
    await conn.release();
  }
  return { traces: options.to - options.from, records, seconds: (performance.now() - started) / 1000 };
}

/**
 * Empties the trace tables (children cascade) and the search queue, which holds trace ids
 * without a foreign key (writers append to it without waiting on each other), so CASCADE
 * does not reach it.
 */
export async function truncateTraces(db: RawDb): Promise<void> {
  const conn = await db.connect();
  try {
    // The server's background search indexing may hold locks on these tables in another
    // order; PostgreSQL then aborts one side as a deadlock. When it picks the TRUNCATE,
    // try again: the indexing run has finished by then.
    for (let attempt = 1; ; attempt++) {
      try {
        await conn.query('TRUNCATE "Trace", "SearchQueue" CASCADE');
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err;
      }
    }
  } finally {
    await conn.release();
  }
}

/**
 * The upkeep a server that received the seeded traces over time would already have done:
 * insights and status-count deltas folded, each trace's path stored, queued traces indexed
 * for search. Left to the server's housekeeping, it runs during the measured calls, which
 * then compete with it (at 1M seeded traces the paths alone take minutes).
 */
export async function catchUpUpkeep(db: RawDb): Promise<{ paths: number; indexed: number }> {
  const conn = await db.connect();
  try {
    await conn.query('SELECT "insights_compact"()');
    await conn.query('SELECT "trace_status_count_fold"()');
    let paths = 0;
    for (let n = -1; n !== 0; paths += Math.max(0, n)) [{ n }] = await conn.query<{ n: number }>('SELECT "paths_compact"(20000) AS n');
    let indexed = 0;
    for (;;) {
      const [{ n }] = await conn.query<{ n: number }>('SELECT "crossroads_search_index"(1000, $1::int) AS n', [SEARCH_INDEX_SLOTS]);
      if (n === 0) break;
      // Negative: the server's own indexer holds the slots now; it drains them too.
      if (n < 0) await new Promise((resolve) => setTimeout(resolve, 200));
      else indexed += n;
    }
    return { paths, indexed };
  } finally {
    await conn.release();
  }
}

/** What a long-running database has: statistics and an up-to-date visibility map. */
export async function vacuumAnalyze(db: RawDb): Promise<number> {
  const started = performance.now();
  const conn = await db.connect();
  try {
    for (const t of TABLES) await conn.query(`VACUUM (ANALYZE) "${t}"`);
  } finally {
    await conn.release();
  }
  return (performance.now() - started) / 1000;
}

export async function countTraces(db: RawDb): Promise<number> {
  const conn = await db.connect();
  try {
    const [row] = await conn.query<{ n: string }>('SELECT count(*)::text AS n FROM "Trace"');
    return Number(row.n);
  } finally {
    await conn.release();
  }
}
