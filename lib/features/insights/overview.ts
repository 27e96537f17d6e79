// How the fleet is doing over time (GET /api/insights/overview): traces, errors, cost,
// tokens and duration percentiles per UTC minute, hour or day of the window, and for the
// whole window. One SQL statement computes every figure (one snapshot, so the buckets add
// up to the totals under ingest); no trace is loaded into JavaScript.
import 'server-only';
import type { FilterQuery } from '@/lib/features/query';
import { AppError } from '@/lib/core/errors';
import { traceWhereSql } from '@/lib/features/query';
import { queryWithoutJit } from '@/lib/db/no-jit';
import { BUCKET, bucketCount, bucketStart, defaultBucket, MAX_BUCKETS, OVERVIEW_BUCKETS } from './buckets';
import { parseInsightsParams } from './params';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { edgeCteSql, rollupPlan, rollupRowsSql, windowTracesSql, type RollupPlan } from './rollups';
import type { OverviewBucket, OverviewInsights, OverviewParams } from './types';
import { raw, sql, type Sql } from '@/lib/db/sql';

export { bucketCount, defaultBucket, MAX_BUCKETS, OVERVIEW_BUCKETS };

/**
 * The insights parameters and `bucket` (minute, hour or day; empty or absent: the
 * default for the window's length). A window of more than MAX_BUCKETS buckets is a 400
 * naming `bucket` when it was requested, `from` when even days are too many.
 */
export function parseOverviewParams(query: FilterQuery, now: Date = new Date()): OverviewParams {
  const params = parseInsightsParams(query, now);
  const requested = query.get('bucket');
  if (requested !== null && requested !== '' && !(OVERVIEW_BUCKETS as readonly string[]).includes(requested)) {
    throw new AppError('VALIDATION', `Invalid bucket parameter: must be one of ${OVERVIEW_BUCKETS.join(', ')}`);
  }
  const given = requested ? (requested as OverviewBucket) : undefined;
  const bucket = given ?? defaultBucket(params.from, params.to);
  const count = bucketCount(params.from, params.to, bucket);
  if (count > MAX_BUCKETS) {
    throw new AppError(
      'VALIDATION',
      `Invalid ${given ? 'bucket' : 'from'} parameter: the window holds ${count} ${bucket} buckets, more than ${MAX_BUCKETS}`,
    );
  }
  return { ...params, bucket };
}

// Costs and tokens are summed as numeric (exact, in any order), as the rollups keep them,
// so both ways of reading a window give the same answer to the last digit.
//
// Per trace: cost is totalCost, else the sum of its spans' costUsd (null when neither; the
// span sum is only computed for traces without a total, COALESCE being lazy); tokens
// likewise. Duration percentiles are percentile_cont (interpolated between the two nearest
// durations, as the continuous percentile of the ordered-set aggregate), which skips the
// nulls of traces that have not ended and is null when no trace in the set has.
export async function overviewInsights(ctx: ServiceContext, params: OverviewParams): Promise<OverviewInsights> {
  requireScope(ctx, 'read');
  const plan = rollupPlan(params, params.bucket);
  if (!plan) return overviewFromTraces(ctx, params);
  return overviewFromRollups(ctx, params, plan);
}

// A trace's duration in ms. Its timestamps have millisecond precision, so the duration is
// a whole number of ms: computed in float8 and rounded it is exactly the numeric
// extract(epoch ...) * 1000, at a third of the cost (that extract is numeric since
// PostgreSQL 14; 316k durations over 30 days at 1M traces: 140 -> 85 ms).
const DURATION_MS = raw(`round(date_part('epoch', t."endedAt" - t."startedAt") * 1000)`);

// The window's bucket series: its origin (the first bucket's start), last start and width.
function seriesOf(params: OverviewParams) {
  const { ms, interval } = BUCKET[params.bucket];
  const first = bucketStart(Date.parse(params.from), params.bucket);
  // With no bucket, the series ends before it starts and is empty.
  const last = first + (bucketCount(params.from, params.to, params.bucket) - 1) * ms;
  return { origin: new Date(first), last: new Date(last), interval };
}

// The answer as one JSON object, from the CTE both ways of computing it define: by_bucket
// (bucket, traces, errors, cost, tokens, p50, p95); `totals` is that object for the window.
function overviewJsonSql(params: OverviewParams, totals: Sql): Sql {
  const { origin, last, interval } = seriesOf(params);
  return sql`SELECT json_build_object(
      'totals', ${totals},
      'buckets', (SELECT coalesce(json_agg(json_build_object(
          'start', to_char(s.start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'traces', coalesce(b.traces, 0), 'errorTraces', coalesce(b.errors, 0),
          'costUsd', coalesce(b.cost, 0), 'tokens', coalesce(b.tokens, 0),
          'p50DurationMs', b.p50, 'p95DurationMs', b.p95
        ) ORDER BY s.start), '[]'::json)
        FROM generate_series(CAST(${origin} AS timestamptz), CAST(${last} AS timestamptz), CAST(${interval} AS interval)) AS s(start)
        LEFT JOIN by_bucket b ON b.bucket = s.start)
    ) AS result`;
}

/** The overview computed from the window's traces (any filter, any bucket). */
export async function overviewFromTraces(ctx: ServiceContext, params: OverviewParams): Promise<OverviewInsights> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const { origin, interval } = seriesOf(params);
  const [{ result }] = await queryWithoutJit<{ result: Omit<OverviewInsights, 'from' | 'to' | 'bucket'> }>(db, sql`
    WITH win AS MATERIALIZED (
      SELECT date_bin(CAST(${interval} AS interval), t."startedAt", ${origin}) AS bucket,
             t."status" = 'ERROR' AS failed,
             coalesce(t."totalCost", (SELECT sum(s."costUsd") FROM "Span" s WHERE s."traceId" = t."id")) AS cost,
             coalesce(t."totalTokens", (SELECT sum(s."tokenCount") FROM "Span" s WHERE s."traceId" = t."id")) AS tokens,
             ${DURATION_MS} AS duration
        FROM "Trace" t ${traceWhereSql(params)}
    ),
    by_bucket AS (
      SELECT bucket, count(*) AS traces, count(*) FILTER (WHERE failed) AS errors,
             coalesce(sum(cost::numeric), 0)::float8 AS cost, coalesce(sum(tokens::numeric), 0)::float8 AS tokens,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY duration) AS p50,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY duration) AS p95
        FROM win GROUP BY bucket
    )
    ${overviewJsonSql(
      params,
      sql`(SELECT json_build_object(
          'traces', count(*), 'errorTraces', count(*) FILTER (WHERE failed),
          'costUsd', coalesce(sum(cost::numeric), 0)::float8, 'tokens', coalesce(sum(tokens::numeric), 0)::float8,
          'p50DurationMs', percentile_cont(0.5) WITHIN GROUP (ORDER BY duration),
          'p95DurationMs', percentile_cont(0.95) WITHIN GROUP (ORDER BY duration)
        ) FROM win)`,
    )}`);
  return { from: params.from, to: params.to, bucket: params.bucket, ...result };
}

/**
 * The overview from the hour rollups (rollups.ts): counts, cost and tokens per bucket from
 * the rollup rows of the window's whole hours and its edge traces; the duration
 * percentiles from the window's traces that ended (they cannot be summed from parts).
 */
export async function overviewFromRollups(ctx: ServiceContext, params: OverviewParams, plan: RollupPlan): Promise<OverviewInsights> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const { origin, interval } = seriesOf(params);
  const [{ result }] = await queryWithoutJit<{ result: Omit<OverviewInsights, 'from' | 'to' | 'bucket'> }>(db, sql`
    WITH ${edgeCteSql(plan)},
    hours AS (
      SELECT date_bin(CAST(${interval} AS interval), r."hour", ${origin}) AS bucket, r."status", r."traces", r."costUsd", r."tokens"
        FROM ${rollupRowsSql('InsightsTraceHour', plan)} r
    ),
    durations AS MATERIALIZED (
      SELECT date_bin(CAST(${interval} AS interval), t."startedAt", ${origin}) AS bucket,
             ${DURATION_MS} AS duration
        FROM "Trace" t WHERE ${windowTracesSql(plan, params.from, params.to)} AND t."endedAt" IS NOT NULL
    ),
    -- Both percentiles from one sort: percentile_cont of an array of fractions.
    pct AS (
      SELECT bucket, p[1] AS p50, p[2] AS p95
        FROM (SELECT bucket, percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY duration) AS p
                FROM durations GROUP BY bucket) q
    ),
    total_pct AS (SELECT percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY duration) AS p FROM durations),
    by_bucket AS (
      SELECT h.bucket, h.traces, h.errors, h.cost, h.tokens, p.p50, p.p95
        FROM (SELECT bucket, sum("traces") AS traces, coalesce(sum("traces") FILTER (WHERE "status" = 'ERROR'), 0) AS errors,
                     sum("costUsd")::float8 AS cost, sum("tokens")::float8 AS tokens
                FROM hours GROUP BY bucket) h
        LEFT JOIN pct p ON p.bucket = h.bucket
    )
    ${overviewJsonSql(
      params,
      sql`(SELECT json_build_object(
          'traces', coalesce(sum("traces"), 0), 'errorTraces', coalesce(sum("traces") FILTER (WHERE "status" = 'ERROR'), 0),
          'costUsd', coalesce(sum("costUsd"), 0)::float8, 'tokens', coalesce(sum("tokens"), 0)::float8,
          'p50DurationMs', (SELECT p[1] FROM total_pct), 'p95DurationMs', (SELECT p[2] FROM total_pct)
        ) FROM hours)`,
    )}`);
  return { from: params.from, to: params.to, bucket: params.bucket, ...result };
}
