// GET /api/experiments/{id}: the experiment and its summary; the experiments of a dataset.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { sql } from '@/lib/db/sql';
import { checkDatasetName } from '@/lib/features/datasets/shared';
import { EXPERIMENT_FIELDS, experimentById, itemFacts, runRows } from './record';
import { summarize } from './summary';
import type { Experiment, ExperimentSummary } from './types';

export async function getExperiment(ctx: ServiceContext, id: string): Promise<{ experiment: Experiment; summary: ExperimentSummary }> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const { datasetId, ...experiment } = await experimentById(db, id);

  const [runs, items] = await Promise.all([runRows(db, [id]), itemFacts(db, datasetId)]);
  return { experiment, summary: summarize(runs, items, experiment.passCriteria) };
}

/** A dataset's experiments with their summaries, newest first. */
export async function datasetExperiments(ctx: ServiceContext, dataset: string): Promise<Array<{ experiment: Experiment; summary: ExperimentSummary }>> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const rows = await db.query<Experiment & { datasetId: string }>(sql`
    SELECT ${EXPERIMENT_FIELDS}, e."datasetId" FROM "Experiment" e JOIN "Dataset" d ON d."id" = e."datasetId"
     WHERE d."name" = ${checkDatasetName(dataset, 'Dataset name')} ORDER BY e."createdAt" DESC, e."id" DESC`);
  if (rows.length === 0) {
    const [exists] = await db.query(sql`SELECT 1 FROM "Dataset" WHERE "name" = ${dataset}`);
    if (!exists) throw new AppError('NOT_FOUND', 'Dataset not found');
    return [];
  }
  const [runs, items] = await Promise.all([runRows(db, rows.map((r) => r.id)), itemFacts(db, rows[0].datasetId)]);
  return rows.map((row) => {
    const experiment: Experiment = { id: row.id, dataset: row.dataset, name: row.name, metadata: row.metadata, passCriteria: row.passCriteria, createdAt: row.createdAt };
    return { experiment, summary: summarize(runs.filter((r) => r.experimentId === row.id), items, row.passCriteria) };
  });
}
