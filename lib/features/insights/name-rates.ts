// Retry and escalation rates by trace name from the hour rollups (the decisions call's
// ratesByTraceName): the RATE_NAMES most frequent names of the window, then by name
// (bytewise).
//
// Ranking needs every name's count, and a window can hold as many names as traces: ~330k
// over 30 days at 1M traces with the bench's nearly unique names. Summing them all took
// ~360 ms (one hash entry per name). Most of those names have one trace in all of history,
// though, and such a name has one rollup row holding one trace: its figures need no
// summing, and among them only the first RATE_NAMES by name can make the list (they all
// rank by the tie on one trace). So the statement splits the window's names in two
// (migration 20261128000000_insights_name_totals):
// - names with more than one folded trace ("InsightsNameTotal", an upper bound of any
//   window's count), names with deltas not yet folded, and the edge traces' names: their
//   rows are summed as before.
// - every other name of the window: one row, taken as it is, the first RATE_NAMES by name
//   read in that order from the totals' names of one trace (InsightsNameTotal_single_idx).
// The list is the first RATE_NAMES of both together: the same answer as summing every name
// (rollups.test.ts compares it with the one computed from the traces).
import 'server-only';
import { windowHoursSql, type RollupPlan } from './rollups';
import { sql, type Sql } from '@/lib/db/sql';

/** At most this many trace names, the most frequent (then by name). */
export const RATE_NAMES = 100;

/** The JSON array of ratesByTraceName from a relation of (name, traces, retries, escalations) rows, in their order of rank. */
export function ratesJsonSql(rates: Sql): Sql {
  return sql`SELECT coalesce(json_agg(json_build_object(
        'name', "name", 'traces', traces,
        'retryPer100', 100 * retries::float8 / traces, 'escalationPer100', 100 * escalations::float8 / traces
      ) ORDER BY traces DESC, "name" COLLATE "C"), '[]'::json) FROM ${rates}`;
}

/**
 * CTEs (after the `edge` CTE of rollups.ts and the window's trace rollup rows, `tr`) ending in `rates`: the window's (name, traces,
 * retries, escalations) rows of ratesByTraceName, from its whole hours, the deltas not yet
 * folded in and its edge traces.
 */
export function nameRatesCtesSql(plan: RollupPlan): Sql {
  const hours = windowHoursSql(plan);
  return sql`
    -- Deltas not yet folded, of the window's whole hours (any status): a delta of another
    -- hour changes nothing in the window. Read through the deltas' hour index: compaction
    -- deletes what it folds, and until vacuum the table holds those rows dead, which a
    -- scan of the whole table read on every call (1.45M dead rows after the bench's seed:
    -- decisions 30d 374-437 ms instead of 192-223).
    unfolded AS MATERIALIZED (
      SELECT * FROM "InsightsNameDelta" r WHERE ${windowHoursSql(plan, { anyStatus: true })}
    ),
    edge_names AS MATERIALIZED (SELECT * FROM "insights_name_rows"((SELECT traces FROM edge), true)),
    -- The few names with rows not yet folded: deltas and edge traces.
    recent AS MATERIALIZED (SELECT "name" FROM unfolded UNION SELECT "name" FROM edge_names),
    -- Names with more than one folded trace. The window's rows are matched against them
    -- through a hash of the names (a hashed subplan: "IS TRUE" keeps PostgreSQL from
    -- turning the IN into a join). As a join, it may probe the totals' index once per
    -- window row instead: ~330k probes over 30 days at 1M traces, 400 ms instead of 100
    -- when forced.
    repeated AS MATERIALIZED (SELECT "name" FROM "InsightsNameTotal" WHERE "traces" >= 2),
    summed AS (
      SELECT "name", sum("traces") AS traces, sum("retries") AS retries, sum("escalations") AS escalations
        FROM (
          -- Names with more than one folded trace.
          SELECT r."name", r."traces", r."retries", r."escalations"
            FROM "InsightsNameHour" r WHERE ${hours} AND (r."name" IN (SELECT "name" FROM repeated)) IS TRUE
          UNION ALL
          -- Recent names that are not, through the name index (bytewise, hence the collation).
          SELECT r."name", r."traces", r."retries", r."escalations"
            FROM recent n JOIN "InsightsNameHour" r ON r."name" COLLATE "C" = n."name"
           WHERE ${hours} AND n."name" NOT IN (SELECT "name" FROM repeated)
          UNION ALL
          SELECT r."name", r."traces", r."retries", r."escalations" FROM unfolded r WHERE ${hours}
          UNION ALL
          SELECT r."name", r."traces", r."retries", r."escalations" FROM edge_names r
        ) nm
       GROUP BY "name" HAVING sum("traces") > 0
    ),
    -- Every other name of the window has one folded trace in all of history: one row,
    -- nothing to sum. Only the first RATE_NAMES by name can make the list, found one of
    -- two ways, whichever reads fewer rows (the estimate below; PostgreSQL's own picked
    -- the walk where it read 95k entries to find 100):
    -- - walking the totals' names of one trace in name order, each probing the name index
    --   for its row in the window: ~RATE_NAMES x (all traces / window traces) entries;
    --   with no such names (a fleet's usual few dozen names) it costs nothing;
    -- - or sorting the window's rows of such names: window traces rows.
    walk AS (
      SELECT (SELECT coalesce(sum("traces"), 0) FROM tr) ^ 2
             > ${RATE_NAMES} * (SELECT coalesce(sum("traces"), 0) FROM "InsightsTraceHour") AS chosen
    ),
    single AS (
      (SELECT r."name", r."traces"::bigint AS traces, r."retries"::bigint AS retries, r."escalations"::bigint AS escalations
         FROM "InsightsNameTotal" t JOIN "InsightsNameHour" r ON r."name" COLLATE "C" = t."name" COLLATE "C"
        WHERE (SELECT chosen FROM walk) AND t."traces" = 1 AND ${hours}
          AND t."name" NOT IN (SELECT "name" FROM recent)
        ORDER BY t."name" COLLATE "C"
        LIMIT ${RATE_NAMES})
      UNION ALL
      (SELECT r."name", r."traces"::bigint, r."retries"::bigint, r."escalations"::bigint
         FROM "InsightsNameHour" r
        WHERE NOT (SELECT chosen FROM walk) AND ${hours} AND r."traces" > 0
          AND NOT (r."name" IN (SELECT "name" FROM repeated)) IS TRUE
          AND r."name" NOT IN (SELECT "name" FROM recent)
        ORDER BY r."name" COLLATE "C"
        LIMIT ${RATE_NAMES})
    ),
    rates AS (
      SELECT * FROM (SELECT * FROM summed UNION ALL SELECT * FROM single) x
       ORDER BY traces DESC, "name" COLLATE "C"
       LIMIT ${RATE_NAMES}
    )`;
}
