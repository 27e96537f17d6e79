// Paths in SQL. The rule itself is decision_paths() (migration trace_paths), the rule of
// steps.ts over a set of traces; a test compares it with pathOf on both databases. Each
// trace's path is stored ("TracePath", "DecisionPath") and kept by triggers that mark the
// traces whose path may have changed ("TracePathDirty"): a read takes the stored path of
// an unmarked trace and computes a marked one's, so it is exact in its own snapshot.
import 'server-only';
import { empty, raw, sql, type Sql } from '@/lib/db/sql';

/** The id of the empty path: the MD5 of the empty key. */
export const EMPTY_PATH_ID = 'd41d8cd98f00b204e9800998ecf8427e';

/** The trace's path key ('' for a trace without decisions) and its steps as a JSON array, computed from its decisions. */
export function tracePathSql(traceId: Sql): Sql {
  return sql`(SELECT coalesce(max(p."key"), '') AS key, coalesce((array_agg(p."steps"))[1], '[]'::jsonb) AS steps
                       FROM "decision_paths"(ARRAY[${traceId}]::text[]) p)`;
}

/**
 * CTEs `marked` (id) and `live` (traceId, path_id, steps) for the traces of `ids`, a
 * one-column query of trace ids: which of them are marked, and their paths computed now.
 */
export function livePathsCtes(ids: Sql): Sql {
  return sql`
    marked AS MATERIALIZED (SELECT DISTINCT m."traceId" AS id FROM "TracePathDirty" m WHERE m."traceId" IN (${ids})),
    live AS MATERIALIZED (
      SELECT p."traceId", md5(p."key") AS path_id, p."steps" FROM "decision_paths"(ARRAY(SELECT id FROM marked)) p)`;
}

/** A trace's path id, given its row `tp` of "TracePath", `mk` of marked and `l` of live (each possibly null). */
export const PATH_ID_OF_TRACE = sql`CASE WHEN mk.id IS NULL THEN coalesce(tp."pathId", ${EMPTY_PATH_ID}) ELSE coalesce(l.path_id, ${EMPTY_PATH_ID}) END`;

/** Marked traces' paths computed now (traceId, key, steps, forkIds). */
const LIVE = sql`"decision_paths"(ARRAY(SELECT DISTINCT m."traceId" FROM "TracePathDirty" m))`;
const notMarked = (traceId: Sql) => sql`NOT EXISTS (SELECT 1 FROM "TracePathDirty" m WHERE m."traceId" = ${traceId})`;

/** True when the trace's path has the id (a 32-hex-digit MD5). */
export function tracePathIsSql(traceId: Sql, id: string): Sql {
  // The empty path is the path of exactly the traces without decisions.
  if (id === EMPTY_PATH_ID) return sql`NOT EXISTS (SELECT 1 FROM "DecisionPoint" pd WHERE pd."traceId" = ${traceId})`;
  return sql`${traceId} IN (
    SELECT tp."traceId" FROM "TracePath" tp WHERE tp."pathId" = ${id} AND ${notMarked(raw('tp."traceId"'))}
    UNION ALL
    SELECT p."traceId" FROM ${LIVE} p WHERE md5(p."key") = ${id})`;
}

/**
 * True when the trace passes through the fork (its steps before some position are the
 * fork's prefix and it has a step there), and, given `chosen`, took that label there.
 */
export function traceThroughForkSql(traceId: Sql, id: string, chosen: string | undefined): Sql {
  const took = (path: string) =>
    chosen === undefined
      ? empty
      : sql`AND ${raw(path)}."steps" -> (array_position(${raw(path)}."forkIds", ${id}::text) - 1) ->> 'label' = ${chosen}`;
  return sql`${traceId} IN (
    SELECT tp."traceId" FROM "TracePath" tp
     WHERE tp."pathId" IN (SELECT dp."id" FROM "DecisionPath" dp WHERE dp."forkIds" @> ARRAY[${id}]::text[] ${took('dp')})
       AND ${notMarked(raw('tp."traceId"'))}
    UNION ALL
    SELECT p."traceId" FROM ${LIVE} p WHERE p."forkIds" @> ARRAY[${id}]::text[] ${took('p')})`;
}
