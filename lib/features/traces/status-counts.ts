// The per-status trace counts (migration trace_status_count_deltas): writers append deltas,
// housekeeping folds them into the counters, readers add the two.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { SqlExecutor } from '@/lib/db/executor';
import type { RunStatus } from './types';
import { sql } from '@/lib/db/sql';

/** Traces of that status (every trace without one), exact as of the read's snapshot. */
export async function countTracesByStatus(db: SqlExecutor, status: RunStatus | undefined): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(sql`
    SELECT coalesce(sum("count"), 0)::float8 AS n FROM "TraceStatusTotal"
     WHERE ${status ?? null}::text IS NULL OR "status"::text = ${status ?? null}::text`);
  return Number(n);
}

/** Moves the committed deltas into the counters; how many delta rows (0 also when another session folds). */
export async function foldTraceStatusCounts(ctx: ServiceContext): Promise<number> {
  requireScope(ctx, 'ingest');
  const [{ n }] = await ctx.db.sql.query<{ n: number }>(sql`SELECT "trace_status_count_fold"() AS n`);
  return Number(n);
}
