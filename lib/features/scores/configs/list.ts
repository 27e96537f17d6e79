import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { ScoreConfigRecord } from '@/lib/features/scores/types';
import { toConfigRecord } from './record';

/** Every score config, by name. Anyone who reads may see them: annotating needs them. */
export async function listScoreConfigs(ctx: ServiceContext): Promise<ScoreConfigRecord[]> {
  requireScope(ctx, 'read');
  const rows = await ctx.db.prisma.scoreConfig.findMany({ orderBy: { name: 'asc' } });
  return rows.map(toConfigRecord);
}
