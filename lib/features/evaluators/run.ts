// The evaluation worker: claims due jobs from the queue (queue.ts), evaluates them, and
// stores each score with its job marked done in one transaction, so a crash anywhere
// leaves the job to be claimed again when its lease ends and never stores a score twice
// (a score's id is made from its evaluator and trace: writing it again rewrites it).
// Rules run in batches; the judge a few calls at a time, within its rate limit.
import 'server-only';
import { createHash } from 'node:crypto';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { isAppError } from '@/lib/core/errors';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';
import { parseTraceFilters, TRACE_FILTER_NAMES, traceWhereSql } from '@/lib/features/query';
import { evaluatorWriter, saveScoreGroupsAs, saveScoresAs, type ScoreInput } from '@/lib/features/scores';
import { evaluatorOf } from './evaluate';
import { factsFor, traceRuns, type TraceRun } from './facts';
import { JudgeError, judgeRun, TransientJudgeError } from './judge';
import { claimJobs, dropOrphans, expandLiveQueue, markDone, markEnded, MAX_ATTEMPTS, retryLater, type ClaimedJob } from './queue';
import { readEvaluators, type StoredEvaluator } from './record';
import { traceTrajectory } from './trajectory';
import type { EvaluationResult } from './types';
import { parseJudgeConfig } from './validate';

/** Rule jobs claimed at once (a hundred traces' worth for five evaluators); judge calls in flight at once per evaluator. */
export const RULE_BATCH = 2_500;
export const JUDGE_CONCURRENCY = 4;

export interface EvaluationRunReport {
  evaluated: number;
  skipped: number;
  failed: number;
  retried: number;
  /** Whether the queue had nothing more this run could take (the judge's rate limit may hold some back). */
  drained: boolean;
}

/** A score's id for an (evaluator, trace): the same pair always writes the same score. */
export function evaluationScoreId(evaluatorId: string, traceId: string): string {
  return `eval-${createHash('sha256').update(`${evaluatorId}\u0000${traceId}`).digest('hex').slice(0, 40)}`;
}

/** How long a judge job waits before its next try: doubling from 2 s, at most 5 minutes, with jitter. */
export function backoffMs(attempts: number): number {
  const base = Math.min(300_000, 2_000 * 2 ** Math.max(0, attempts - 1));
  return base / 2 + Math.random() * (base / 2);
}

// The judge's calls of the last minute per evaluator, in this process.
const judgeCalls = new Map<string, number[]>();

function judgeCallsLeft(evaluatorId: string, perMinute: number, now = Date.now()): number {
  const recent = (judgeCalls.get(evaluatorId) ?? []).filter((t) => now - t < 60_000);
  judgeCalls.set(evaluatorId, recent);
  return Math.max(0, perMinute - recent.length);
}

/** Forgets the judge's recent calls (tests). */
export function resetJudgeRateLimits(): void {
  judgeCalls.clear();
}

type Failed = ClaimedJob & { reason: string };
type Done = { job: ClaimedJob; result: EvaluationResult };

/** The jobs whose traces match their live evaluator's query; the others, as skipped. */
async function matchQueries(db: SqlExecutor, evaluator: StoredEvaluator, jobs: readonly ClaimedJob[]): Promise<{ matching: ClaimedJob[]; skipped: Failed[] }> {
  if (evaluator.target.on !== 'live' || evaluator.target.query === '') return { matching: [...jobs], skipped: [] };
  const filters = parseTraceFilters(new URLSearchParams(evaluator.target.query), TRACE_FILTER_NAMES);
  const ids = jobs.map((j) => j.traceId);
  const rows = await db.query<{ id: string }>(sql`SELECT m."id" FROM (SELECT t."id" FROM "Trace" t ${traceWhereSql(filters)}) m WHERE m."id" = ANY(${ids}::text[])`);
  const found = new Set(rows.map((r) => r.id));
  return {
    matching: jobs.filter((j) => found.has(j.traceId)),
    skipped: jobs.filter((j) => !found.has(j.traceId)).map((j) => ({ ...j, reason: 'The trace does not match the evaluator\'s query.' })),
  };
}

function scoreInput(evaluator: StoredEvaluator, traceId: string, result: EvaluationResult): ScoreInput {
  const evaluatorMeta = { evaluator: { id: evaluator.id, name: evaluator.name, kind: evaluator.kind } };
  return {
    id: evaluationScoreId(evaluator.id, traceId),
    target: { kind: 'trace', traceId },
    name: evaluator.scoreName,
    value: result.value,
    dataType: result.dataType,
    explicitType: true,
    comment: result.comment,
    metadata: { ...evaluatorMeta, ...(result.metadata && typeof result.metadata === 'object' && !Array.isArray(result.metadata) ? result.metadata : {}) },
    path: `evaluator "${evaluator.name}"`,
  };
}

/**
 * Stores one evaluator's scores and marks their jobs done, together. When the batch is
 * refused (a trace deleted meanwhile, a score config the score does not fit), each is
 * tried alone and the refused ones fail with the reason.
 */
async function store(ctx: ServiceContext, evaluator: StoredEvaluator, done: readonly Done[]): Promise<Failed[]> {
  const write = (items: typeof done) =>
    saveScoresAs(
      ctx,
      items.map(({ job, result }) => scoreInput(evaluator, job.traceId, result)),
      evaluatorWriter(evaluator),
      (tx) => markDone(tx, items.map((d) => d.job)),
    );
  if (done.length === 0) return [];
  try {
    await write(done);
    return [];
  } catch (err) {
    if (!isAppError(err) || done.length === 1) {
      if (isAppError(err)) return [{ ...done[0].job, reason: err.message }];
      throw err;
    }
  }
  const failed: Failed[] = [];
  for (const one of done) failed.push(...(await store(ctx, evaluator, [one])));
  return failed;
}

const tooMany = (job: ClaimedJob) => job.attempts > MAX_ATTEMPTS;
const gaveUp = (job: ClaimedJob): Failed => ({ ...job, reason: `Gave up after ${MAX_ATTEMPTS} attempts.` });

/** One evaluator's claimed rule jobs, evaluated: what to store, skip and fail. */
async function evaluateRuleJobs(db: SqlExecutor, evaluator: StoredEvaluator, jobs: readonly ClaimedJob[], runs: Map<string, TraceRun>): Promise<{ done: Done[]; skipped: Failed[]; failed: Failed[] }> {
  const { matching, skipped } = await matchQueries(db, evaluator, jobs.filter((j) => !tooMany(j)));
  const failed: Failed[] = jobs.filter(tooMany).map(gaveUp);
  const done: Done[] = [];
  let evaluate: ReturnType<typeof evaluatorOf>;
  try {
    evaluate = evaluatorOf(evaluator.kind as Exclude<typeof evaluator.kind, 'llm_judge'>, evaluator.config);
  } catch (err) {
    if (!isAppError(err)) throw err;
    return { done, skipped, failed: [...failed, ...matching.map((job) => ({ ...job, reason: err.message }))] };
  }
  for (const job of matching) {
    const run = runs.get(job.traceId);
    if (!run) continue; // deleted meanwhile: its job went with it
    try {
      const result = evaluate(factsFor(run, evaluator.datasetId));
      if (result) done.push({ job, result });
      else skipped.push({ ...job, reason: 'Nothing to judge: the run has no expectation or figure this evaluator compares.' });
    } catch (err) {
      if (!isAppError(err)) throw err;
      failed.push({ ...job, reason: err.message });
    }
  }
  return { done, skipped, failed };
}

/**
 * A batch of claimed rule jobs, every evaluator's: evaluated, then every score stored with
 * its job marked done in one transaction; when that is refused, evaluator by evaluator
 * (and job by job), so one refusal fails only its own job.
 */
async function finishRuleJobs(ctx: ServiceContext, byId: Map<string, StoredEvaluator>, claimed: readonly ClaimedJob[], runs: Map<string, TraceRun>, report: EvaluationRunReport): Promise<void> {
  const db = ctx.db.sql;
  const outcomes = [];
  for (const [id, jobs] of groupBy(claimed, (j) => j.evaluatorId)) {
    const evaluator = byId.get(id)!;
    outcomes.push({ evaluator, ...(await evaluateRuleJobs(db, evaluator, jobs, runs)) });
  }
  const refused: Failed[] = [];
  const done = outcomes.flatMap((o) => o.done.map((d) => d.job));
  try {
    await saveScoreGroupsAs(
      ctx,
      outcomes.map((o) => ({ scores: o.done.map(({ job, result }) => scoreInput(o.evaluator, job.traceId, result)), writer: evaluatorWriter(o.evaluator) })),
      (tx) => markDone(tx, done),
    );
  } catch (err) {
    if (!isAppError(err)) throw err;
    for (const o of outcomes) refused.push(...(await store(ctx, o.evaluator, o.done)));
  }
  const skipped = outcomes.flatMap((o) => o.skipped);
  const failed = [...outcomes.flatMap((o) => o.failed), ...refused];
  await markEnded(db, skipped, 'skipped');
  await markEnded(db, failed, 'failed');
  report.evaluated += done.length - refused.length;
  report.skipped += skipped.length;
  report.failed += failed.length;
}

/** One judge job: asked, then stored, retried later, or failed. */
async function finishJudgeJob(ctx: ServiceContext, evaluator: StoredEvaluator, job: ClaimedJob, report: EvaluationRunReport): Promise<void> {
  const db = ctx.db.sql;
  const endpoint = ctx.config.evaluatorConfig.judge;
  const fail = async (reason: string) => {
    await markEnded(db, [{ ...job, reason }], 'failed');
    report.failed++;
  };
  if (tooMany(job)) return fail(gaveUp(job).reason);
  if (!endpoint) return fail('The judge is not configured on this server (JUDGE_BASE_URL, JUDGE_MODEL).');
  const { matching, skipped } = await matchQueries(db, evaluator, [job]);
  if (skipped.length) {
    await markEnded(db, skipped, 'skipped');
    report.skipped++;
    return;
  }
  const run = (await traceRuns(db, [matching[0].traceId])).get(job.traceId);
  if (!run) return;
  const config = parseJudgeConfig(evaluator.config);
  try {
    const trajectory = config.prompt.includes('trajectory') ? await traceTrajectory(db, job.traceId, config.maxTrajectoryChars) : '';
    const result = await judgeRun(endpoint, ctx.config.modelPrices, config, factsFor(run, evaluator.datasetId), trajectory);
    const refused = await store(ctx, evaluator, [{ job, result }]);
    if (refused.length) {
      await markEnded(db, refused, 'failed');
      report.failed++;
    } else report.evaluated++;
  } catch (err) {
    if (err instanceof TransientJudgeError && job.attempts < MAX_ATTEMPTS) {
      await retryLater(db, job, err.retryAfterMs ?? backoffMs(job.attempts), err.message);
      report.retried++;
      return;
    }
    if (err instanceof JudgeError) return fail(err.message);
    throw err;
  }
}

/**
 * Evaluates due jobs until the queue has none this run can take, or `budgetMs` has passed
 * (checked between batches of `ruleBatch` rule jobs; `shouldStop` too, e.g. to yield to
 * ingest). Runs as the server.
 */
export async function runEvaluations(
  ctx: ServiceContext,
  { budgetMs, shouldStop = () => false, ruleBatch = RULE_BATCH }: { budgetMs: number; shouldStop?: () => boolean; ruleBatch?: number },
): Promise<EvaluationRunReport> {
  requireScope(ctx, 'ingest');
  const db = ctx.db.sql;
  const deadline = Date.now() + budgetMs;
  const lease = ctx.config.evaluatorConfig.leaseSeconds;
  const report: EvaluationRunReport = { evaluated: 0, skipped: 0, failed: 0, retried: 0, drained: false };
  await dropOrphans(db);
  const evaluators = await readEvaluators(db, sql`e."enabled"`);
  const byId = new Map(evaluators.map((e) => [e.id, e]));
  const rules = evaluators.filter((e) => e.kind !== 'llm_judge').map((e) => e.id);
  const judges = evaluators.filter((e) => e.kind === 'llm_judge');
  const live = evaluators.filter((e) => e.target.on === 'live').length;
  for (;;) {
    // Ended traces become their live evaluators' jobs, about a batch's worth at a time.
    let worked = (await expandLiveQueue(db, Math.max(1, Math.ceil(ruleBatch / Math.max(1, live))))) > 0;
    const claimed = await claimJobs(db, rules, ruleBatch, lease);
    if (claimed.length > 0) {
      worked = true;
      const runs = await traceRuns(db, [...new Set(claimed.map((j) => j.traceId))]);
      await finishRuleJobs(ctx, byId, claimed, runs, report);
    }
    await Promise.all(
      judges.map(async (judge) => {
        const left = judgeCallsLeft(judge.id, parseJudgeConfig(judge.config).ratePerMinute);
        const jobs = await claimJobs(db, [judge.id], Math.min(left, JUDGE_CONCURRENCY), lease);
        if (jobs.length === 0) return;
        worked = true;
        judgeCalls.get(judge.id)!.push(...jobs.map(() => Date.now()));
        await Promise.all(jobs.map((job) => finishJudgeJob(ctx, judge, job, report)));
      }),
    );
    if (!worked) {
      report.drained = true;
      break;
    }
    if (Date.now() >= deadline || shouldStop()) break;
  }
  return report;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

