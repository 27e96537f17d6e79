// GET /api/views: the caller's saved views, by name.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';
import { viewOwner } from './owner';
import { toSavedView, VIEW_COLUMNS } from './record';
import type { SavedView } from './types';

export async function listViews(ctx: ServiceContext): Promise<SavedView[]> {
  const actor = requireScope(ctx, 'read');
  const rows = await ctx.db.sql.query<SavedView>(sql`SELECT ${VIEW_COLUMNS} FROM "SavedView" WHERE "owner" = ${viewOwner(actor)} ORDER BY "name" ASC`);
  return rows.map(toSavedView);
}
