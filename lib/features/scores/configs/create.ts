import 'server-only';
import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { raw, sql } from '@/lib/db/sql';
import type { ScoreConfigRecord } from '@/lib/features/scores/types';
import { CONFIG_COLUMNS } from './read';
import type { ScoreConfigInput } from './validate';
import { isUniqueViolation } from '@/lib/db/errors';

/** Creates a config (admins); CONFLICT when its name has one already. */
export async function createScoreConfig(ctx: ServiceContext, input: ScoreConfigInput): Promise<ScoreConfigRecord> {
  requireScope(ctx, 'configure');
  try {
    const [row] = await ctx.db.sql.query<ScoreConfigRecord>(sql`
      INSERT INTO "ScoreConfig" ("id", "name", "dataType", "categories", "min", "max", "description")
      VALUES (${randomUUID()}, ${input.name}, ${input.dataType}::"ScoreDataType", ${input.categories}::text[], ${input.min}::double precision,
        ${input.max}::double precision, ${input.description}::text)
      RETURNING ${raw(CONFIG_COLUMNS)}`);
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', `A score config named "${input.name}" already exists`);
    throw err;
  }
}
