// Paths in SQL. The rule itself is decision_paths() (migration trace_paths), the rule of
// steps.ts over a set of traces; a test compares it with pathOf on both databases. Each
// trace's path is stored ("TracePath", "DecisionPath") and kept by triggers that mark the
// traces whose path may have changed ("TracePathDirty"): a read takes the stored path of
// an unmarked trace and computes a marked one's, so it is exact in its own snapshot.
import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import type { InsightsParams } from '@/lib/features/insights/types';
import { traceWhereSql } from '@/lib/features/traces/filters';

/** The id of the empty path: the MD5 of the empty key. */
export const EMPTY_PATH_ID = 'd41d8cd98f00b204e9800998ecf8427e';

/** The trace's path key ('' for a trace without decisions) and its steps as a JSON array, computed from its decisions. */
export function tracePathSql(traceId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(max(p."key"), '') AS key, coalesce((array_agg(p."steps"))[1], '[]'::jsonb) AS steps
                       FROM "decision_paths"(ARRAY[${traceId}]::text[]) p)`;
}

/**
 * CTEs `marked` (id) and `live` (traceId, path_id, steps) for the traces of `ids`, a
 * one-column query of trace ids: which of them are marked, and their paths computed now.
 */
export function livePathsCtes(ids: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    marked AS MATERIALIZED (SELECT DISTINCT m."traceId" AS id FROM "TracePathDirty" m WHERE m."traceId" IN (${ids})),
    live AS MATERIALIZED (
      SELECT p."traceId", md5(p."key") AS path_id, p."steps" FROM "decision_paths"(ARRAY(SELECT id FROM marked)) p)`;
}

/** A trace's path id, given its row `tp` of "TracePath", `mk` of marked and `l` of live (each possibly null). */
export const PATH_ID_OF_TRACE = Prisma.sql`CASE WHEN mk.id IS NULL THEN coalesce(tp."pathId", ${EMPTY_PATH_ID}) ELSE coalesce(l.path_id, ${EMPTY_PATH_ID}) END`;

/** Marked traces' paths computed now (traceId, key, steps, forkIds). */
const LIVE = Prisma.sql`"decision_paths"(ARRAY(SELECT DISTINCT m."traceId" FROM "TracePathDirty" m))`;
const notMarked = (traceId: Prisma.Sql) => Prisma.sql`NOT EXISTS (SELECT 1 FROM "TracePathDirty" m WHERE m."traceId" = ${traceId})`;

/** True when the trace's path has the id (a 32-hex-digit MD5). */
export function tracePathIsSql(traceId: Prisma.Sql, id: string): Prisma.Sql {
  // The empty path is the path of exactly the traces without decisions.
  if (id === EMPTY_PATH_ID) return Prisma.sql`NOT EXISTS (SELECT 1 FROM "DecisionPoint" pd WHERE pd."traceId" = ${traceId})`;
  return Prisma.sql`${traceId} IN (
    SELECT tp."traceId" FROM "TracePath" tp WHERE tp."pathId" = ${id} AND ${notMarked(Prisma.raw('tp."traceId"'))}
    UNION ALL
    SELECT p."traceId" FROM ${LIVE} p WHERE md5(p."key") = ${id})`;
}

/**
 * True when the trace passes through the fork (its steps before some position are the
 * fork's prefix and it has a step there), and, given `chosen`, took that label there.
 */
export function traceThroughForkSql(traceId: Prisma.Sql, id: string, chosen: string | undefined): Prisma.Sql {
  const took = (path: string) =>
    chosen === undefined
      ? Prisma.empty
      : Prisma.sql`AND ${Prisma.raw(path)}."steps" -> (array_position(${Prisma.raw(path)}."forkIds", ${id}::text) - 1) ->> 'label' = ${chosen}`;
  return Prisma.sql`${traceId} IN (
    SELECT tp."traceId" FROM "TracePath" tp
     WHERE tp."pathId" IN (SELECT dp."id" FROM "DecisionPath" dp WHERE dp."forkIds" @> ARRAY[${id}]::text[] ${took('dp')})
       AND ${notMarked(Prisma.raw('tp."traceId"'))}
    UNION ALL
    SELECT p."traceId" FROM ${LIVE} p WHERE p."forkIds" @> ARRAY[${id}]::text[] ${took('p')})`;
}

/**
 * CTEs ending in per_trace (id, path_id, live_steps, status, cost, duration, reviewed,
 * judged_right): the window's traces from their stored rows, an index scan of "TracePath"
 * (its copies of the trace's name, start, status, cost, duration and decision reviews),
 * except the marked ones, read from "Trace" with their paths computed. For the filters
 * "TracePath" holds: name, status, window.
 */
export function storedTracesOfWindowSql({ from, to, name, status }: InsightsParams): Prisma.Sql {
  return Prisma.sql`
    marked AS MATERIALIZED (SELECT DISTINCT m."traceId" AS id FROM "TracePathDirty" m),
    live_win AS MATERIALIZED (
      SELECT t."id", ${MARKED_FIGURES}
        FROM "Trace" t ${traceWhereSql({ name, status, from, to })} AND t."id" IN (SELECT mk.id FROM marked mk)
    ),
    live AS MATERIALIZED (SELECT p."traceId", md5(p."key") AS path_id, p."steps" FROM "decision_paths"(ARRAY(SELECT w."id" FROM live_win w)) p),
    per_trace AS (
      SELECT tp."traceId" AS id, tp."pathId" AS path_id, NULL::jsonb AS live_steps, ${STORED_FIGURES}
        FROM "TracePath" tp ${traceWhereSql({ name, status, from, to }, Prisma.raw('tp'))}
         -- No mark, no anti-join: the test runs once (an InitPlan), not for each trace.
         AND (NOT (SELECT EXISTS (SELECT 1 FROM marked)) OR NOT EXISTS (SELECT 1 FROM marked mk WHERE mk.id = tp."traceId"))
      UNION ALL
      SELECT w."id", coalesce(l.path_id, ${EMPTY_PATH_ID}), l."steps", w.status, w.cost, w.duration, w.reviewed, w.judged_right
        FROM live_win w LEFT JOIN live l ON l."traceId" = w."id"
    )`;
}

/** The same CTEs for any filters: the window's traces from "Trace", with their stored rows. */
export function tracesOfWindowSql({ from, to, ...filters }: InsightsParams): Prisma.Sql {
  return Prisma.sql`
    win AS MATERIALIZED (SELECT t."id" FROM "Trace" t ${traceWhereSql({ ...filters, from, to })}),
    ${livePathsCtes(Prisma.sql`SELECT w."id" FROM win w`)},
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
const STORED_FIGURES = Prisma.sql`tp."status", tp."costUsd" AS cost, tp."durationMs" AS duration, tp."reviewed", tp."judgedRight" AS judged_right`;
/** A marked trace's figures, computed from its row `t` of "Trace". */
const MARKED_FIGURES = Prisma.sql`t."status", "paths_trace_cost"(t."id", t."totalCost") AS cost,
  "paths_trace_duration"(t."status", t."startedAt", t."endedAt") AS duration,
  (SELECT r.reviewed FROM "paths_trace_reviews"(t."id") r) AS reviewed, (SELECT r.judged_right FROM "paths_trace_reviews"(t."id") r) AS judged_right`;
