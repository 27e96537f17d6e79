// Storing the paths of the traces the triggers marked (paths_compact(), migration
// trace_paths). Reads are exact without it (they compute marked traces' paths); it keeps
// the marks few so that reads stay fast: with the insights compaction (lib/upkeep)
// and before each paths read. One session at a time: a concurrent caller gets -1 and moves on.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';

/** Traces per compaction statement: one transaction of a few seconds at most. */
export const COMPACT_PATHS_BATCH = 5_000;

/** Stores the paths of up to `max` marked traces; how many (0: none marked, -1: another session compacts). */
export async function compactPathsOnce(db: SqlExecutor, max = COMPACT_PATHS_BATCH): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(sql`SELECT "paths_compact"(${max}::int) AS n`);
  return Number(n);
}

/** Batches one compactPaths call runs at most: under ingest that never pauses it still ends. */
const MAX_BATCHES = 100;

/** Stores the paths of marked traces, batch by batch, until it catches up or another session compacts; returns how many. */
export async function compactPaths(ctx: ServiceContext): Promise<number> {
  requireScope(ctx, 'ingest');
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const n = await compactPathsOnce(ctx.db.sql);
    if (n > 0) total += n;
    if (n < COMPACT_PATHS_BATCH) break;
  }
  return total;
}
