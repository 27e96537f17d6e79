// What people (and evaluators) judged, across the traces of a window: per decision type and
// chosen option, how many `decision.correct` reviews and how many said right, and which
// better options `decision.better_option` named; and per score name and data type, the
// count, the average and the share per category. Scores count by their trace's startedAt,
// with the window's trace filters; a session's own scores belong to no trace and are left
// out. One statement, so its figures agree with each other; the decision figures
// (decisions.ts) are a statement of their own.
//
// Read from the score rollups (migration 20261203010000_score_rollups) when the window
// holds a whole hour and the only filter is status, as the decision figures are
// (rollups.ts); from the scores of the window's traces otherwise. Both give the same
// answer, averages included: taken in numeric, as the rollups keep the sums.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { DECISION_BETTER_OPTION, DECISION_CORRECT } from '@/lib/features/scores/shared';
import { traceWhereSql } from '@/lib/features/query';
import type { TraceFilterParams } from '@/lib/features/traces/shared';
import { optionLabelSql } from '@/lib/features/query';
import { queryWithoutJit } from '@/lib/db/no-jit';
import { edgeCteSql, rollupPlan, rollupRowsSql, type RollupPlan } from './rollups';
import type { BetterOption, OptionStats, ScoreSummary } from './types';
import { raw, sql } from '@/lib/db/sql';

/** At most this many categories per score name (the most frequent). */
export const CATEGORIES_PER_SCORE = 100;

interface Judged {
  type: string;
  label: string;
  reviewed: number;
  right: number;
}

interface Better {
  type: string;
  label: string;
  better: string;
  count: number;
}

export interface ReviewFigures {
  judged: Judged[];
  better: Better[];
  scores: ScoreSummary[];
}

/** The review figures and score summary of the window's traces, from the rollups when they can answer. */
export async function reviewFigures(ctx: ServiceContext, params: TraceFilterParams & { from: string; to: string }): Promise<ReviewFigures> {
  requireScope(ctx, 'read');
  const plan = rollupPlan(params);
  return plan ? reviewFiguresFromRollups(ctx, plan) : reviewFiguresFromTraces(ctx, params);
}

// The answer as one JSON object, from the CTEs both ways define: judged (type, label,
// reviewed, right), better (type, label, better, n), summary (name, dataType, n, average)
// and cats (name, dataType, v, n, rank).
const figuresSql = sql`SELECT json_build_object(
      'judged', (SELECT coalesce(json_agg(json_build_object('type', "type", 'label', label, 'reviewed', reviewed, 'right', "right")), '[]'::json) FROM judged),
      'better', (SELECT coalesce(json_agg(json_build_object('type', "type", 'label', label, 'better', better, 'count', n)
                   ORDER BY n DESC, better COLLATE "C"), '[]'::json) FROM better),
      'scores', (SELECT coalesce(json_agg(json_build_object(
                   'name', s."name", 'dataType', s."dataType", 'count', s.n,
                   'average', CASE WHEN s."dataType" = 'CATEGORICAL' THEN NULL ELSE s.average END,
                   'categories', coalesce((SELECT json_agg(json_build_object('value', c.v, 'count', c.n) ORDER BY c.n DESC, c.v COLLATE "C")
                                             FROM cats c WHERE c."name" = s."name" AND c."dataType" = s."dataType" AND c.rank <= ${CATEGORIES_PER_SCORE}), '[]'::json)
                 ) ORDER BY s."name" COLLATE "C", s."dataType"), '[]'::json) FROM summary s)
    ) AS result`;

/** The figures computed from the scores of the window's traces (any trace filter). */
export async function reviewFiguresFromTraces(ctx: ServiceContext, params: TraceFilterParams): Promise<ReviewFigures> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const [{ result }] = await queryWithoutJit<{ result: ReviewFigures }>(db, sql`
    WITH win AS MATERIALIZED (SELECT t."id" FROM "Trace" t ${traceWhereSql(params)}),
    sc AS MATERIALIZED (
      SELECT s."traceId", s."decisionPointId", s."name", s."dataType", s."value", s."stringValue"
        FROM win w JOIN "Score" s ON s."traceId" = w."id"
    ),
    -- Reviews per decision point first, so each reviewed decision's label is computed once.
    per_dp AS (
      SELECT "traceId", "decisionPointId",
             count(*) FILTER (WHERE "name" = ${DECISION_CORRECT} AND "dataType" = 'BOOLEAN')::int AS reviewed,
             count(*) FILTER (WHERE "name" = ${DECISION_CORRECT} AND "dataType" = 'BOOLEAN' AND "value" <> 0)::int AS "right",
             array_agg("stringValue") FILTER (WHERE "name" = ${DECISION_BETTER_OPTION} AND "dataType" = 'CATEGORICAL') AS betters
        FROM sc WHERE "decisionPointId" IS NOT NULL AND "name" IN (${DECISION_CORRECT}, ${DECISION_BETTER_OPTION})
       GROUP BY "traceId", "decisionPointId"
    ),
    labelled AS MATERIALIZED (
      SELECT p.reviewed, p."right", p.betters, d."type", ${optionLabelSql(raw('d."chosen"'))} AS label
        FROM per_dp p JOIN "DecisionPoint" d ON d."traceId" = p."traceId" AND d."id" = p."decisionPointId"
    ),
    judged AS (
      SELECT "type", label, sum(reviewed)::int AS reviewed, sum("right")::int AS "right"
        FROM labelled GROUP BY "type", label HAVING sum(reviewed) > 0
    ),
    better AS (
      SELECT l."type", l.label, b AS better, count(*)::int AS n
        FROM labelled l CROSS JOIN LATERAL unnest(l.betters) AS b
       GROUP BY l."type", l.label, b
    ),
    summary AS (
      SELECT "name", "dataType", count(*)::int AS n, avg("value"::numeric)::float8 AS average FROM sc GROUP BY "name", "dataType"
    ),
    cats AS MATERIALIZED (
      SELECT "name", "dataType", v, n, row_number() OVER (PARTITION BY "name", "dataType" ORDER BY n DESC, v COLLATE "C") AS rank
        FROM (SELECT "name", "dataType",
                     CASE WHEN "dataType" = 'BOOLEAN' THEN CASE WHEN "value" <> 0 THEN 'true' ELSE 'false' END ELSE "stringValue" END AS v,
                     count(*)::int AS n
                FROM sc WHERE "dataType" <> 'NUMERIC' GROUP BY 1, 2, 3) c
    )
    ${figuresSql}`);
  return result;
}

/**
 * The same figures summed from the score rollups of the window's whole hours, their
 * unfolded deltas and the edge hours' traces (rollups.ts). Keys whose figures went back
 * to zero (deletes) are left out.
 */
export async function reviewFiguresFromRollups(ctx: ServiceContext, plan: RollupPlan): Promise<ReviewFigures> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const [{ result }] = await queryWithoutJit<{ result: ReviewFigures }>(db, sql`
    WITH ${edgeCteSql(plan)},
    sc AS MATERIALIZED (
      SELECT "name", "dataType", "category", sum("scores") AS n, sum("valueSum") AS value_sum, sum("valueCount") AS value_count
        FROM ${rollupRowsSql('InsightsScoreHour', plan)} r GROUP BY 1, 2, 3 HAVING sum("scores") <> 0
    ),
    judged AS (
      SELECT "type", "label" AS label, sum("reviews")::int AS reviewed, sum("judgedRight")::int AS "right"
        FROM ${rollupRowsSql('InsightsReviewHour', plan)} r GROUP BY 1, 2 HAVING sum("reviews") > 0
    ),
    better AS (
      SELECT "type", "label" AS label, "better", sum("scores")::int AS n
        FROM ${rollupRowsSql('InsightsBetterHour', plan)} r GROUP BY 1, 2, 3 HAVING sum("scores") > 0
    ),
    summary AS (
      SELECT "name", "dataType", sum(n)::int AS n, (sum(value_sum) / nullif(sum(value_count), 0))::float8 AS average
        FROM sc GROUP BY 1, 2
    ),
    cats AS MATERIALIZED (
      SELECT "name", "dataType", "category" AS v, n::int AS n,
             row_number() OVER (PARTITION BY "name", "dataType" ORDER BY n DESC, "category" COLLATE "C") AS rank
        FROM sc WHERE "dataType" <> 'NUMERIC'
    )
    ${figuresSql}`);
  return result;
}

/** The option rows with their review figures (an option nobody reviewed: 0, 0, null, []). */
export function withReviews(options: OptionStats[], figures: ReviewFigures): OptionStats[] {
  const key = (type: string, label: string) => `${type}\u0000${label}`;
  const judged = new Map(figures.judged.map((j) => [key(j.type, j.label), j]));
  const better = new Map<string, BetterOption[]>();
  // Already by count descending, then label: kept per option in that order.
  for (const b of figures.better) {
    const k = key(b.type, b.label);
    const list = better.get(k) ?? [];
    list.push({ label: b.better, count: b.count });
    better.set(k, list);
  }
  return options.map((o) => {
    const j = judged.get(key(o.type, o.label));
    const reviewed = j?.reviewed ?? 0;
    const judgedRight = j?.right ?? 0;
    return {
      ...o,
      reviewed,
      judgedRight,
      judgedRightShare: reviewed === 0 ? null : judgedRight / reviewed,
      betterOptions: better.get(key(o.type, o.label)) ?? [],
    };
  });
}
