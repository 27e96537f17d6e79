// POST /api/experiments: one run of a dataset by one version of an agent.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { isUniqueViolation } from '@/lib/db/errors';
import { sql } from '@/lib/db/sql';
import { EXPERIMENT_FIELDS } from './record';
import type { CreateExperimentInput, Experiment } from './types';

export async function createExperiment(ctx: ServiceContext, input: CreateExperimentInput): Promise<Experiment> {
  requireScope(ctx, 'curate');
  try {
    const [row] = await ctx.db.sql.query<Experiment>(sql`
      WITH e AS (
        INSERT INTO "Experiment" ("id", "datasetId", "name", "metadata", "passCriteria")
        SELECT ${randomUUID()}, d."id", ${input.name}, ${input.metadata === null ? null : JSON.stringify(input.metadata)}::jsonb, ${JSON.stringify(input.passCriteria)}::jsonb
          FROM "Dataset" d WHERE d."name" = ${input.dataset}
        RETURNING *
      )
      SELECT ${EXPERIMENT_FIELDS} FROM e JOIN "Dataset" d ON d."id" = e."datasetId"`);
    if (!row) throw new AppError('NOT_FOUND', `Dataset "${input.dataset}" not found`);
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', `Dataset "${input.dataset}" already has an experiment named "${input.name}"`);
    throw err;
  }
}
