import 'server-only';
import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { ScoreConfigRecord } from '@/lib/features/scores/types';
import { isDuplicateName, toConfigRecord } from './record';
import type { ScoreConfigInput } from './validate';

/** Creates a config (admins); CONFLICT when its name has one already. */
export async function createScoreConfig(ctx: ServiceContext, input: ScoreConfigInput): Promise<ScoreConfigRecord> {
  requireScope(ctx, 'admin');
  try {
    return toConfigRecord(await ctx.db.prisma.scoreConfig.create({ data: { id: randomUUID(), ...input } }));
  } catch (err) {
    if (isDuplicateName(err)) throw new AppError('CONFLICT', `A score config named "${input.name}" already exists`);
    throw err;
  }
}
