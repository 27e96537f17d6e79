import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { raw, sql } from '@/lib/db/sql';
import { isValidId } from '@/lib/features/ingest/shared';
import type { ScoreConfigRecord } from '@/lib/features/scores/types';
import { isUniqueViolation } from '@/lib/db/errors';
import { CONFIG_COLUMNS } from './read';
import { checkConfig, type ScoreConfigInput } from './validate';

/**
 * Changes a config (admins). The result must hold together as a whole. Scores already
 * stored are left as they are: a config rules the writes that come after it.
 */
export async function updateScoreConfig(ctx: ServiceContext, id: string, patch: Partial<ScoreConfigInput>): Promise<ScoreConfigRecord> {
  requireScope(ctx, 'configure');
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid score config ID');
  return ctx.db.sql.transaction(async (tx) => {
    const [stored] = await tx.query<ScoreConfigRecord>(sql`SELECT ${raw(CONFIG_COLUMNS)} FROM "ScoreConfig" WHERE "id" = ${id}`);
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
      const [row] = await tx.query<ScoreConfigRecord>(sql`
        UPDATE "ScoreConfig" SET "name" = ${next.name}, "dataType" = ${next.dataType}::"ScoreDataType", "categories" = ${next.categories}::text[],
          "min" = ${next.min}::double precision, "max" = ${next.max}::double precision, "description" = ${next.description}::text, "updatedAt" = ${new Date()}
        WHERE "id" = ${id} RETURNING ${raw(CONFIG_COLUMNS)}`);
      return row;
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT', `A score config named "${next.name}" already exists`);
      throw err;
    }
  });
}
