// The path rule of steps.ts in SQL, for one trace at a time (a correlated subquery on the
// trace's id): its steps in path order, collapsed (gaps and islands: within a run of
// equal steps the row number and the row number per step grow together), and the key
// its id is the MD5 of. A test compares it with pathOf on both databases.
import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { optionLabelSql } from '@/lib/insights/label-sql';

const ORDER = Prisma.sql`"timestamp", "parentStartedAt" NULLS LAST, "id" COLLATE "C"`;

/** Rows (type, label, repeats, pos) of the trace's collapsed steps; `traceId` is an SQL expression. */
function stepsSql(traceId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT type, label, count(*)::int AS repeats, (row_number() OVER (ORDER BY min(n)) - 1)::int AS pos
      FROM (SELECT type, label,
                   row_number() OVER (ORDER BY ${ORDER}) AS n,
                   row_number() OVER (PARTITION BY type, label ORDER BY ${ORDER}) AS m
              FROM (SELECT pd."type"::text AS type, ${optionLabelSql(Prisma.raw('pd."chosen"'))} AS label,
                           pd."timestamp", pd."id", ps."startedAt" AS "parentStartedAt"
                      FROM "DecisionPoint" pd
                      LEFT JOIN "Span" ps ON ps."traceId" = pd."traceId" AND ps."id" = pd."parentSpanId"
                     WHERE pd."traceId" = ${traceId}) labelled) numbered
     GROUP BY type, label, n - m`;
}

const STEP_KEY = Prisma.raw(`type || chr(31) || label || chr(31) || repeats::text`);
/** The path key of the steps' rows ('' without any). */
const PATH_KEY = Prisma.sql`coalesce(string_agg(${STEP_KEY}, chr(30) ORDER BY pos), '')`;

/** The trace's path key ('' for a trace without decisions) and its steps as a JSON array. */
export function tracePathSql(traceId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT ${PATH_KEY} AS key,
                            coalesce(jsonb_agg(jsonb_build_object('type', type, 'label', label, 'repeats', repeats) ORDER BY pos), '[]'::jsonb) AS steps
                       FROM (${stepsSql(traceId)}) path_steps)`;
}

/** True when the trace's path has the id (a 32-hex-digit MD5). */
export function tracePathIsSql(traceId: Prisma.Sql, id: string): Prisma.Sql {
  return Prisma.sql`md5((SELECT ${PATH_KEY} FROM (${stepsSql(traceId)}) path_steps)) = ${id}`;
}

/**
 * True when the trace passes through the fork (its steps before some position are the
 * fork's prefix and it has a step there), and, given `chosen`, took that label there.
 */
export function traceThroughForkSql(traceId: Prisma.Sql, id: string, chosen: string | undefined): Prisma.Sql {
  const label = chosen === undefined ? Prisma.empty : Prisma.sql`AND label = ${chosen}`;
  return Prisma.sql`EXISTS (
    SELECT 1 FROM (SELECT label,
                          coalesce(string_agg(${STEP_KEY}, chr(30)) OVER (ORDER BY pos ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), '') AS prefix
                     FROM (${stepsSql(traceId)}) path_steps) at_step
     WHERE md5(chr(29) || prefix) = ${id} ${label})`;
}
