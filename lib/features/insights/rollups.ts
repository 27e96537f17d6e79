// Insights from the hour rollups (migration 20261125000000_insights_rollups) instead of
// every trace and decision point of the window: a 30-day window reads ~720 hours of
// rollup rows. The answers are the raw statements' (overview.ts, decisions.ts), not an
// approximation: rollups.test.ts compares the two on generated data.
//
// When they serve: the window holds at least one whole UTC hour, the buckets are hours or
// days (whole hours), and the only trace filter is `status` (a rollup dimension). The
// window's partial first and last hours are added from their traces, through the same
// SQL functions the triggers use, so edge and rollup rows are counted alike. Filters by
// name, tag or session select few traces and are read raw through their indexes.
//
// What stays raw: the duration percentiles (an exact percentile cannot be summed from
// parts), read from the window's traces alone.
import 'server-only';
import type { RunStatus } from '@/lib/features/traces/shared';
import type { InsightsParams, OverviewBucket } from './types';
import { empty, join, raw, sql, type Sql } from '@/lib/db/sql';

const HOUR_MS = 60 * 60 * 1000;

/** The whole hours of a window read from rollups, and the partial edges read from traces. */
export interface RollupPlan {
  hoursFrom: Date;
  hoursTo: Date;
  /** Half-open ranges of startedAt before the first and after the last whole hour (zero to two). */
  edges: Array<{ from: Date; to: Date }>;
  status?: RunStatus;
}

/** How to read this window from rollups, or null when it must be read from the rows. */
export function rollupPlan(params: InsightsParams, bucket?: OverviewBucket): RollupPlan | null {
  if (params.name !== undefined || (params.tag?.length ?? 0) > 0 || params.sessionId !== undefined) return null;
  if (bucket === 'minute') return null;
  const from = Date.parse(params.from);
  const to = Date.parse(params.to);
  const hoursFrom = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const hoursTo = Math.floor(to / HOUR_MS) * HOUR_MS;
  if (hoursTo <= hoursFrom) return null;
  const edges: RollupPlan['edges'] = [];
  if (from < hoursFrom) edges.push({ from: new Date(from), to: new Date(hoursFrom) });
  if (hoursTo < to) edges.push({ from: new Date(hoursTo), to: new Date(to) });
  return { hoursFrom: new Date(hoursFrom), hoursTo: new Date(hoursTo), edges, status: params.status };
}

const statusSql = (column: Sql, status: RunStatus | undefined) =>
  status ? sql`AND ${column} = CAST(${status} AS "RunStatus")` : empty;

/** The window's traces by startedAt and status (the percentiles read them). */
export function windowTracesSql(plan: RollupPlan, from: string, to: string): Sql {
  return sql`t."startedAt" >= ${new Date(from)} AND t."startedAt" < ${new Date(to)} ${statusSql(raw('t."status"'), plan.status)}`;
}

/** A CTE `edge` holding the edge traces as an "insights_trace"[] (empty when the window is whole hours). */
export function edgeCteSql(plan: RollupPlan): Sql {
  const ranges = plan.edges.map((e) => sql`(t."startedAt" >= ${e.from} AND t."startedAt" < ${e.to})`);
  const where = ranges.length ? sql`(${join(ranges, ' OR ')})` : sql`false`;
  return sql`edge AS MATERIALIZED (
    SELECT ARRAY(
      SELECT ROW(t."id", t."name", t."status", t."startedAt", t."totalCost", t."totalTokens")::"insights_trace"
        FROM "Trace" t WHERE ${where} ${statusSql(raw('t."status"'), plan.status)}
    ) AS traces
  )`;
}

/**
 * The condition on rollup or delta rows (alias `r`) of the window's whole hours, and its
 * status filter unless `anyStatus`.
 */
export function windowHoursSql(plan: RollupPlan, { anyStatus = false } = {}): Sql {
  return sql`r."hour" >= ${plan.hoursFrom} AND r."hour" < ${plan.hoursTo} ${anyStatus ? empty : statusSql(raw('r."status"'), plan.status)}`;
}

// The rollups read this way; the name rollup has its own reader (name-rates.ts). The score
// rollups (migration 20261203010000_score_rollups) are read by reviews.ts.
type RollupTable = 'InsightsTraceHour' | 'InsightsTypeHour' | 'InsightsOptionHour' | 'InsightsScoreHour' | 'InsightsReviewHour' | 'InsightsBetterHour';
const DELTA_TABLE: Record<RollupTable, string> = {
  InsightsTraceHour: 'InsightsTraceDelta',
  InsightsTypeHour: 'InsightsTypeDelta',
  InsightsOptionHour: 'InsightsOptionDelta',
  InsightsScoreHour: 'InsightsScoreDelta',
  InsightsReviewHour: 'InsightsReviewDelta',
  InsightsBetterHour: 'InsightsBetterDelta',
};
const ROWS_FUNCTION: Record<RollupTable, string> = {
  InsightsTraceHour: 'insights_trace_rows',
  InsightsTypeHour: 'insights_type_rows',
  InsightsOptionHour: 'insights_option_rows',
  InsightsScoreHour: 'insights_score_rows',
  InsightsReviewHour: 'insights_review_rows',
  InsightsBetterHour: 'insights_better_rows',
};

/**
 * The rows of one rollup for the window: its whole hours from the table and the deltas not
 * yet folded into it (compact.ts), its edges computed from their traces (needs the `edge`
 * CTE). Same columns throughout; a key may come several times, so readers sum by key.
 */
export function rollupRowsSql(table: RollupTable, plan: RollupPlan): Sql {
  const hours = (from: string) => sql`SELECT * FROM ${raw(`"${from}"`)} r WHERE ${windowHoursSql(plan)}`;
  return sql`(
    ${hours(table)}
    UNION ALL
    ${hours(DELTA_TABLE[table])}
    UNION ALL
    SELECT * FROM ${raw(`"${ROWS_FUNCTION[table]}"`)}((SELECT traces FROM edge), true)
  )`;
}
