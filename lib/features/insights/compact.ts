// Folding the insights deltas into the hour rollups (insights_compact(), migration
// 20261125000000_insights_rollups). Ingest appends each write's difference to the delta
// tables; readers sum rollup and delta rows, so answers are exact whenever this runs. It
// only keeps the deltas short, so that reads stay fast: reads run it, and so does the upkeep
// (lib/upkeep). One statement, in its own transaction: a try-lock makes concurrent callers
// (other requests, other instances) skip instead of queueing behind the one compacting.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';

// Any constant distinct from the other advisory locks of the app (lib/db).
const COMPACT_LOCK = 0x43524f53; // "CROS"

/** Folds every committed delta into the rollups; returns how many delta rows it folded (0 when another compaction holds the lock). */
export async function compactInsights(ctx: ServiceContext): Promise<number> {
  requireScope(ctx, 'ingest');
  const [{ moved }] = await ctx.db.sql.query<{ moved: bigint | number }>(sql`
    SELECT CASE WHEN pg_try_advisory_xact_lock(${COMPACT_LOCK}) THEN "insights_compact"() ELSE 0 END AS moved`);
  return Number(moved);
}
