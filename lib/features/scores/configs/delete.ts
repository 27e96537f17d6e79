import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';
import { isValidId } from '@/lib/features/ingest/shared';

/** Deletes a config (admins); its name's scores stay, unconstrained from then on. */
export async function deleteScoreConfig(ctx: ServiceContext, id: string): Promise<void> {
  requireScope(ctx, 'configure');
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid score config ID');
  const deleted = await ctx.db.sql.query(sql`DELETE FROM "ScoreConfig" WHERE "id" = ${id} RETURNING "id"`);
  if (deleted.length === 0) throw new AppError('NOT_FOUND', 'Score config not found');
}
