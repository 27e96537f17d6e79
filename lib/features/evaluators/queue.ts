// The evaluation queue ("EvaluationJob", migration 20261208000000_evaluators): rows are
// added by a trigger when a run is linked, here by "Run evaluators", and here from
// "EvaluationQueue" (the ended traces a trigger queued for the live evaluators).
// A worker claims due rows for a lease, evaluates, and finishes each: done (with its score,
// in one transaction), skipped, failed, or queued again later (a judge that said 429/5xx).
// A worker that dies holds its rows only until the lease ends; the next claims them again.
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';

/** Claims after which a row fails instead of being tried again (crashes and judge errors alike). */
export const MAX_ATTEMPTS = 5;

export interface ClaimedJob {
  evaluatorId: string;
  traceId: string;
  attempts: number;
}

/**
 * Claims up to `limit` due rows of these evaluators, whose traces have ended: queued ones
 * due now, and running ones whose lease ran out. Rows another worker is claiming are
 * skipped, never waited for.
 */
export async function claimJobs(db: SqlExecutor, evaluatorIds: readonly string[], limit: number, leaseSeconds: number): Promise<ClaimedJob[]> {
  if (evaluatorIds.length === 0 || limit <= 0) return [];
  return db.query<ClaimedJob>(sql`
    WITH picked AS (
      SELECT j."evaluatorId", j."traceId" FROM "EvaluationJob" j
       WHERE j."state" IN ('queued', 'running') AND j."evaluatorId" = ANY(${evaluatorIds}::text[])
         AND ((j."state" = 'queued' AND j."notBefore" <= now()) OR (j."state" = 'running' AND j."leaseUntil" < now()))
         AND EXISTS (SELECT 1 FROM "Trace" t WHERE t."id" = j."traceId" AND t."status" <> 'RUNNING')
       ORDER BY j."notBefore" LIMIT ${limit}
       FOR UPDATE OF j SKIP LOCKED
    )
    UPDATE "EvaluationJob" j SET "state" = 'running', "attempts" = j."attempts" + 1,
           "leaseUntil" = now() + make_interval(secs => ${leaseSeconds}), "updatedAt" = now()
      FROM picked WHERE j."evaluatorId" = picked."evaluatorId" AND j."traceId" = picked."traceId"
    RETURNING j."evaluatorId", j."traceId", j."attempts"`);
}

const pairs = (jobs: readonly ClaimedJob[]) => ({ evaluators: jobs.map((j) => j.evaluatorId), traces: jobs.map((j) => j.traceId) });

/** Marks the jobs done (called inside the transaction that stores their scores). */
export async function markDone(db: SqlExecutor, jobs: readonly ClaimedJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const { evaluators, traces } = pairs(jobs);
  await db.query(sql`
    UPDATE "EvaluationJob" j SET "state" = 'done', "leaseUntil" = NULL, "error" = NULL, "updatedAt" = now()
      FROM unnest(${evaluators}::text[], ${traces}::text[]) AS p(e, t) WHERE j."evaluatorId" = p.e AND j."traceId" = p.t`);
}

/** Ends the jobs as skipped or failed, each with its reason. */
export async function markEnded(db: SqlExecutor, jobs: ReadonlyArray<ClaimedJob & { reason: string }>, state: 'skipped' | 'failed'): Promise<void> {
  if (jobs.length === 0) return;
  const { evaluators, traces } = pairs(jobs);
  await db.query(sql`
    UPDATE "EvaluationJob" j SET "state" = ${state}, "leaseUntil" = NULL, "error" = p.r, "updatedAt" = now()
      FROM unnest(${evaluators}::text[], ${traces}::text[], ${jobs.map((j) => j.reason)}::text[]) AS p(e, t, r)
     WHERE j."evaluatorId" = p.e AND j."traceId" = p.t`);
}

/** Queues the job again after `delayMs` (a judge that asked to wait, or was not reachable). */
export async function retryLater(db: SqlExecutor, job: ClaimedJob, delayMs: number, reason: string): Promise<void> {
  await db.query(sql`
    UPDATE "EvaluationJob" SET "state" = 'queued', "leaseUntil" = NULL, "error" = ${reason},
           "notBefore" = now() + make_interval(secs => ${delayMs / 1000}), "updatedAt" = now()
     WHERE "evaluatorId" = ${job.evaluatorId} AND "traceId" = ${job.traceId}`);
}

/**
 * Takes up to `limit` ended traces off the live queue, oldest first, and adds a job for
 * each enabled live evaluator that samples it, due from when the trace ended; one
 * statement, so a trace is never taken off without its jobs. Returns how many traces.
 */
export async function expandLiveQueue(db: SqlExecutor, limit: number): Promise<number> {
  const [row] = await db.query<{ traces: number }>(sql`
    WITH taken AS (
      DELETE FROM "EvaluationQueue" q WHERE q."traceId" IN (
        SELECT "traceId" FROM "EvaluationQueue" ORDER BY "queuedAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING q."traceId", q."queuedAt"
    ), added AS (
      INSERT INTO "EvaluationJob" ("evaluatorId", "traceId", "notBefore")
      SELECT e."id", t."traceId", t."queuedAt" FROM taken t CROSS JOIN "Evaluator" e
       WHERE e."enabled" AND e."targetOn" = 'live' AND "evaluation_sampled"(e."id", t."traceId", e."sampleRate")
       ORDER BY 1, 2
      ON CONFLICT DO NOTHING RETURNING 1
    )
    SELECT count(*)::int AS traces FROM taken`);
  return row.traces;
}

/** Removes rows of evaluators that no longer exist (one deleted while a trigger was adding rows for it). */
export async function dropOrphans(db: SqlExecutor): Promise<void> {
  await db.query(sql`
    DELETE FROM "EvaluationJob" j WHERE j."state" IN ('queued', 'running')
       AND NOT EXISTS (SELECT 1 FROM "Evaluator" e WHERE e."id" = j."evaluatorId")`);
}

/** Queues every run of the experiment for every enabled evaluator of its dataset (runs already evaluated stay as they are); returns how many were queued. */
export async function queueExperimentRuns(db: SqlExecutor, experimentId: string): Promise<{ queued: number; evaluators: number }> {
  const [row] = await db.query<{ queued: number; evaluators: number }>(sql`
    WITH evaluators AS (
      SELECT e."id" FROM "Evaluator" e JOIN "Experiment" x ON x."datasetId" = e."datasetId"
       WHERE x."id" = ${experimentId} AND e."enabled" AND e."targetOn" = 'experiments'
    ), added AS (
      INSERT INTO "EvaluationJob" ("evaluatorId", "traceId")
      SELECT DISTINCT ev."id", r."traceId" FROM evaluators ev CROSS JOIN "ExperimentRun" r WHERE r."experimentId" = ${experimentId}
      ORDER BY 1, 2
      ON CONFLICT DO NOTHING RETURNING 1
    )
    SELECT (SELECT count(*)::int FROM added) AS queued, (SELECT count(*)::int FROM evaluators) AS evaluators`);
  return row;
}

/** How long the oldest due work has waited, in ms (0: none waiting): a job, or an ended trace not yet expanded into its jobs. */
export async function evaluationLagMs(db: SqlExecutor): Promise<number> {
  const [row] = await db.query<{ lag: number | null }>(sql`
    SELECT (extract(epoch FROM now() - least(
      (SELECT min(j."notBefore") FROM "EvaluationJob" j WHERE j."state" IN ('queued', 'running') AND j."notBefore" <= now()),
      (SELECT min(q."queuedAt") FROM "EvaluationQueue" q))) * 1000)::float8 AS lag`);
  return Math.max(0, row?.lag ?? 0);
}
