// Scores over time (GET /api/insights/scores): per score name and data type, the count and
// average, and for CATEGORICAL and BOOLEAN scores the count of each value, per bucket of
// their trace's startedAt, with the window's trace filters (as the `scores` summary of
// GET /api/insights/decisions counts them). Read from the Score rows of the window's
// traces in one statement; kept apart from the other insights reads so that it can be
// served from rollups later without touching them.
import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { requireScope, type ServiceContext } from '@/lib/context';
import { SCORE_LIMITS } from '@/lib/scores/limits';
import { AppError } from '@/lib/errors';
import type { FilterQuery } from '@/lib/traces/filters';
import { textParam, traceWhereSql } from '@/lib/traces/filters';
import { BUCKET, bucketCount, bucketStart } from './buckets';
import { queryWithoutJit } from './no-jit';
import { parseOverviewParams } from './overview';
import type { ScoreSeries, ScoreSeriesInsights, ScoreSeriesParams } from './types';

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
  requireScope(ctx, 'read');
  const db = ctx.db.prisma;
  const { interval, ms } = BUCKET[params.bucket];
  const first = bucketStart(Date.parse(params.from), params.bucket);
  const count = bucketCount(params.from, params.to, params.bucket);
  const origin = new Date(first);
  const last = new Date(first + Math.max(0, count - 1) * ms);
  const byName = params.scoreName === undefined ? Prisma.empty : Prisma.sql`AND s."name" = ${params.scoreName}`;
  // An empty window has no bucket: the series then have none either.
  const buckets = count === 0 ? Prisma.sql`SELECT NULL::timestamptz AS start WHERE false` : Prisma.sql`
    SELECT generate_series(CAST(${origin} AS timestamptz), CAST(${last} AS timestamptz), CAST(${interval} AS interval)) AS start`;
  const [{ result }] = await queryWithoutJit(db, db.$queryRaw<Array<{ result: ScoreSeries[] }>>`
    WITH win AS MATERIALIZED (SELECT t."id", t."startedAt" FROM "Trace" t ${traceWhereSql(params)}),
    sc AS MATERIALIZED (
      SELECT date_bin(CAST(${interval} AS interval), w."startedAt", ${origin}) AS bucket, s."name", s."dataType", s."value",
             CASE WHEN s."dataType" = 'BOOLEAN' THEN CASE WHEN s."value" <> 0 THEN 'true' ELSE 'false' END
                  WHEN s."dataType" = 'CATEGORICAL' THEN s."stringValue" END AS v
        FROM win w JOIN "Score" s ON s."traceId" = w."id" ${byName}
    ),
    names AS MATERIALIZED (
      SELECT "name", "dataType", count(*)::int AS n, avg("value") AS average FROM sc GROUP BY "name", "dataType"
       ORDER BY count(*) DESC, "name" COLLATE "C", "dataType" LIMIT ${SERIES_NAMES}
    ),
    top_cats AS MATERIALIZED (
      SELECT "name", "dataType", v, n FROM (
        SELECT c.*, row_number() OVER (PARTITION BY "name", "dataType" ORDER BY n DESC, v COLLATE "C") AS rank
          FROM (SELECT sc."name", sc."dataType", sc.v, count(*)::int AS n FROM sc JOIN names USING ("name", "dataType")
                 WHERE sc.v IS NOT NULL GROUP BY 1, 2, 3) c
      ) r WHERE rank <= ${SERIES_CATEGORIES}
    ),
    per_bucket AS (
      SELECT bucket, "name", "dataType", count(*)::int AS n, avg("value") AS average FROM sc GROUP BY 1, 2, 3
    ),
    cat_bucket AS (
      SELECT bucket, "name", "dataType", json_agg(json_build_object('value', v, 'count', n) ORDER BY n DESC, v COLLATE "C") AS cats
        FROM (SELECT sc.bucket, sc."name", sc."dataType", sc.v, count(*)::int AS n FROM sc JOIN top_cats USING ("name", "dataType", v)
               GROUP BY 1, 2, 3, 4) c
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
