// Upkeep that no single request owns:
// - closing OTLP traces whose root span never came (lib/features/ingest/close-idle.ts), at most
//   once per HOUSEKEEPING_INTERVAL_MS per process;
// - folding the insights deltas into their hour rollups (lib/features/insights/compact.ts; reads
//   also do it, this keeps the deltas short when nobody reads insights), and storing the
//   paths of the traces whose decisions changed (lib/features/paths/compact.ts), with it, and the
//   per-status trace count deltas into their counters (lib/features/traces/status-counts.ts);
// - retention: when RETENTION_DAYS is set, deleting traces that started longer ago
//   (lib/features/retention/delete.ts), in batches of 500 traces, each its own short transaction,
//   at most once per RETENTION_INTERVAL_MS per process.
// - indexing full-text search: the traces ingest queued get their words indexed
//   (lib/features/search/search-index.ts), a run at most once per SEARCH_INDEX_INTERVAL_MS per
//   process: the timer's until the queue is empty, a cron call's for
//   CRON_SEARCH_INDEX_BUDGET_MS, and either for only SEARCH_INDEX_BUSY_BUDGET_MS while
//   ingest is in progress.
// - evaluating: the evaluators' queue (lib/features/evaluators/run.ts), a run at most once
//   per EVALUATION_INTERVAL_MS per process, yielding to ingest as search indexing does.
// They run two ways, never by building a request's context:
// - on a timer in a long-running server (instrumentation.ts starts it; retention also
//   runs once right at start);
// - on a platform's cron (serverless hosts run no timer): GET /api/upkeep runs every task
//   once (runUpkeepNow), with CRON_SECRET as its bearer token (docs/deployment.md).
// Everything here acts as the server itself (systemContext), never as a request's caller.
// Several processes may run retention at once: each batch skips traces another holds.
import 'server-only';
import { systemContext } from '@/lib/core/context';
import { getDatabase } from '@/lib/db';
import { getOtlpConfig, getRetentionDays } from '@/lib/core/config';
import { bodiesBusyMs, bodiesInFlight } from '@/lib/core/admission';
import { compactInsights } from '@/lib/features/insights';
import { compactPaths } from '@/lib/features/paths';
import { closeIdleTraces } from '@/lib/features/ingest';
import { deleteExpiredTraces } from '@/lib/features/retention';
import { foldTraceStatusCounts } from '@/lib/features/traces';
import { indexSearchBacklog, searchLagMs, type SearchIndexRun } from '@/lib/features/search';
import { evaluationLagMs, runEvaluations, type EvaluationRunReport } from '@/lib/features/evaluators';

export const HOUSEKEEPING_INTERVAL_MS = 60_000;
export const RETENTION_INTERVAL_MS = 10 * 60_000;
/**
 * How often a process indexes search, and for how long. Indexing is background work:
 * - while this process receives or stores a request body (ingest), a run stops after
 *   SEARCH_INDEX_BUSY_BUDGET_MS: at most an eighth of one database connection's time
 *   (250 ms in 2 s), so ingest keeps its rate;
 * - otherwise the timer's run (a long-running server) goes on until the queue is empty,
 *   catching up, with SEARCH_INDEX_IDLE_SESSIONS sessions on PostgreSQL (the extra ones
 *   only start, and only go on, while no ingest is in progress); a cron call's run stops
 *   after CRON_SEARCH_INDEX_BUDGET_MS (serverless hosts cap a function's time), and a run
 *   given no budget after SEARCH_INDEX_BUDGET_MS;
 * - but once the oldest queued trace waited SEARCH_INDEX_MAX_LAG_MS, a run's first session
 *   no longer yields to ingest: under ingest that never pauses, search lags by about a
 *   minute at most before indexing takes its whole share, instead of falling further
 *   behind. (A long backlog makes searches slow: every queued trace is tested row by row.)
 * Each checks after each batch of SEARCH_INDEX_BATCH traces. Searches stay complete
 * meanwhile: queued traces are tested row by row (lib/features/query/search-sql.ts).
 */
export const SEARCH_INDEX_INTERVAL_MS = 2_000;
export const SEARCH_INDEX_BUDGET_MS = 1_000;
export const SEARCH_INDEX_BUSY_BUDGET_MS = 250;
export const SEARCH_INDEX_MAX_LAG_MS = 60_000;
export const SEARCH_INDEX_IDLE_SESSIONS = 2;
export const CRON_SEARCH_INDEX_BUDGET_MS = 10_000;

/** How long a session of an indexing run may go on, by the rules above. */
export function searchIndexBudgetMs(now: { ingestInProgress: boolean; lagMs: number; idleBudgetMs: number; extraSession?: boolean }): number {
  if (!now.ingestInProgress) return now.idleBudgetMs;
  if (now.extraSession) return 0;
  return now.lagMs < SEARCH_INDEX_MAX_LAG_MS ? SEARCH_INDEX_BUSY_BUDGET_MS : now.idleBudgetMs;
}

/**
 * How often a process evaluates, and for how long: until the queue is empty or
 * EVALUATION_BUDGET_MS has passed, in batches of RULE_BATCH rule jobs. While ingest keeps
 * this process saturated (a body in flight EVALUATION_SATURATED_SHARE of the time since the
 * last check, checked at the start and after each batch), evaluation waits, so ingest
 * keeps its rate; ingest with gaps (paced) does not slow evaluation. Once the oldest
 * due job has waited EVALUATION_MAX_LAG_MS, a run no longer yields: under ingest that never
 * pauses, evaluation lags by about a minute at most, as search indexing does. A cron
 * call's run stops after CRON_EVALUATION_BUDGET_MS.
 */
export const EVALUATION_INTERVAL_MS = 1_000;
export const EVALUATION_BUDGET_MS = 5_000;
export const EVALUATION_SATURATED_SHARE = 0.95;
export const EVALUATION_MAX_LAG_MS = 60_000;
export const CRON_EVALUATION_BUDGET_MS = 10_000;

const state = globalThis as unknown as {
  __crossroadsHousekeepingAt?: number;
  __crossroadsRetentionAt?: number;
  __crossroadsHousekeepingTimer?: NodeJS.Timeout;
  __crossroadsSearchIndexAt?: number;
  __crossroadsSearchIndexRunning?: boolean;
  __crossroadsSearchIndexTimer?: NodeJS.Timeout;
  __crossroadsEvaluationRunning?: boolean;
  __crossroadsEvaluationTimer?: NodeJS.Timeout;
  __crossroadsIngestBusy?: { at: number; busyMs: number };
};

/** The share of the time since the last call that this process had a request body in flight. */
function ingestBusyShare(): number {
  const now = { at: performance.now(), busyMs: bodiesBusyMs() };
  const last = state.__crossroadsIngestBusy ?? now;
  state.__crossroadsIngestBusy = now;
  return now.at > last.at ? (now.busyMs - last.busyMs) / (now.at - last.at) : bodiesInFlight() ? 1 : 0;
}

/** Runs every upkeep task once; never throws (a failure is logged and retried next time). */
export async function runHousekeeping(now = new Date()): Promise<void> {
  state.__crossroadsHousekeepingAt = now.getTime();
  try {
    const db = await getDatabase();
    const idleSince = new Date(now.getTime() - getOtlpConfig().traceIdleTimeoutSeconds * 1000);
    const closing = systemContext(db, 'closing idle OTLP traces');
    // Bounded batches until none is left, so a backlog clears without one long statement.
    while ((await closeIdleTraces(closing, idleSince, 500)) === 500);
    await compactInsights(systemContext(db, 'insights compaction'));
    await compactPaths(systemContext(db, 'paths compaction'));
    await foldTraceStatusCounts(systemContext(db, 'status count fold'));
  } catch (err) {
    console.error('[crossroads] housekeeping failed:', err);
  }
}

/** Runs housekeeping when this process has not for HOUSEKEEPING_INTERVAL_MS. */
export async function runHousekeepingIfDue(): Promise<void> {
  const last = state.__crossroadsHousekeepingAt ?? 0;
  if (Date.now() - last >= HOUSEKEEPING_INTERVAL_MS) await runHousekeeping();
}

/**
 * Deletes the traces older than RETENTION_DAYS (nothing when unset); returns how many.
 * Never throws: a failure is logged and the next interval tries again.
 */
export async function runRetention(now = new Date()): Promise<number> {
  state.__crossroadsRetentionAt = now.getTime();
  try {
    const days = getRetentionDays();
    if (days === undefined) return 0;
    const ctx = systemContext(await getDatabase(), 'retention');
    return await deleteExpiredTraces(ctx, new Date(now.getTime() - days * 86_400_000));
  } catch (err) {
    console.error('[crossroads] retention failed:', err);
    return 0;
  }
}

/** Whether retention is configured and this process has not run it for RETENTION_INTERVAL_MS. */
export function retentionDue(now = Date.now()): boolean {
  return getRetentionDays() !== undefined && now - (state.__crossroadsRetentionAt ?? 0) >= RETENTION_INTERVAL_MS;
}

/** Runs retention when it is due (the interval also keeps two runs of one process from overlapping). */
export async function runRetentionIfDue(): Promise<number> {
  return retentionDue() ? runRetention() : 0;
}

/**
 * Indexes queued traces for search, by the rules above: for up to `idleBudgetMs`
 * (Infinity: until the queue is empty) with up to `sessions` sessions at once. Never
 * throws: a failure is logged and the next interval tries again.
 */
export async function runSearchIndex(options: { now?: number; idleBudgetMs?: number; sessions?: number } = {}): Promise<SearchIndexRun> {
  const idleBudgetMs = options.idleBudgetMs ?? SEARCH_INDEX_BUDGET_MS;
  state.__crossroadsSearchIndexAt = options.now ?? Date.now();
  state.__crossroadsSearchIndexRunning = true;
  try {
    const { sql, kind } = await getDatabase();
    // The lag is read once a run: a run that stopped yielding catches up to the end.
    const lagMs = await searchLagMs(sql);
    const session = (extraSession: boolean) =>
      indexSearchBacklog(sql, () => searchIndexBudgetMs({ ingestInProgress: bodiesInFlight(), lagMs, idleBudgetMs, extraSession }));
    // PGlite runs one statement at a time: more sessions would only take turns.
    const extra = kind === 'postgres' && !bodiesInFlight() ? (options.sessions ?? 1) - 1 : 0;
    const runs = await Promise.all([session(false), ...Array.from({ length: extra }, () => session(true))]);
    return { traces: runs.reduce((n, r) => n + r.traces, 0), drained: runs.some((r) => r.drained) };
  } catch (err) {
    console.error('[crossroads] search indexing failed:', err);
    return { traces: 0, drained: false };
  } finally {
    state.__crossroadsSearchIndexRunning = false;
  }
}

/** Whether this process should index now: not already indexing, and the interval has passed since the last run started. */
function searchIndexDue(now = Date.now()): boolean {
  return !state.__crossroadsSearchIndexRunning && now - (state.__crossroadsSearchIndexAt ?? 0) >= SEARCH_INDEX_INTERVAL_MS;
}

/** Indexes search when this process is due to (not already indexing, the interval passed): the timer's run, until the queue is empty. */
export async function runSearchIndexIfDue(): Promise<SearchIndexRun | undefined> {
  if (!searchIndexDue()) return undefined;
  return runSearchIndex({ idleBudgetMs: Infinity, sessions: SEARCH_INDEX_IDLE_SESSIONS });
}

/** Evaluates queued runs, by the rules above; never throws (a failure is logged, and the jobs it held are taken again when their lease ends). */
export async function runEvaluationsNow(budgetMs = EVALUATION_BUDGET_MS): Promise<EvaluationRunReport | undefined> {
  if (state.__crossroadsEvaluationRunning) return undefined;
  state.__crossroadsEvaluationRunning = true;
  try {
    const db = await getDatabase();
    // The lag is read once a run: a run that stopped yielding catches up to the end.
    const mayYield = (await evaluationLagMs(db.sql)) < EVALUATION_MAX_LAG_MS;
    const saturated = () => mayYield && ingestBusyShare() >= EVALUATION_SATURATED_SHARE;
    const ctx = systemContext(db, 'evaluators');
    if (saturated()) return undefined;
    return await runEvaluations(ctx, { budgetMs, shouldStop: saturated });
  } catch (err) {
    console.error('[crossroads] evaluating failed:', err);
    return undefined;
  } finally {
    state.__crossroadsEvaluationRunning = false;
  }
}

/**
 * Every task once, now, for a platform's cron (GET /api/upkeep): serverless hosts run no
 * timer. Search indexing stops after CRON_SEARCH_INDEX_BUDGET_MS, so one call fits a
 * function's time limit; the next call goes on.
 */
export async function runUpkeepNow(): Promise<{ retention: { deletedTraces: number }; searchIndex: SearchIndexRun; evaluations: EvaluationRunReport | null }> {
  await runHousekeeping();
  const deletedTraces = await runRetention();
  const searchIndex = await runSearchIndex({ idleBudgetMs: CRON_SEARCH_INDEX_BUDGET_MS, sessions: SEARCH_INDEX_IDLE_SESSIONS });
  const evaluations = (await runEvaluationsNow(CRON_EVALUATION_BUDGET_MS)) ?? null;
  return { retention: { deletedTraces }, searchIndex, evaluations };
}

/** Starts the periodic run in a long-running server (once per process), and retention at once. */
export function startHousekeepingTimer(): void {
  if (state.__crossroadsHousekeepingTimer) return;
  void runRetentionIfDue();
  state.__crossroadsHousekeepingTimer = setInterval(() => {
    void runHousekeepingIfDue();
    void runRetentionIfDue();
  }, HOUSEKEEPING_INTERVAL_MS);
  state.__crossroadsHousekeepingTimer.unref();
  state.__crossroadsSearchIndexTimer = setInterval(() => void runSearchIndexIfDue(), SEARCH_INDEX_INTERVAL_MS);
  state.__crossroadsSearchIndexTimer.unref();
  state.__crossroadsEvaluationTimer = setInterval(() => void runEvaluationsNow(), EVALUATION_INTERVAL_MS);
  state.__crossroadsEvaluationTimer.unref();
}

/** Forgets when retention last ran (tests). */
export function resetRetentionClock(): void {
  state.__crossroadsRetentionAt = undefined;
}
