// DELETE /api/views/{id}: deletes one of the caller's views. Another owner's view is
// "not found", as if it did not exist.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';
import { isValidId } from '@/lib/features/ingest/shared';
import { viewOwner } from './owner';

export async function deleteView(ctx: ServiceContext, id: string): Promise<void> {
  const actor = requireScope(ctx, 'read');
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid view ID');
  const deleted = await ctx.db.sql.query(sql`DELETE FROM "SavedView" WHERE "id" = ${id} AND "owner" = ${viewOwner(actor)} RETURNING "id"`);
  if (deleted.length === 0) throw new AppError('NOT_FOUND', 'View not found');
}
