// The CTEs of a window's traces with their paths, for the fleet's paths and the review
// insights: stored paths for unmarked traces, computed ones for marked traces (path-sql.ts).
import 'server-only';
import type { InsightsParams } from '@/lib/features/insights/shared';
import { traceWhereSql } from './filters';
import { EMPTY_PATH_ID, livePathsCtes } from './path-sql';
import { raw, sql, type Sql } from '@/lib/db/sql';

/**
 * CTEs ending in per_trace (id, path_id, live_steps, status, cost, duration, reviewed,
 * judged_right): the window's traces from their stored rows, an index scan of "TracePath"
 * (its copies of the trace's name, start, status, cost, duration and decision reviews),
 * except the marked ones, read from "Trace" with their paths computed. For the filters
 * "TracePath" holds: name, status, window.
 */
export function storedTracesOfWindowSql({ from, to, name, status }: InsightsParams): Sql {
  return sql`
    marked AS MATERIALIZED (SELECT DISTINCT m."traceId" AS id FROM "TracePathDirty" m),
    live_win AS MATERIALIZED (
      SELECT t."id", ${MARKED_FIGURES}
        FROM "Trace" t ${traceWhereSql({ name, status, from, to })} AND t."id" IN (SELECT mk.id FROM marked mk)
    ),
    live AS MATERIALIZED (SELECT p."traceId", md5(p."key") AS path_id, p."steps" FROM "decision_paths"(ARRAY(SELECT w."id" FROM live_win w)) p),
    per_trace AS (
      SELECT tp."traceId" AS id, tp."pathId" AS path_id, NULL::jsonb AS live_steps, ${STORED_FIGURES}
        FROM "TracePath" tp ${traceWhereSql({ name, status, from, to }, raw('tp'))}
         -- No mark, no anti-join: the test runs once (an InitPlan), not for each trace.
         AND (NOT (SELECT EXISTS (SELECT 1 FROM marked)) OR NOT EXISTS (SELECT 1 FROM marked mk WHERE mk.id = tp."traceId"))
      UNION ALL
      SELECT w."id", coalesce(l.path_id, ${EMPTY_PATH_ID}), l."steps", w.status, w.cost, w.duration, w.reviewed, w.judged_right
        FROM live_win w LEFT JOIN live l ON l."traceId" = w."id"
    )`;
}

/** The same CTEs for any filters: the window's traces from "Trace", with their stored rows. */
export function tracesOfWindowSql({ from, to, ...filters }: InsightsParams): Sql {
  return sql`
    win AS MATERIALIZED (SELECT t."id" FROM "Trace" t ${traceWhereSql({ ...filters, from, to })}),
    ${livePathsCtes(sql`SELECT w."id" FROM win w`)},
    per_trace AS (
      SELECT w."id", tp."pathId" AS path_id, NULL::jsonb AS live_steps, ${STORED_FIGURES}
        FROM win w JOIN "TracePath" tp ON tp."traceId" = w."id"
       WHERE NOT EXISTS (SELECT 1 FROM marked mk WHERE mk.id = w."id")
      UNION ALL
      SELECT t."id", coalesce(l.path_id, ${EMPTY_PATH_ID}), l."steps", ${MARKED_FIGURES}
        FROM marked mk JOIN "Trace" t ON t."id" = mk.id LEFT JOIN live l ON l."traceId" = mk.id
    )`;
}

/** A trace's figures from its stored row `tp`. */
const STORED_FIGURES = sql`tp."status", tp."costUsd" AS cost, tp."durationMs" AS duration, tp."reviewed", tp."judgedRight" AS judged_right`;
/** A marked trace's figures, computed from its row `t` of "Trace". */
const MARKED_FIGURES = sql`t."status", "paths_trace_cost"(t."id", t."totalCost") AS cost,
  "paths_trace_duration"(t."status", t."startedAt", t."endedAt") AS duration,
  (SELECT r.reviewed FROM "paths_trace_reviews"(t."id") r) AS reviewed, (SELECT r.judged_right FROM "paths_trace_reviews"(t."id") r) AS judged_right`;
