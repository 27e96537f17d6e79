import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { isValidId } from '@/lib/features/ingest/shared';
import type { ScoreConfigRecord } from '@/lib/features/scores/types';
import { isDuplicateName, toConfigRecord } from './record';
import { checkConfig, type ScoreConfigInput } from './validate';

/**
 * Changes a config (admins). The result must hold together as a whole. Scores already
 * stored are left as they are: a config rules the writes that come after it.
 */
export async function updateScoreConfig(ctx: ServiceContext, id: string, patch: Partial<ScoreConfigInput>): Promise<ScoreConfigRecord> {
  requireScope(ctx, 'admin');
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid score config ID');
  const db = ctx.db.prisma;
  return db.$transaction(async (tx) => {
    const stored = await tx.scoreConfig.findUnique({ where: { id } });
    if (!stored) throw new AppError('NOT_FOUND', 'Score config not found');
    const next = checkConfig({
      name: patch.name ?? stored.name,
      dataType: patch.dataType ?? stored.dataType,
      categories: patch.categories ?? stored.categories,
      min: patch.min !== undefined ? patch.min : stored.min,
      max: patch.max !== undefined ? patch.max : stored.max,
      description: patch.description !== undefined ? patch.description : stored.description,
    });
    try {
      return toConfigRecord(await tx.scoreConfig.update({ where: { id }, data: { ...next, updatedAt: new Date() } }));
    } catch (err) {
      if (isDuplicateName(err)) throw new AppError('CONFLICT', `A score config named "${next.name}" already exists`);
      throw err;
    }
  });
}
