import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { raw, sql } from '@/lib/db/sql';
import type { ScoreConfigRecord } from '@/lib/features/scores/types';
import { CONFIG_COLUMNS } from './read';

/** Every score config, by name. Anyone who reads may see them: annotating needs them. */
export async function listScoreConfigs(ctx: ServiceContext): Promise<ScoreConfigRecord[]> {
  requireScope(ctx, 'read');
  return ctx.db.sql.query<ScoreConfigRecord>(sql`SELECT ${raw(CONFIG_COLUMNS)} FROM "ScoreConfig" ORDER BY "name" ASC`);
}
