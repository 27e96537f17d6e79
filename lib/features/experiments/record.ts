// How experiments and their runs are read.
import type { SqlExecutor } from '@/lib/db/executor';
import { raw, sql, type Sql } from '@/lib/db/sql';
import { isoSql } from '@/lib/db/columns';
import { AppError } from '@/lib/core/errors';
import type { ExpectedDecision } from '@/lib/features/datasets/shared';
import type { Experiment, RunRow } from './types';

/** An experiment `e` with its dataset `d`'s name. */
export const EXPERIMENT_FIELDS: Sql = sql`e."id", d."name" AS "dataset", e."name", e."metadata", coalesce(e."passCriteria", '[]'::jsonb) AS "passCriteria",
  ${raw(isoSql('e."createdAt"'))} AS "createdAt"`;

export interface StoredExperiment extends Experiment {
  datasetId: string;
}

/** The experiments of these ids (as many as exist), each with its dataset's id. */
export async function experimentsById(db: SqlExecutor, ids: readonly string[]): Promise<StoredExperiment[]> {
  return db.query<StoredExperiment>(sql`
    SELECT ${EXPERIMENT_FIELDS}, e."datasetId" FROM "Experiment" e JOIN "Dataset" d ON d."id" = e."datasetId"
     WHERE e."id" = ANY(${ids}::text[])`);
}

export async function experimentById(db: SqlExecutor, id: string): Promise<StoredExperiment> {
  const [found] = await experimentsById(db, [id]);
  if (!found) throw new AppError('NOT_FOUND', 'Experiment not found');
  return found;
}

/** The fields an item gives the figures: its expected decisions, and whether it counts. */
export interface ItemFacts {
  id: string;
  expectedDecisions: ExpectedDecision[] | null;
  archived: boolean;
}

export async function itemFacts(db: SqlExecutor, datasetId: string): Promise<ItemFacts[]> {
  return db.query<ItemFacts>(sql`SELECT i."id", i."expectedDecisions", i."archived" FROM "DatasetItem" i WHERE i."datasetId" = ${datasetId} ORDER BY i."seq"`);
}

/**
 * Every run of these experiments with its trace's figures (cost and duration as the paths
 * read them), its decision path computed from its decision points, and its trace-level scores.
 */
export async function runRows(db: SqlExecutor, experimentIds: readonly string[]): Promise<RunRow[]> {
  return db.query<RunRow>(sql`
    WITH runs AS MATERIALIZED (
      SELECT r."experimentId", r."itemId", r."repetition", r."traceId", t."status", t."totalTokens" AS tokens,
             "paths_trace_cost"(t."id", t."totalCost") AS "costUsd",
             "paths_trace_duration"(t."status", t."startedAt", t."endedAt") AS "durationMs"
        FROM "ExperimentRun" r JOIN "Trace" t ON t."id" = r."traceId"
       WHERE r."experimentId" = ANY(${experimentIds}::text[])
    ), paths AS MATERIALIZED (
      SELECT p."traceId", p."steps" FROM "decision_paths"(ARRAY(SELECT DISTINCT runs."traceId" FROM runs)) p
    ), scores AS MATERIALIZED (
      SELECT s."traceId", json_agg(json_build_object('name', s."name", 'value', s."value", 'stringValue', s."stringValue") ORDER BY s."name") AS scores
        FROM "Score" s
       WHERE s."traceId" IN (SELECT runs."traceId" FROM runs) AND s."spanId" IS NULL AND s."decisionPointId" IS NULL
       GROUP BY s."traceId"
    )
    SELECT runs.*, coalesce(paths."steps", '[]'::jsonb) AS steps, coalesce(scores.scores, '[]'::json) AS scores
      FROM runs LEFT JOIN paths ON paths."traceId" = runs."traceId" LEFT JOIN scores ON scores."traceId" = runs."traceId"
     ORDER BY runs."experimentId", runs."itemId", runs."repetition"`);
}
