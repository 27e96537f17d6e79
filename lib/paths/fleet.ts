// The fleet's paths: every trace of the insights window reduced to its path (sql.ts),
// grouped by path with outcomes, cost and durations, and the forks between them.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/context';
import { Prisma } from '@/lib/generated/prisma/client';
import { queryWithoutJit } from '@/lib/insights/no-jit';
import { parseInsightsParams } from '@/lib/insights/params';
import type { InsightsParams } from '@/lib/insights/types';
import type { FilterQuery } from '@/lib/traces/filters';
import { traceWhereSql } from '@/lib/traces/filters';
import { forkId, pathId } from './ids';
import { tracePathSql } from './sql';
import { errorShare, forksOf, pathText, type Outcomes, type Step } from './steps';

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
}

/** The insights window and trace filters (name, tag, sessionId, status), as the other insights calls. */
export function parsePathParams(query: FilterQuery, now: Date = new Date()): InsightsParams {
  return parseInsightsParams(query, now);
}

interface PathRow {
  key: string;
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
  const db = ctx.db.prisma;
  const { from, to, ...filters } = params;
  const where = traceWhereSql({ ...filters, from, to });
  const rows = await queryWithoutJit(db, db.$queryRaw<PathRow[]>`
    WITH win AS MATERIALIZED (
      SELECT t."id", t."status"::text AS status,
             coalesce(t."totalCost", (SELECT sum(s."costUsd") FROM "Span" s WHERE s."traceId" = t."id")) AS cost,
             CASE WHEN t."status" <> 'RUNNING' THEN round(date_part('epoch', t."endedAt" - t."startedAt") * 1000) END AS duration
        FROM "Trace" t ${where}
    ),
    per_trace AS (
      SELECT w.*, p.key, p.steps, r.reviewed, r.judged_right
        FROM win w
       CROSS JOIN LATERAL ${tracePathSql(Prisma.raw('w."id"'))} p
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS reviewed, count(*) FILTER (WHERE sc."value" = 1)::int AS judged_right
           FROM "Score" sc
          WHERE sc."traceId" = w."id" AND sc."decisionPointId" IS NOT NULL
            AND sc."name" = ${DECISION_CORRECT} AND sc."dataType" = 'BOOLEAN') r
    )
    SELECT key, (array_agg(steps))[1] AS steps, count(*)::int AS traces,
           count(*) FILTER (WHERE status = 'COMPLETED')::int AS completed,
           count(*) FILTER (WHERE status = 'ERROR')::int AS error,
           count(*) FILTER (WHERE status = 'RUNNING')::int AS running,
           avg(cost)::float8 AS "avgCostUsd",
           percentile_cont(0.5) WITHIN GROUP (ORDER BY duration) AS p50,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY duration) AS p95,
           sum(reviewed)::int AS reviewed, sum(judged_right)::int AS "judgedRight"
      FROM per_trace GROUP BY key`);

  const total = rows.reduce((n, r) => n + r.traces, 0);
  const withSteps = rows.map((r) => ({ row: r, outcomes: { COMPLETED: r.completed, ERROR: r.error, RUNNING: r.running } }));
  const paths: FleetPath[] = withSteps
    .map(({ row, outcomes }) => ({
      id: pathId(row.steps),
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
    totals: { traces: total, withDecisions: rows.filter((r) => r.steps.length > 0).reduce((n, r) => n + r.traces, 0) },
    paths,
    forks,
  };
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
