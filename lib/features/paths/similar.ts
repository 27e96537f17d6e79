// "Which other runs took the same turn?": the runs of a trace's name that share its path up
// to a decision and chose the same option there (the fork filter of the list, so the runs
// are exactly what /traces?fork=…&chosen=… shows), with their outcomes. Without a position,
// the first decision where this run's choice went wrong most often among the other runs.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { isValidTraceId } from '@/lib/features/traces';
import { LIST_COLUMNS, type ListRow, toListItem, tracePathSql, traceWhereSql } from '@/lib/features/query';
import type { RunStatus, TraceListItem } from '@/lib/features/traces/shared';
import { raw, sql, type Sql } from '@/lib/db/sql';
import { forkId } from './ids';
import { errorShare, noOutcomes, type Outcomes, type Step } from './steps';

export const SIMILAR_RUNS_LIMIT = 20;

export interface SimilarRunsInput {
  traceId: string;
  /** The decision's position on the trace's path, 1 for the first step; absent: see the file's comment. */
  at?: number;
  /** Runs listed, most recent first (default SIMILAR_RUNS_LIMIT). */
  limit?: number;
}

export interface TurnFigures {
  /** 1-based position on the path. */
  position: number;
  step: Step;
  /** The fork's id: runs with these steps before the position (fork filter of the list). */
  forkId: string;
  /** Other runs of the name that took this step here, by status. */
  outcomes: Outcomes;
  /** ERROR among those that ended; null when none ended. */
  errorShare: number | null;
  /** Other runs of the name at this fork, whatever they chose there. */
  forkOutcomes: Outcomes;
  forkErrorShare: number | null;
}

export interface SimilarRuns {
  trace: { id: string; name: string; status: RunStatus };
  /** The trace's path, step by step. */
  path: Step[];
  /** The turn the runs share; null when the trace made no decision. */
  turn: TurnFigures | null;
  /** How the turn was picked: the caller's `at`, or the highest error share. */
  picked: 'at' | 'highest error share' | 'no decisions';
  /** Other runs that took the turn, most recent first. */
  runs: TraceListItem[];
  /** How many other runs took it. */
  total: number;
}

const countOf = (o: Outcomes) => o.COMPLETED + o.ERROR + o.RUNNING;

async function outcomesWhere(ctx: ServiceContext, where: Sql, traceId: string): Promise<Outcomes> {
  const rows = await ctx.db.sql.query<{ status: RunStatus; n: number }>(sql`
    SELECT t."status", count(*)::int AS n FROM "Trace" t ${where} AND t."id" <> ${traceId} GROUP BY 1`);
  const outcomes = noOutcomes();
  for (const r of rows) outcomes[r.status] = r.n;
  return outcomes;
}

async function figuresAt(ctx: ServiceContext, name: string, traceId: string, path: Step[], index: number): Promise<TurnFigures> {
  const fork = forkId(path.slice(0, index));
  const step = path[index];
  const [outcomes, forkOutcomes] = await Promise.all([
    outcomesWhere(ctx, traceWhereSql({ name, fork, decisionType: step.type, chosen: step.label }), traceId),
    outcomesWhere(ctx, traceWhereSql({ name, fork }), traceId),
  ]);
  return { position: index + 1, step, forkId: fork, outcomes, errorShare: errorShare(outcomes), forkOutcomes, forkErrorShare: errorShare(forkOutcomes) };
}

export async function similarRuns(ctx: ServiceContext, input: SimilarRunsInput): Promise<SimilarRuns> {
  requireScope(ctx, 'read');
  const { traceId } = input;
  if (!isValidTraceId(traceId)) throw new AppError('VALIDATION', 'Invalid trace ID');
  const limit = input.limit ?? SIMILAR_RUNS_LIMIT;
  const own = await ctx.db.sql.query<{ name: string; status: RunStatus; steps: Step[] }>(sql`
    SELECT t."name", t."status", p.steps FROM "Trace" t CROSS JOIN LATERAL ${tracePathSql(raw('t."id"'))} p WHERE t."id" = ${traceId}`);
  if (own.length === 0) throw new AppError('NOT_FOUND', `Trace "${traceId}" not found`);
  const { name, status, steps: path } = own[0];
  const trace = { id: traceId, name, status };
  if (path.length === 0) {
    if (input.at !== undefined) throw new AppError('VALIDATION', `Invalid at: trace "${traceId}" made no decision`);
    return { trace, path, turn: null, picked: 'no decisions', runs: [], total: 0 };
  }
  if (input.at !== undefined && (!Number.isInteger(input.at) || input.at < 1 || input.at > path.length)) {
    throw new AppError('VALIDATION', `Invalid at: must be a decision position from 1 to ${path.length} (the trace's path has ${path.length} step${path.length === 1 ? '' : 's'})`);
  }

  let turn: TurnFigures;
  if (input.at !== undefined) {
    turn = await figuresAt(ctx, name, traceId, path, input.at - 1);
  } else {
    // One pair of counts per step: paths are short (consecutive repeats are one step).
    const all = await Promise.all(path.map((_, i) => figuresAt(ctx, name, traceId, path, i)));
    turn = all.reduce((best, t) => ((t.errorShare ?? -1) > (best.errorShare ?? -1) ? t : best));
  }

  const where = traceWhereSql({ name, fork: turn.forkId, decisionType: turn.step.type, chosen: turn.step.label });
  const rows = await ctx.db.sql.query<ListRow>(sql`
    SELECT ${LIST_COLUMNS} FROM "Trace" t ${where} AND t."id" <> ${traceId}
     ORDER BY t."startedAt" DESC, t."id" DESC LIMIT ${limit}`);
  return { trace, path, turn, picked: input.at !== undefined ? 'at' : 'highest error share', runs: rows.map(toListItem), total: countOf(turn.outcomes) };
}
