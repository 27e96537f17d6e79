import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { isValidId } from '@/lib/features/ingest/shared';

/** Deletes a config (admins); its name's scores stay, unconstrained from then on. */
export async function deleteScoreConfig(ctx: ServiceContext, id: string): Promise<void> {
  requireScope(ctx, 'admin');
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid score config ID');
  const { count } = await ctx.db.prisma.scoreConfig.deleteMany({ where: { id } });
  if (count === 0) throw new AppError('NOT_FOUND', 'Score config not found');
}
