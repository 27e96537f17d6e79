// What people (and evaluators) judged, across the traces of a window: per decision type and
// chosen option, how many `decision.correct` reviews and how many said right, and which
// better options `decision.better_option` named; and per score name and data type, the
// count, the average and the share per category. Scores count by their trace's startedAt,
// with the window's trace filters; a session's own scores belong to no trace and are left
// out. One statement, so its figures agree with each other; the decision figures
// (decisions.ts) are a statement of their own.
import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { requireScope, type ServiceContext } from '@/lib/context';
import { DECISION_BETTER_OPTION, DECISION_CORRECT } from '@/lib/scores/types';
import { traceWhereSql } from '@/lib/traces/filters';
import type { TraceFilterParams } from '@/lib/traces/types';
import { optionLabelSql } from './label-sql';
import { queryWithoutJit } from './no-jit';
import type { BetterOption, OptionStats, ScoreSummary } from './types';

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

export async function reviewFigures(ctx: ServiceContext, params: TraceFilterParams): Promise<ReviewFigures> {
  requireScope(ctx, 'read');
  const db = ctx.db.prisma;
  const [{ result }] = await queryWithoutJit(db, db.$queryRaw<Array<{ result: ReviewFigures }>>`
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
      SELECT p.reviewed, p."right", p.betters, d."type", ${optionLabelSql(Prisma.raw('d."chosen"'))} AS label
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
      SELECT "name", "dataType", count(*)::int AS n, avg("value") AS average FROM sc GROUP BY "name", "dataType"
    ),
    cats AS MATERIALIZED (
      SELECT "name", "dataType", v, n, row_number() OVER (PARTITION BY "name", "dataType" ORDER BY n DESC, v COLLATE "C") AS rank
        FROM (SELECT "name", "dataType",
                     CASE WHEN "dataType" = 'BOOLEAN' THEN CASE WHEN "value" <> 0 THEN 'true' ELSE 'false' END ELSE "stringValue" END AS v,
                     count(*)::int AS n
                FROM sc WHERE "dataType" <> 'NUMERIC' GROUP BY 1, 2, 3) c
    )
    SELECT json_build_object(
      'judged', (SELECT coalesce(json_agg(json_build_object('type', "type", 'label', label, 'reviewed', reviewed, 'right', "right")), '[]'::json) FROM judged),
      'better', (SELECT coalesce(json_agg(json_build_object('type', "type", 'label', label, 'better', better, 'count', n)
                   ORDER BY n DESC, better COLLATE "C"), '[]'::json) FROM better),
      'scores', (SELECT coalesce(json_agg(json_build_object(
                   'name', s."name", 'dataType', s."dataType", 'count', s.n,
                   'average', CASE WHEN s."dataType" = 'CATEGORICAL' THEN NULL ELSE s.average END,
                   'categories', coalesce((SELECT json_agg(json_build_object('value', c.v, 'count', c.n) ORDER BY c.n DESC, c.v COLLATE "C")
                                             FROM cats c WHERE c."name" = s."name" AND c."dataType" = s."dataType" AND c.rank <= ${CATEGORIES_PER_SCORE}), '[]'::json)
                 ) ORDER BY s."name" COLLATE "C", s."dataType"), '[]'::json) FROM summary s)
    ) AS result`);
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
