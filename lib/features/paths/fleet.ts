// The fleet's paths: every trace of the insights window with its stored path (sql.ts),
// grouped by path with outcomes, cost and durations, and the forks between them.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { queryWithoutJit } from '@/lib/db/no-jit';
import { parseInsightsParams } from '@/lib/features/insights';
import type { InsightsParams } from '@/lib/features/insights/shared';
import type { FilterQuery } from '@/lib/features/query';
import { compactPathsOnce } from './compact';
import { AGENT_NAMES_SHOWN } from './agents';
import { forkId } from './ids';
import { storedTracesOfWindowSql, tracesOfWindowSql } from '@/lib/features/query';
import { errorShare, forksOf, pathText, type Outcomes, type Step } from './steps';
import { sql, type Sql } from '@/lib/db/sql';
import { traceWhereSql } from '@/lib/features/query';

/** The decision review score that judges a choice (see docs/api.md, Scores). */
export const DECISION_CORRECT = 'decision.correct';

export interface FleetPath {
  id: string;
  steps: Step[];
  traces: number;
  share: number;
  outcomes: Outcomes;
  errorTraceShare: number | null;
  avgCostUsd: number | null;
  p50DurationMs: number | null;
  p95DurationMs: number | null;
  judgedRightShare: number | null;
}

export interface FleetFork {
  id: string;
  position: number;
  prefix: Step[];
  type: Step['type'];
  label: string;
  traces: number;
  errorTraceShareWhenChosen: number | null;
  forkErrorTraceShare: number | null;
}

export interface PathInsights {
  from: string;
  to: string;
  name: string | null;
  totals: { traces: number; withDecisions: number };
  paths: FleetPath[];
  forks: FleetFork[];
  /**
   * Without a name filter, the trace names (agents) of the window, sorted, at most
   * AGENT_NAMES_SHOWN + 1 (more than that: "and more"); null when a name was asked for.
   * More than one means a fork may compare different agents' choices.
   */
  agents: string[] | null;
}

/** Distinct names a skip scan walks before it gives up (names unique per run would be a walk of the table). */
const NAME_SCAN_LIMIT = 2000;

/** The insights window and trace filters (name, tag, sessionId, status), as the other insights calls. */
export function parsePathParams(query: FilterQuery, now: Date = new Date()): InsightsParams {
  return parseInsightsParams(query, now);
}

interface PathRow {
  id: string;
  steps: Step[];
  traces: number;
  completed: number;
  error: number;
  running: number;
  avgCostUsd: number | null;
  p50: number | null;
  p95: number | null;
  reviewed: number;
  judgedRight: number;
}

export async function pathInsights(ctx: ServiceContext, params: InsightsParams): Promise<PathInsights> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  // Upkeep before the read, so that few of the window's traces need their path computed.
  await compactPathsOnce(db);
  const { from, to, ...filters } = params;
  // Each trace of the window with its path id (computed for the traces marked as changed),
  // status, cost, duration and decision reviews, as the CTE per_trace, grouped by path; a
  // path's steps are those of "DecisionPath", or computed ones when only marked traces have
  // that path.
  const rows = await queryWithoutJit<PathRow>(db, sql`
    WITH ${filters.tag?.length || filters.sessionId !== undefined ? tracesOfWindowSql(params) : storedTracesOfWindowSql(params)},
    -- Grouped by the path id's bytes (an MD5 in hex): the sort the percentiles need compares them faster.
    grouped AS (
      SELECT pt.path_id COLLATE "C" AS path_id, (array_agg(pt.live_steps) FILTER (WHERE pt.live_steps IS NOT NULL))[1] AS live_steps,
             count(*)::int AS traces,
             count(*) FILTER (WHERE pt.status = 'COMPLETED')::int AS completed,
             count(*) FILTER (WHERE pt.status = 'ERROR')::int AS error,
             count(*) FILTER (WHERE pt.status = 'RUNNING')::int AS running,
             avg(pt.cost)::float8 AS "avgCostUsd",
             percentile_cont(0.5) WITHIN GROUP (ORDER BY pt.duration) AS p50,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY pt.duration) AS p95,
             sum(pt.reviewed)::int AS reviewed, sum(pt.judged_right)::int AS "judgedRight"
        FROM per_trace pt
       GROUP BY 1
    )
    SELECT g.path_id AS id, coalesce(g.live_steps, dp."steps", '[]'::jsonb) AS steps, g.traces, g.completed, g.error, g.running,
           g."avgCostUsd", g.p50, g.p95, g.reviewed, g."judgedRight"
      FROM grouped g
      LEFT JOIN "DecisionPath" dp ON dp."id" = g.path_id`);

  const total = rows.reduce((n, r) => n + r.traces, 0);
  const withSteps = rows.map((r) => ({ row: r, outcomes: { COMPLETED: r.completed, ERROR: r.error, RUNNING: r.running } }));
  const paths: FleetPath[] = withSteps
    .map(({ row, outcomes }) => ({
      id: row.id,
      steps: row.steps,
      traces: row.traces,
      share: row.traces / total,
      outcomes,
      errorTraceShare: errorShare(outcomes),
      avgCostUsd: row.avgCostUsd,
      p50DurationMs: row.p50,
      p95DurationMs: row.p95,
      judgedRightShare: row.reviewed > 0 ? row.judgedRight / row.reviewed : null,
    }))
    .sort((a, b) => b.traces - a.traces || compareText(pathText(a.steps), pathText(b.steps)));
  const forks: FleetFork[] = forksOf(withSteps.map(({ row, outcomes }) => ({ steps: row.steps, outcomes }))).map((fork) => ({
    id: forkId(fork.prefix),
    position: fork.position,
    prefix: fork.prefix,
    type: fork.type,
    label: fork.label,
    traces: fork.traces,
    errorTraceShareWhenChosen: fork.errorTraceShareWhenChosen,
    forkErrorTraceShare: fork.forkErrorTraceShare,
  }));
  return {
    from,
    to,
    name: params.name ?? null,
    agents: params.name === undefined ? await agentsOfWindow(db, params) : null,
    totals: { traces: total, withDecisions: rows.filter((r) => r.steps.length > 0).reduce((n, r) => n + r.traces, 0) },
    paths,
    forks,
  };
}

/**
 * The window's trace names: with only a window and status, a skip scan of the stored
 * rows' (name, startedAt) index, one probe per distinct name; with a tag or session,
 * from the matching traces themselves.
 */
async function agentsOfWindow(db: ServiceContext['db']['sql'], params: InsightsParams): Promise<string[]> {
  const { from, to, status } = params;
  const limit = AGENT_NAMES_SHOWN + 1;
  let query: Sql;
  if (params.tag?.length || params.sessionId !== undefined) {
    query = sql`SELECT DISTINCT t."name" FROM "Trace" t ${traceWhereSql(params)} ORDER BY 1 LIMIT ${limit}`;
  } else {
    const statusSql = status ? sql` AND tp."status" = ${status}::"RunStatus"` : sql``;
    query = sql`
      WITH RECURSIVE names (name, n) AS (
        (SELECT tp."name", 1 FROM "TracePath" tp ORDER BY tp."name" LIMIT 1)
        UNION ALL
        SELECT (SELECT tp."name" FROM "TracePath" tp WHERE tp."name" > names.name ORDER BY tp."name" LIMIT 1), names.n + 1
          FROM names WHERE names.name IS NOT NULL AND names.n < ${NAME_SCAN_LIMIT}
      )
      SELECT names.name FROM names
       WHERE names.name IS NOT NULL
         AND EXISTS (SELECT 1 FROM "TracePath" tp WHERE tp."name" = names.name AND tp."startedAt" >= ${new Date(from)} AND tp."startedAt" < ${new Date(to)}${statusSql})
       ORDER BY 1 LIMIT ${limit}`;
  }
  return (await db.query<{ name: string }>(query)).map((r) => r.name);
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
