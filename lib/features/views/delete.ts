// DELETE /api/views/{id}: deletes one of the caller's views. Another owner's view is
// "not found", as if it did not exist.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { isValidId } from '@/lib/features/ingest/shared';
import { viewOwner } from './owner';

export async function deleteView(ctx: ServiceContext, id: string): Promise<void> {
  const actor = requireScope(ctx, 'read');
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid view ID');
  const { count } = await ctx.db.prisma.savedView.deleteMany({ where: { id, owner: viewOwner(actor) } });
  if (count === 0) throw new AppError('NOT_FOUND', 'View not found');
}
