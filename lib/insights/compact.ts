// Folding the insights deltas into the hour rollups (insights_compact(), migration
// 20261125000000_insights_rollups). Ingest appends each write's difference to the delta
// tables; readers sum rollup and delta rows, so answers are exact whenever this runs. It
// only keeps the deltas short, so that reads stay fast: before an insights read when the
// last compaction in this process is COMPACT_INTERVAL_MS old, and with the housekeeping
// timer. One statement, in its own transaction: a try-lock makes concurrent callers (other
// requests, other instances) skip instead of queueing behind the one compacting.
import type { Db } from '@/lib/db';

/** At most one compaction per process this often from the read path. */
export const COMPACT_INTERVAL_MS = 5_000;

// Any constant distinct from the other advisory locks of the app (lib/storage).
const COMPACT_LOCK = 0x43524f53; // "CROS"

const state = globalThis as unknown as { __crossroadsInsightsCompactedAt?: number };

/** Folds every committed delta into the rollups; returns how many delta rows it folded (0 when another compaction holds the lock). */
export async function compactInsights(db: Db): Promise<number> {
  state.__crossroadsInsightsCompactedAt = Date.now();
  const [{ moved }] = await db.$queryRaw<Array<{ moved: bigint | number }>>`
    SELECT CASE WHEN pg_try_advisory_xact_lock(${COMPACT_LOCK}) THEN "insights_compact"() ELSE 0 END AS moved`;
  return Number(moved);
}

/** compactInsights when this process has not run it for COMPACT_INTERVAL_MS. */
export async function compactInsightsIfDue(db: Db): Promise<void> {
  if (Date.now() - (state.__crossroadsInsightsCompactedAt ?? 0) < COMPACT_INTERVAL_MS) return;
  await compactInsights(db);
}
