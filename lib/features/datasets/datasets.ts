// Datasets: create, list, read and delete (deleting takes its items, experiments and run
// links with it, by foreign keys; the traces stay).
import 'server-only';
import { randomUUID } from 'node:crypto';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { isUniqueViolation } from '@/lib/db/errors';
import { sql } from '@/lib/db/sql';
import { checkDatasetName } from './validate';
import { DATASET_FIELDS } from './record';
import type { CreateDatasetInput, Dataset } from './types';

export async function createDataset(ctx: ServiceContext, input: CreateDatasetInput): Promise<Dataset> {
  requireScope(ctx, 'curate');
  try {
    const [row] = await ctx.db.sql.query<Dataset>(sql`
      WITH d AS (
        INSERT INTO "Dataset" ("id", "name", "description", "metadata")
        VALUES (${randomUUID()}, ${input.name}, ${input.description}, ${input.metadata === null ? null : JSON.stringify(input.metadata)}::jsonb)
        RETURNING *
      )
      SELECT ${DATASET_FIELDS} FROM d`);
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', `A dataset named "${input.name}" already exists`);
    throw err;
  }
}

export interface DatasetPage {
  datasets: Dataset[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

/** Newest first. */
export async function listDatasets(ctx: ServiceContext, { page, limit }: { page: number; limit: number }): Promise<DatasetPage> {
  requireScope(ctx, 'read');
  const [{ total }] = await ctx.db.sql.query<{ total: number }>(sql`SELECT count(*)::int AS total FROM "Dataset"`);
  const datasets = await ctx.db.sql.query<Dataset>(sql`
    SELECT ${DATASET_FIELDS} FROM "Dataset" d ORDER BY d."createdAt" DESC, d."id" DESC LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
  return { datasets, total, page, limit, totalPages: Math.ceil(total / limit) };
}

/** The dataset of this name, or a 404. */
export async function getDataset(ctx: ServiceContext, name: string): Promise<Dataset> {
  requireScope(ctx, 'read');
  const [row] = await ctx.db.sql.query<Dataset>(sql`SELECT ${DATASET_FIELDS} FROM "Dataset" d WHERE d."name" = ${checkDatasetName(name, 'Dataset name')}`);
  if (!row) throw new AppError('NOT_FOUND', 'Dataset not found');
  return row;
}

/** Removes the dataset, its items, its experiments and their run links; the traces stay. */
export async function deleteDataset(ctx: ServiceContext, name: string): Promise<void> {
  requireScope(ctx, 'delete');
  const deleted = await ctx.db.sql.query(sql`DELETE FROM "Dataset" WHERE "name" = ${checkDatasetName(name, 'Dataset name')} RETURNING "id"`);
  if (deleted.length === 0) throw new AppError('NOT_FOUND', 'Dataset not found');
}
