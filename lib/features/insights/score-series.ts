// Scores over time (GET /api/insights/scores): per score name and data type, the count and
// average, and for CATEGORICAL and BOOLEAN scores the count of each value, per bucket of
// their trace's startedAt, with the window's trace filters (as the `scores` summary of
// GET /api/insights/decisions counts them), in one statement: from the score rollups
// (migration 20261203010000_score_rollups) when the window holds a whole hour, the buckets
// are hours or days and the only filter is status (rollups.ts); from the Score rows of the
// window's traces otherwise. Same answer: averages are taken in numeric, as the rollups
// keep the sums.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { SCORE_LIMITS } from '@/lib/features/scores/shared';
import { AppError } from '@/lib/core/errors';
import type { FilterQuery } from '@/lib/features/query';
import { textParam, traceWhereSql } from '@/lib/features/query';
import { BUCKET, bucketCount, bucketStart } from './buckets';
import { queryWithoutJit } from '@/lib/db/no-jit';
import { parseOverviewParams } from './overview';
import { edgeCteSql, rollupPlan, rollupRowsSql, type RollupPlan } from './rollups';
import type { ScoreSeries, ScoreSeriesInsights, ScoreSeriesParams } from './types';
import { empty, sql, type Sql } from '@/lib/db/sql';

/** At most this many series (the score names with the most scores in the window). */
export const SERIES_NAMES = 20;
/** At most this many values per series, the most frequent in the window; buckets count only these. */
export const SERIES_CATEGORIES = 10;

/** The overview's window, filters and bucket, and `scoreName` (exact, at most 200 characters). */
export function parseScoreSeriesParams(query: FilterQuery, now: Date = new Date()): ScoreSeriesParams {
  const params: ScoreSeriesParams = parseOverviewParams(query, now);
  const scoreName = textParam(query, 'scoreName');
  if (scoreName !== undefined && Array.from(scoreName).length > SCORE_LIMITS.nameLength) {
    throw new AppError('VALIDATION', `Invalid scoreName parameter: must be at most ${SCORE_LIMITS.nameLength} characters`);
  }
  if (scoreName !== undefined) params.scoreName = scoreName;
  return params;
}

export async function scoreSeries(ctx: ServiceContext, params: ScoreSeriesParams): Promise<ScoreSeriesInsights> {
  return scoreSeriesFrom(ctx, params, rollupPlan(params, params.bucket));
}

/** The series computed from the Score rows of the window's traces (any filter, any bucket). */
export async function scoreSeriesFromTraces(ctx: ServiceContext, params: ScoreSeriesParams): Promise<ScoreSeriesInsights> {
  return scoreSeriesFrom(ctx, params, null);
}

async function scoreSeriesFrom(ctx: ServiceContext, params: ScoreSeriesParams, plan: RollupPlan | null): Promise<ScoreSeriesInsights> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const { interval, ms } = BUCKET[params.bucket];
  const first = bucketStart(Date.parse(params.from), params.bucket);
  const count = bucketCount(params.from, params.to, params.bucket);
  const origin = new Date(first);
  const last = new Date(first + Math.max(0, count - 1) * ms);
  // An empty window has no bucket: the series then have none either.
  const buckets = count === 0 ? sql`SELECT NULL::timestamptz AS start WHERE false` : sql`
    SELECT generate_series(CAST(${origin} AS timestamptz), CAST(${last} AS timestamptz), CAST(${interval} AS interval)) AS start`;
  const [{ result }] = await queryWithoutJit<{ result: ScoreSeries[] }>(db, sql`
    WITH ${scoresCteSql(params, plan, interval, origin)},
    names AS MATERIALIZED (
      SELECT "name", "dataType", sum(n)::int AS n, (sum(value_sum) / nullif(sum(value_count), 0))::float8 AS average
        FROM sc GROUP BY "name", "dataType" HAVING sum(n) > 0
       ORDER BY sum(n) DESC, "name" COLLATE "C", "dataType" LIMIT ${SERIES_NAMES}
    ),
    top_cats AS MATERIALIZED (
      SELECT "name", "dataType", v, n FROM (
        SELECT c.*, row_number() OVER (PARTITION BY "name", "dataType" ORDER BY n DESC, v COLLATE "C") AS rank
          FROM (SELECT sc."name", sc."dataType", sc.v, sum(sc.n)::int AS n FROM sc JOIN names USING ("name", "dataType")
                 WHERE sc.v IS NOT NULL GROUP BY 1, 2, 3 HAVING sum(sc.n) > 0) c
      ) r WHERE rank <= ${SERIES_CATEGORIES}
    ),
    per_bucket AS (
      SELECT bucket, "name", "dataType", sum(n)::int AS n, (sum(value_sum) / nullif(sum(value_count), 0))::float8 AS average
        FROM sc GROUP BY 1, 2, 3 HAVING sum(n) > 0
    ),
    cat_bucket AS (
      SELECT bucket, "name", "dataType", json_agg(json_build_object('value', v, 'count', n) ORDER BY n DESC, v COLLATE "C") AS cats
        FROM (SELECT sc.bucket, sc."name", sc."dataType", sc.v, sum(sc.n)::int AS n FROM sc JOIN top_cats USING ("name", "dataType", v)
               GROUP BY 1, 2, 3, 4 HAVING sum(sc.n) > 0) c
       GROUP BY 1, 2, 3
    ),
    series AS (${buckets}),
    rows AS (
      SELECT nm."name", nm."dataType", json_agg(json_build_object(
          'start', to_char(s.start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'count', coalesce(pb.n, 0),
          'average', CASE WHEN nm."dataType" = 'CATEGORICAL' THEN NULL ELSE pb.average END,
          'categories', coalesce(cb.cats, '[]'::json)
        ) ORDER BY s.start) FILTER (WHERE s.start IS NOT NULL) AS buckets
        FROM names nm CROSS JOIN series s
        LEFT JOIN per_bucket pb ON pb.bucket = s.start AND pb."name" = nm."name" AND pb."dataType" = nm."dataType"
        LEFT JOIN cat_bucket cb ON cb.bucket = s.start AND cb."name" = nm."name" AND cb."dataType" = nm."dataType"
       GROUP BY nm."name", nm."dataType"
    )
    SELECT coalesce(json_agg(json_build_object(
        'name', nm."name", 'dataType', nm."dataType", 'count', nm.n,
        'average', CASE WHEN nm."dataType" = 'CATEGORICAL' THEN NULL ELSE nm.average END,
        'categories', coalesce((SELECT json_agg(json_build_object('value', c.v, 'count', c.n) ORDER BY c.n DESC, c.v COLLATE "C")
                                  FROM top_cats c WHERE c."name" = nm."name" AND c."dataType" = nm."dataType"), '[]'::json),
        'buckets', coalesce(r.buckets, '[]'::json)
      ) ORDER BY nm.n DESC, nm."name" COLLATE "C", nm."dataType"), '[]'::json) AS result
      FROM names nm LEFT JOIN rows r ON r."name" = nm."name" AND r."dataType" = nm."dataType"`);
  return { from: params.from, to: params.to, bucket: params.bucket, series: result };
}

/**
 * A CTE `sc` of (bucket, name, dataType, v, n, value_sum, value_count): the window's scores
 * by bucket, as rollup rows (n scores, their value sum and count) or one row per score, and
 * the CTEs it needs.
 */
function scoresCteSql(params: ScoreSeriesParams, plan: RollupPlan | null, interval: string, origin: Date): Sql {
  if (!plan) {
    const byName = params.scoreName === undefined ? empty : sql`AND s."name" = ${params.scoreName}`;
    return sql`win AS MATERIALIZED (SELECT t."id", t."startedAt" FROM "Trace" t ${traceWhereSql(params)}),
    sc AS MATERIALIZED (
      SELECT date_bin(CAST(${interval} AS interval), w."startedAt", ${origin}) AS bucket, s."name", s."dataType",
             CASE WHEN s."dataType" = 'BOOLEAN' THEN CASE WHEN s."value" <> 0 THEN 'true' ELSE 'false' END
                  WHEN s."dataType" = 'CATEGORICAL' THEN s."stringValue" END AS v,
             1 AS n, s."value"::numeric AS value_sum, (s."value" IS NOT NULL)::int AS value_count
        FROM win w JOIN "Score" s ON s."traceId" = w."id" ${byName}
    )`;
  }
  const byName = params.scoreName === undefined ? empty : sql`WHERE r."name" = ${params.scoreName}`;
  return sql`${edgeCteSql(plan)},
    sc AS MATERIALIZED (
      SELECT date_bin(CAST(${interval} AS interval), r."hour", ${origin}) AS bucket, r."name", r."dataType",
             CASE WHEN r."dataType" = 'NUMERIC' THEN NULL ELSE r."category" END AS v,
             r."scores" AS n, r."valueSum" AS value_sum, r."valueCount" AS value_count
        FROM ${rollupRowsSql('InsightsScoreHour', plan)} r ${byName}
    )`;
}
