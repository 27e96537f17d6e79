// "Which other runs took the same turn?": the runs of a trace's name that share its path up
// to a decision and chose the same option there (the runs the list's fork filter selects,
// /traces?fork=…&chosen=…), with their outcomes. Without a position, the first decision
// where this run's choice went wrong most often among the other runs.
//
// The name's runs are read once, grouped by path with their outcomes (the stored paths, as
// the fleet's paths are read); every position's figures come from those groups.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { isValidTraceId } from '@/lib/features/traces';
import { LIST_COLUMNS, type ListRow, storedTracesOfWindowSql, toListItem, tracePathSql } from '@/lib/features/query';
import type { RunStatus, TraceListItem } from '@/lib/features/traces/shared';
import { raw, sql, type Sql } from '@/lib/db/sql';
import { compactPathsOnce } from './compact';
import { forkId } from './ids';
import { errorShare, noOutcomes, sameOption, sharedPrefixLength, type Outcomes, type Step } from './steps';

export const SIMILAR_RUNS_LIMIT = 20;

/** Every run of the name, whenever it started: the stored paths' window is all time. */
const ALL_TIME = { from: '1970-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' };

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

interface PathGroup {
  id: string;
  steps: Step[];
  outcomes: Outcomes;
}

const countOf = (o: Outcomes) => o.COMPLETED + o.ERROR + o.RUNNING;

function add(into: Outcomes, o: Outcomes): void {
  into.COMPLETED += o.COMPLETED;
  into.ERROR += o.ERROR;
  into.RUNNING += o.RUNNING;
}

/** CTE per_trace of the name's runs with their path ids (stored, or computed for marked traces). */
const runsOfName = (name: string): Sql => storedTracesOfWindowSql({ ...ALL_TIME, name });

/** The other runs of the name, grouped by path, with their outcomes. */
async function pathGroups(ctx: ServiceContext, name: string, traceId: string): Promise<PathGroup[]> {
  const rows = await ctx.db.sql.query<{ id: string; steps: Step[]; status: RunStatus; n: number }>(sql`
    WITH ${runsOfName(name)},
    grouped AS (
      SELECT pt.path_id, (array_agg(pt.live_steps) FILTER (WHERE pt.live_steps IS NOT NULL))[1] AS live_steps, pt.status, count(*)::int AS n
        FROM per_trace pt WHERE pt.id <> ${traceId} GROUP BY pt.path_id, pt.status
    )
    SELECT g.path_id AS id, coalesce(g.live_steps, dp."steps", '[]'::jsonb) AS steps, g.status, g.n
      FROM grouped g LEFT JOIN "DecisionPath" dp ON dp."id" = g.path_id`);
  const groups = new Map<string, PathGroup>();
  for (const r of rows) {
    let group = groups.get(r.id);
    if (!group) groups.set(r.id, (group = { id: r.id, steps: r.steps, outcomes: noOutcomes() }));
    group.outcomes[r.status] += r.n;
  }
  return [...groups.values()];
}

/** The figures at position `index` of the path, and the groups of the runs that took its step there. */
function figuresAt(path: Step[], groups: readonly PathGroup[], index: number): { turn: TurnFigures; took: PathGroup[] } {
  const step = path[index];
  const outcomes = noOutcomes();
  const forkOutcomes = noOutcomes();
  const took: PathGroup[] = [];
  for (const group of groups) {
    // Through the fork: the same steps before the position (repeats included) and a step there.
    if (group.steps.length <= index || sharedPrefixLength(group.steps.slice(0, index), path.slice(0, index)) < index) continue;
    add(forkOutcomes, group.outcomes);
    // An option at a fork is its type and label, whatever its repeats.
    if (sameOption(group.steps[index], step)) {
      add(outcomes, group.outcomes);
      took.push(group);
    }
  }
  const turn = { position: index + 1, step, forkId: forkId(path.slice(0, index)), outcomes, errorShare: errorShare(outcomes), forkOutcomes, forkErrorShare: errorShare(forkOutcomes) };
  return { turn, took };
}

export async function similarRuns(ctx: ServiceContext, input: SimilarRunsInput): Promise<SimilarRuns> {
  requireScope(ctx, 'read');
  const { traceId } = input;
  if (!isValidTraceId(traceId)) throw new AppError('VALIDATION', 'Invalid trace ID');
  const limit = input.limit ?? SIMILAR_RUNS_LIMIT;
  // Upkeep before the read, as the fleet's paths do, so that few runs need their path computed.
  await compactPathsOnce(ctx.db.sql);
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

  const groups = await pathGroups(ctx, name, traceId);
  let chosen: ReturnType<typeof figuresAt>;
  if (input.at !== undefined) {
    chosen = figuresAt(path, groups, input.at - 1);
  } else {
    const all = path.map((_, i) => figuresAt(path, groups, i));
    chosen = all.reduce((best, f) => ((f.turn.errorShare ?? -1) > (best.turn.errorShare ?? -1) ? f : best));
  }

  const pathIds = chosen.took.map((g) => g.id);
  const rows =
    pathIds.length === 0
      ? []
      : await ctx.db.sql.query<ListRow>(sql`
          WITH ${runsOfName(name)}
          SELECT ${LIST_COLUMNS} FROM "Trace" t
           WHERE t."id" IN (SELECT pt.id FROM per_trace pt WHERE pt.path_id = ANY (${pathIds}::text[]) AND pt.id <> ${traceId})
           ORDER BY t."startedAt" DESC, t."id" DESC LIMIT ${limit}`);
  return { trace, path, turn: chosen.turn, picked: input.at !== undefined ? 'at' : 'highest error share', runs: rows.map(toListItem), total: countOf(chosen.turn.outcomes) };
}
