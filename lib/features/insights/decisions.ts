// What agents decide, across the traces of a window (GET /api/insights/decisions): per
// decision type, per option, and retry/escalation rates per trace name. One SQL statement
// computes every figure (one snapshot, so the parts agree with each other under ingest);
// no decision point is loaded into JavaScript.
import 'server-only';
import type { FilterQuery } from '@/lib/features/query';
import { traceWhereSql } from '@/lib/features/query';
import { BUCKET, bucketCount, bucketStart } from './buckets';
import { queryWithoutJit } from '@/lib/db/no-jit';
import { offeredLabelsSql, optionLabelSql } from '@/lib/features/query';
import { parseOverviewParams } from './overview';
import { parseInsightsParams } from './params';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { edgeCteSql, rollupPlan, rollupRowsSql, type RollupPlan } from './rollups';
import { nameRatesCtesSql, RATE_NAMES, ratesJsonSql } from './name-rates';
import { reviewFigures, withReviews } from './reviews';
import type { DecisionBucketStats, DecisionInsights, DecisionParams } from './types';
import { empty, raw, sql, type Sql } from '@/lib/db/sql';

/** At most this many options per decision type, the most chosen (then most offered, then by label). */
export const OPTIONS_PER_TYPE = 100;

/**
 * The insights parameters, and `bucket` only when given (then read and bounded as the
 * overview reads it): the series of decisions by type over time is optional, so the
 * answer without it stays as it was.
 */
export function parseDecisionParams(query: FilterQuery, now: Date = new Date()): DecisionParams {
  const bucket = query.get('bucket');
  return bucket === null || bucket === '' ? parseInsightsParams(query, now) : parseOverviewParams(query, now);
}

// The series of decisions by type per bucket, every bucket of the window present, from a
// query of (bucket, type, n, traces) rows (`byBucket`). The series' buckets are the overview's.
function bucketSeriesSql(params: DecisionParams, byBucket: (origin: Date, interval: string) => Sql): Sql {
  if (!params.bucket) return empty;
  const { ms, interval } = BUCKET[params.bucket];
  const first = bucketStart(Date.parse(params.from), params.bucket);
  const last = first + (bucketCount(params.from, params.to, params.bucket) - 1) * ms;
  const origin = new Date(first);
  return sql`, 'buckets', (
      WITH by_bucket AS (${byBucket(origin, interval)}),
      per_bucket AS (
        SELECT bucket, json_agg(json_build_object('type', "type", 'count', n, 'traces', traces)
                 ORDER BY "type"::text COLLATE "C") AS by_type
          FROM by_bucket GROUP BY bucket
      ),
      series AS (
        SELECT generate_series(CAST(${origin} AS timestamptz), CAST(${new Date(last)} AS timestamptz), CAST(${interval} AS interval)) AS start
      )
      SELECT coalesce(json_agg(json_build_object(
          'start', to_char(s.start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'byType', coalesce(p.by_type, '[]'::json)
        ) ORDER BY s.start), '[]'::json) FROM series s LEFT JOIN per_bucket p ON p.bucket = s.start)`;
}

// Per bucket and type, counted from the decisions already selected (dp), so the series
// adds up to byType in the same snapshot. The per-bucket lists are built in one pass and
// joined to the series: a subquery per bucket re-read every selected decision once per
// bucket (4 s of a 30-day window at 100k traces).
const bucketsSql = (params: DecisionParams) =>
  bucketSeriesSql(
    params,
    (origin, interval) => sql`
      SELECT date_bin(CAST(${interval} AS interval), "startedAt", ${origin}) AS bucket, "type",
             count(*) AS n, count(DISTINCT "traceId") AS traces
        FROM dp GROUP BY 1, "type"`,
  );

// The same series from the type rollup rows (`ty`) of the window.
const rollupBucketsSql = (params: DecisionParams) =>
  bucketSeriesSql(
    params,
    (origin, interval) => sql`
      SELECT date_bin(CAST(${interval} AS interval), "hour", ${origin}) AS bucket, "type",
             sum("decisions") AS n, sum("traces") AS traces
        FROM ty GROUP BY 1, "type" HAVING sum("decisions") > 0`,
  );

// The answer as one JSON object, from the CTEs both ways of computing it define: by_type
// (type, n, traces, avg_duration, avg_cost, error_share), ranked (options with their rank in
// their type) and rates (name, traces, retries, escalations).
function figuresSql(traces: Sql, decisionPoints: Sql, buckets: Sql): Sql {
  return sql`SELECT json_build_object(
      'totals', json_build_object('traces', ${traces}, 'decisionPoints', ${decisionPoints}),
      'byType', (SELECT coalesce(json_agg(json_build_object(
          'type', "type", 'count', n, 'traces', traces,
          'avgDurationMs', avg_duration, 'avgCostUsd', avg_cost, 'errorTraceShare', error_share
        ) ORDER BY n DESC, "type"::text COLLATE "C"), '[]'::json) FROM by_type),
      'options', (SELECT coalesce(json_agg(json_build_object(
          'type', "type", 'label', label, 'chosen', chosen, 'offered', offered,
          'errorTraceShareWhenChosen', error_share
        ) ORDER BY chosen DESC, "type"::text COLLATE "C", label COLLATE "C"), '[]'::json) FROM ranked WHERE rank <= ${OPTIONS_PER_TYPE}),
      'ratesByTraceName', (${ratesJsonSql(raw('rates'))})
      ${buckets}
    )`;
}

/** The decision figures, with what reviews judged of each option and the window's score summary (reviews.ts). */
export async function decisionInsights(ctx: ServiceContext, params: DecisionParams): Promise<DecisionInsights> {
  requireScope(ctx, 'read');
  const plan = rollupPlan(params, params.bucket);
  const [figures, reviews] = await Promise.all([
    plan ? decisionsFromRollups(ctx, params, plan) : decisionsFromTraces(ctx, params),
    reviewFigures(ctx, params),
  ]);
  const { buckets, bucket, ...rest } = figures;
  return {
    ...rest,
    options: withReviews(figures.options, reviews),
    scores: reviews.scores,
    ...(bucket ? { bucket, buckets } : {}),
  };
}

// Labels and names are ordered bytewise (COLLATE "C"), the same on every database
// whatever its collation, so equal counts always come back in the same order. Averages
// are taken in numeric, as the rollups keep the sums, so both ways agree to the last digit.
/** The decision figures computed from the window's traces and their decision points (any filter, any bucket). */
export async function decisionsFromTraces(ctx: ServiceContext, params: DecisionParams): Promise<DecisionInsights> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const [{ result }] = await queryWithoutJit<{ result: Omit<DecisionInsights, 'from' | 'to' | 'bucket'> & { buckets?: DecisionBucketStats[] } }>(db, sql`
    WITH win AS MATERIALIZED (
      SELECT t."id", t."name", t."startedAt", t."status" = 'ERROR' AS failed FROM "Trace" t ${traceWhereSql(params)}
    ),
    dp AS MATERIALIZED (
      SELECT d."traceId", d."type", d."durationMs", d."costUsd", d."alternatives", w.failed, w."startedAt",
             ${optionLabelSql(raw('d."chosen"'))} AS chosen_label
        -- Each window trace's decision points through the (traceId, timestamp) index: a
        -- plain join let the planner hash the whole table instead (13.7-28 s for 24 hours
        -- at 1M traces / 10M decision points, 1.1-1.4 s this way; 30 days 52 s vs 46 s).
        -- OFFSET 0 keeps the subquery from being flattened back into that join.
        FROM win w CROSS JOIN LATERAL (SELECT * FROM "DecisionPoint" d0 WHERE d0."traceId" = w."id" OFFSET 0) d
    ),
    by_type AS (
      SELECT "type", count(*) AS n, count(DISTINCT "traceId") AS traces,
             avg("durationMs"::numeric)::float8 AS avg_duration, avg("costUsd"::numeric)::float8 AS avg_cost,
             (count(DISTINCT "traceId") FILTER (WHERE failed))::float8 / count(DISTINCT "traceId") AS error_share
        FROM dp GROUP BY "type"
    ),
    offered AS (
      SELECT dp."traceId", dp."type", dp.failed, o.label, o.label = dp.chosen_label AS is_chosen
        FROM dp CROSS JOIN LATERAL ${offeredLabelsSql(raw('dp.chosen_label'), raw('dp."alternatives"'))} AS o
    ),
    options AS (
      SELECT "type", label,
             count(*) FILTER (WHERE is_chosen) AS chosen,
             count(*) AS offered,
             (count(DISTINCT "traceId") FILTER (WHERE is_chosen AND failed))::float8
               / nullif(count(DISTINCT "traceId") FILTER (WHERE is_chosen), 0) AS error_share
        FROM offered GROUP BY "type", label
    ),
    ranked AS (
      SELECT *, row_number() OVER (PARTITION BY "type" ORDER BY chosen DESC, offered DESC, label COLLATE "C") AS rank
        FROM options
    ),
    per_trace AS (
      SELECT "traceId", count(*) FILTER (WHERE "type" = 'RETRY') AS retries,
             count(*) FILTER (WHERE "type" = 'ESCALATION') AS escalations
        FROM dp WHERE "type" IN ('RETRY', 'ESCALATION') GROUP BY "traceId"
    ),
    rates AS (
      SELECT w."name", count(*) AS traces,
             coalesce(sum(p.retries), 0) AS retries, coalesce(sum(p.escalations), 0) AS escalations
        FROM win w LEFT JOIN per_trace p ON p."traceId" = w."id"
       GROUP BY w."name"
       ORDER BY traces DESC, w."name" COLLATE "C"
       LIMIT ${RATE_NAMES}
    )
    ${figuresSql(sql`(SELECT count(*) FROM win)`, sql`(SELECT count(*) FROM dp)`, bucketsSql(params))}
    AS result`);
  const { buckets, ...figures } = result;
  return { from: params.from, to: params.to, ...figures, ...(params.bucket ? { bucket: params.bucket, buckets } : {}) };
}

/**
 * The decision figures from the hour rollups (rollups.ts): the same figures, in the same
 * order, as decisionsFromTraces, summed from the rollup rows of the window's whole hours
 * and its edge traces. A trace is in one hour and one status, so the distinct-trace
 * counts add up. Keys whose figures went back to zero (deletes) are left out. The rates
 * by trace name sum only the names that need it (name-rates.ts).
 */
export async function decisionsFromRollups(ctx: ServiceContext, params: DecisionParams, plan: RollupPlan): Promise<DecisionInsights> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const [{ result }] = await queryWithoutJit<{ result: Omit<DecisionInsights, 'from' | 'to' | 'bucket'> & { buckets?: DecisionBucketStats[] } }>(db, sql`
    WITH ${edgeCteSql(plan)},
    tr AS MATERIALIZED (SELECT * FROM ${rollupRowsSql('InsightsTraceHour', plan)} r),
    ty AS MATERIALIZED (SELECT * FROM ${rollupRowsSql('InsightsTypeHour', plan)} r),
    op AS (SELECT * FROM ${rollupRowsSql('InsightsOptionHour', plan)} r),
    by_type AS (
      SELECT "type", sum("decisions") AS n, sum("traces") AS traces,
             (sum("durationSum") / nullif(sum("durationCount"), 0))::float8 AS avg_duration,
             (sum("costSum") / nullif(sum("costCount"), 0))::float8 AS avg_cost,
             coalesce(sum("traces") FILTER (WHERE "status" = 'ERROR'), 0)::float8 / sum("traces") AS error_share
        FROM ty GROUP BY "type" HAVING sum("decisions") > 0
    ),
    options AS (
      SELECT "type", "label" AS label, sum("chosen") AS chosen, sum("offered") AS offered,
             coalesce(sum("chosenTraces") FILTER (WHERE "status" = 'ERROR'), 0)::float8 / nullif(sum("chosenTraces"), 0) AS error_share
        FROM op GROUP BY "type", "label" HAVING sum("offered") > 0
    ),
    ranked AS (
      SELECT *, row_number() OVER (PARTITION BY "type" ORDER BY chosen DESC, offered DESC, label COLLATE "C") AS rank
        FROM options
    ),
    ${nameRatesCtesSql(plan)}
    ${figuresSql(sql`(SELECT coalesce(sum("traces"), 0) FROM tr)`, sql`(SELECT coalesce(sum("decisions"), 0) FROM ty)`, rollupBucketsSql(params))}
    AS result`);
  const { buckets, ...figures } = result;
  return { from: params.from, to: params.to, ...figures, ...(params.bucket ? { bucket: params.bucket, buckets } : {}) };
}
