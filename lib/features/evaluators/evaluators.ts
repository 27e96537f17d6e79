// Evaluators: create, list, read, change and delete. Setting them up is configuration
// (admins; anyone in open mode); reading them is a read. Deleting one removes its queue
// rows; the scores it wrote stay, as a person's do.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { getEvaluatorConfig } from '@/lib/core/config';
import { AppError } from '@/lib/core/errors';
import { isUniqueViolation } from '@/lib/db/errors';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';
import { EVALUATOR_LIMITS } from './limits';
import { publicEvaluator, readEvaluators, type StoredEvaluator } from './record';
import type { Evaluator, EvaluatorInput, EvaluatorJobCounts } from './types';

const notFound = (): never => {
  throw new AppError('NOT_FOUND', 'Evaluator not found');
};

/** The id of the target's dataset (experiments: null when there is none of that name; live: null). */
export async function targetDatasetId(db: SqlExecutor, target: EvaluatorInput['target']): Promise<string | null> {
  if (target.on !== 'experiments' || !target.dataset) return null;
  const [row] = await db.query<{ id: string }>(sql`SELECT "id" FROM "Dataset" WHERE "name" = ${target.dataset}`);
  return row?.id ?? null;
}

/** The id of the target's dataset (experiments), or a 404 naming it. */
async function datasetIdOf(db: SqlExecutor, input: EvaluatorInput): Promise<string | null> {
  const id = await targetDatasetId(db, input.target);
  if (input.target.on === 'experiments' && id === null) throw new AppError('NOT_FOUND', `target.dataset: dataset "${input.target.dataset}" not found`);
  return id;
}

/** An llm_judge needs the judge configured: said when it is set up, not at its first run. */
function checkRunnable(input: EvaluatorInput): void {
  if (input.kind === 'llm_judge' && !getEvaluatorConfig().judge) {
    throw new AppError('VALIDATION', 'kind llm_judge needs the judge configured on the server: JUDGE_BASE_URL and JUDGE_MODEL (docs/evaluation.md)');
  }
}

function conflict(err: unknown, name: string): never {
  if (isUniqueViolation(err)) throw new AppError('CONFLICT', `An evaluator named "${name}" already exists`);
  throw err;
}

export async function createEvaluator(ctx: ServiceContext, input: EvaluatorInput): Promise<Evaluator> {
  requireScope(ctx, 'configure');
  checkRunnable(input);
  const db = ctx.db.sql;
  const datasetId = await datasetIdOf(db, input);
  const id = randomUUID();
  try {
    const inserted = await db.query<{ id: string }>(sql`
      INSERT INTO "Evaluator" ("id", "name", "kind", "config", "scoreName", "targetOn", "datasetId", "query", "sampleRate", "enabled")
      SELECT ${id}, ${input.name}, ${input.kind}, ${JSON.stringify(input.config)}::jsonb, ${input.scoreName}, ${input.target.on}, ${datasetId},
             ${input.target.query}, ${input.target.sampleRate}, ${input.enabled}
       WHERE (SELECT count(*) FROM "Evaluator") < ${EVALUATOR_LIMITS.evaluators}
      RETURNING "id"`);
    if (inserted.length === 0) throw new AppError('VALIDATION', `At most ${EVALUATOR_LIMITS.evaluators} evaluators: delete one first`);
  } catch (err) {
    conflict(err, input.name);
  }
  return getEvaluator(ctx, id);
}

export async function listEvaluators(ctx: ServiceContext): Promise<Evaluator[]> {
  requireScope(ctx, 'read');
  return (await readEvaluators(ctx.db.sql)).map(publicEvaluator);
}

/** Every evaluator as stored, for the system's own work (the runner, "Try on a trace"). */
export async function storedEvaluator(db: SqlExecutor, id: string): Promise<StoredEvaluator> {
  const [found] = await readEvaluators(db, sql`e."id" = ${id}`);
  return found ?? notFound();
}

export async function getEvaluator(ctx: ServiceContext, id: string): Promise<Evaluator> {
  requireScope(ctx, 'read');
  return publicEvaluator(await storedEvaluator(ctx.db.sql, id));
}

/** How the evaluator's work stands: its queue rows by state, and its latest failure. */
export async function evaluatorJobCounts(ctx: ServiceContext, id: string): Promise<EvaluatorJobCounts> {
  requireScope(ctx, 'read');
  const [row] = await ctx.db.sql.query<EvaluatorJobCounts>(sql`
    SELECT count(*) FILTER (WHERE "state" = 'queued')::int AS queued, count(*) FILTER (WHERE "state" = 'running')::int AS running,
           count(*) FILTER (WHERE "state" = 'done')::int AS done, count(*) FILTER (WHERE "state" = 'skipped')::int AS skipped,
           count(*) FILTER (WHERE "state" = 'failed')::int AS failed,
           (SELECT j."error" FROM "EvaluationJob" j WHERE j."evaluatorId" = ${id} AND j."state" = 'failed' ORDER BY j."updatedAt" DESC LIMIT 1) AS "lastError"
      FROM "EvaluationJob" WHERE "evaluatorId" = ${id}`);
  return row;
}

/** The stored evaluator as input, for a PATCH to merge into. */
export async function evaluatorInputOf(ctx: ServiceContext, id: string): Promise<EvaluatorInput> {
  requireScope(ctx, 'configure');
  const { name, kind, config, scoreName, target, enabled } = await storedEvaluator(ctx.db.sql, id);
  return { name, kind, config, scoreName, target, enabled };
}

export async function updateEvaluator(ctx: ServiceContext, id: string, input: EvaluatorInput): Promise<Evaluator> {
  requireScope(ctx, 'configure');
  checkRunnable(input);
  const db = ctx.db.sql;
  const datasetId = await datasetIdOf(db, input);
  try {
    const updated = await db.query(sql`
      UPDATE "Evaluator" SET "name" = ${input.name}, "kind" = ${input.kind}, "config" = ${JSON.stringify(input.config)}::jsonb,
             "scoreName" = ${input.scoreName}, "targetOn" = ${input.target.on}, "datasetId" = ${datasetId}, "query" = ${input.target.query},
             "sampleRate" = ${input.target.sampleRate}, "enabled" = ${input.enabled}, "updatedAt" = CURRENT_TIMESTAMP
       WHERE "id" = ${id} RETURNING "id"`);
    if (updated.length === 0) notFound();
  } catch (err) {
    conflict(err, input.name);
  }
  return getEvaluator(ctx, id);
}

/** Removes the evaluator and its queue; its scores stay. */
export async function deleteEvaluator(ctx: ServiceContext, id: string): Promise<void> {
  requireScope(ctx, 'configure');
  await ctx.db.sql.transaction(async (tx) => {
    const deleted = await tx.query(sql`DELETE FROM "Evaluator" WHERE "id" = ${id} RETURNING "id"`);
    if (deleted.length === 0) notFound();
    await tx.query(sql`DELETE FROM "EvaluationJob" WHERE "evaluatorId" = ${id}`);
  });
}
