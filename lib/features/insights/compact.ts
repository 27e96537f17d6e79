// Folding the insights deltas into the hour rollups (insights_compact(), migration
// 20261125000000_insights_rollups). Ingest appends each write's difference to the delta
// tables; readers sum rollup and delta rows, so answers are exact whenever this runs. It
// only keeps the deltas short, so that reads stay fast: after a request when the last
// compaction in this process is COMPACT_INTERVAL_MS old, and with the housekeeping timer
// (lib/upkeep.ts). One statement, in its own transaction: a try-lock makes concurrent callers (other
// requests, other instances) skip instead of queueing behind the one compacting.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';

/** At most one compaction per process this often after requests. */
export const COMPACT_INTERVAL_MS = 5_000;

// Any constant distinct from the other advisory locks of the app (lib/storage).
const COMPACT_LOCK = 0x43524f53; // "CROS"

const state = globalThis as unknown as { __crossroadsInsightsCompactedAt?: number };

/** Folds every committed delta into the rollups; returns how many delta rows it folded (0 when another compaction holds the lock). */
export async function compactInsights(ctx: ServiceContext): Promise<number> {
  requireScope(ctx, 'ingest');
  state.__crossroadsInsightsCompactedAt = Date.now();
  const [{ moved }] = await ctx.db.sql.query<{ moved: bigint | number }>(sql`
    SELECT CASE WHEN pg_try_advisory_xact_lock(${COMPACT_LOCK}) THEN "insights_compact"() ELSE 0 END AS moved`);
  return Number(moved);
}

/** Whether this process has not compacted for COMPACT_INTERVAL_MS (claims the next run when it has not). */
export function compactInsightsDue(now = Date.now()): boolean {
  if (now - (state.__crossroadsInsightsCompactedAt ?? 0) < COMPACT_INTERVAL_MS) return false;
  state.__crossroadsInsightsCompactedAt = now;
  return true;
}
