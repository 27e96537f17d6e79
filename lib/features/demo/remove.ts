import 'server-only';
import { describeActor } from '@/lib/core/access/decide';
import { requireScope, systemContext, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';
import { deleteTracesById } from '@/lib/features/retention';
import { requireDemoScope } from './access';
import { DEMO_ID_PREFIX, DEMO_METADATA_KEY, DEMO_TAG } from './dataset';

/** Ids of the demo traces stored: every mark must hold (id prefix, tag, metadata), so no trace of the user's goes. */
async function demoTraceIds(ctx: ServiceContext): Promise<string[]> {
  // Raw SQL, so that a load's removal reads inside the load's transaction.
  const rows = await ctx.db.sql.query<{ id: string }>(
    sql`SELECT "id" FROM "Trace" WHERE starts_with("id", ${DEMO_ID_PREFIX}) AND ${DEMO_TAG} = ANY ("tags") AND "metadata" -> ${DEMO_METADATA_KEY} = 'true'::jsonb`,
  );
  return rows.map((r) => r.id);
}

/** How many demo traces are stored (the viewer offers removing them when there are some). */
export async function countDemoTraces(ctx: ServiceContext): Promise<number> {
  requireScope(ctx, 'read');
  return (await demoTraceIds(ctx)).length;
}

/** Deletes every demo trace and what it holds; returns how many. Nothing to remove is 0. */
export async function removeDemoData(ctx: ServiceContext): Promise<number> {
  const actor = requireDemoScope(ctx, 'delete');
  const ids = await demoTraceIds(ctx);
  if (ids.length === 0) return 0;
  // The caller's right was checked above; an admin's session has no `delete` of its own to pass on.
  return deleteTracesById(systemContext(ctx.db, `demo data removal by ${describeActor(actor)}`), ids, 'demo data');
}
