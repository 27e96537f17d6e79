// GET /api/views: the caller's saved views, by name.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { viewOwner } from './owner';
import { toSavedView } from './record';
import type { SavedView } from './types';

export async function listViews(ctx: ServiceContext): Promise<SavedView[]> {
  const actor = requireScope(ctx, 'read');
  const rows = await ctx.db.prisma.savedView.findMany({ where: { owner: viewOwner(actor) }, orderBy: { name: 'asc' } });
  return rows.map(toSavedView);
}
