// POST /api/views: saves the caller's view under its name; a name they already use is
// replaced (its id kept), so "save" twice never makes two views of one name.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { VIEW_LIMITS } from './limits';
import { viewOwner } from './owner';
import { toSavedView } from './record';
import type { SavedView, SaveViewInput } from './types';

export async function saveView(ctx: ServiceContext, input: SaveViewInput): Promise<{ view: SavedView; created: boolean }> {
  const actor = requireScope(ctx, 'read');
  const owner = viewOwner(actor);
  const db = ctx.db.prisma;
  const data = { query: input.query, columns: input.columns };
  return db.$transaction(async (tx) => {
    // Serialises one owner's saves: two cannot both pass the count below the limit, nor both insert one name.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`saved-view:${owner}`}))`;
    const existing = await tx.savedView.findUnique({ where: { owner_name: { owner, name: input.name } } });
    if (existing) {
      const row = await tx.savedView.update({ where: { id: existing.id }, data: { ...data, updatedAt: new Date() } });
      return { view: toSavedView(row), created: false };
    }
    const count = await tx.savedView.count({ where: { owner } });
    if (count >= VIEW_LIMITS.perOwner) {
      throw new AppError('VALIDATION', `Too many views: at most ${VIEW_LIMITS.perOwner} each; delete one first`);
    }
    const row = await tx.savedView.create({ data: { id: randomUUID(), owner, name: input.name, ...data } });
    return { view: toSavedView(row), created: true };
  });
}
