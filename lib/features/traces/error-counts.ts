// How many things failed in each of some traces: its spans with status ERROR and its
// events of type ERROR (what the list's hasErrors filter looks for, counted).
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';

/** Failed spans plus ERROR events per trace id; 0 for a trace without either (or not stored). */
export async function traceErrorCounts(ctx: ServiceContext, traceIds: readonly string[]): Promise<Map<string, number>> {
  requireScope(ctx, 'read');
  const counts = new Map(traceIds.map((id) => [id, 0]));
  if (traceIds.length === 0) return counts;
  // Both probes use the partial indexes of failed spans' and ERROR events' trace ids.
  const rows = await ctx.db.sql.query<{ traceId: string; n: number }>(sql`
    SELECT x."traceId", count(*)::int AS n FROM (
      SELECT s."traceId" FROM "Span" s WHERE s."traceId" = ANY (${[...traceIds]}::text[]) AND s."status" = 'ERROR'
      UNION ALL
      SELECT e."traceId" FROM "Event" e WHERE e."traceId" = ANY (${[...traceIds]}::text[]) AND e."type" = 'ERROR'
    ) x GROUP BY 1`);
  for (const r of rows) counts.set(r.traceId, r.n);
  return counts;
}
