// The judged-right share of each branch of the fleet's forks: among the reviewed decisions
// (a `decision.correct` boolean score) that chose an option after a given prefix of steps,
// the share judged right. The Path tab shows it on each branch, taken or not.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { InsightsParams } from '@/lib/features/insights/shared';
import type { JsonValue } from '@/lib/core/json';
import { traceWhereSql } from '@/lib/features/query';
import { DECISION_CORRECT } from './fleet';
import { branchReviewsOf, type BranchReview } from './branch-reviews';
import { raw, sql } from '@/lib/db/sql';

/**
 * Reviewed traces read, the most recent first: each is read whole (its decisions place a
 * review on its path), so the read is bounded; `limited` says when more were reviewed.
 */
export const REVIEWED_TRACES_READ = 500;

export interface PathReviews {
  from: string;
  to: string;
  name: string | null;
  /** Traces in the window with at least one decision review, as read (at most REVIEWED_TRACES_READ). */
  reviewedTraces: number;
  /** True when the window held more reviewed traces than were read. */
  limited: boolean;
  branches: BranchReview[];
}

export async function pathReviews(ctx: ServiceContext, params: InsightsParams): Promise<PathReviews> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const { from, to, ...filters } = params;
  const where = traceWhereSql({ ...filters, from, to });
  const reviewed = sql`EXISTS (SELECT 1 FROM "Score" sc
                    WHERE sc."traceId" = t."id" AND sc."decisionPointId" IS NOT NULL
                      AND sc."name" = ${DECISION_CORRECT} AND sc."dataType" = 'BOOLEAN')`;
  const limit = REVIEWED_TRACES_READ + 1;
  const traces =
    filters.tag?.length || filters.sessionId !== undefined
      ? await db.query<{ id: string }>(sql`
          SELECT t."id" FROM "Trace" t ${where} AND ${reviewed} ORDER BY t."startedAt" DESC, t."id" DESC LIMIT ${limit}`)
      : // The reviewed traces' stored rows, newest first (an index scan), except marked ones,
        // whose reviews and figures are read from "Score" and "Trace" as they are now.
        await db.query<{ id: string }>(sql`
          WITH marked AS MATERIALIZED (SELECT DISTINCT m."traceId" AS id FROM "TracePathDirty" m)
          SELECT x.id FROM (
            (SELECT tp."traceId" AS id, tp."startedAt" FROM "TracePath" tp
               ${traceWhereSql({ name: filters.name, status: filters.status, from, to }, raw('tp'))} AND tp."reviewed" > 0
               AND (NOT (SELECT EXISTS (SELECT 1 FROM marked)) OR NOT EXISTS (SELECT 1 FROM marked mk WHERE mk.id = tp."traceId"))
             ORDER BY tp."startedAt" DESC, tp."traceId" DESC LIMIT ${limit})
            UNION ALL
            SELECT t."id", t."startedAt" FROM "Trace" t ${where} AND t."id" IN (SELECT mk.id FROM marked mk) AND ${reviewed}
          ) x
          ORDER BY x."startedAt" DESC, x.id DESC LIMIT ${limit}`);
  const limited = traces.length > REVIEWED_TRACES_READ;
  const ids = traces.slice(0, REVIEWED_TRACES_READ).map((t) => t.id);
  if (ids.length === 0) return { from, to, name: params.name ?? null, reviewedTraces: 0, limited: false, branches: [] };
  // Each parent span looked up by its key: a join let the planner hash the whole span table
  // when it misjudged how many decisions 500 traces have.
  const [decisions, scores] = await Promise.all([
    db.query<{ traceId: string; id: string; type: BranchReview['type']; chosen: JsonValue; timestamp: Date; parentStartedAt: Date | null }>(sql`
      SELECT d."traceId", d."id", d."type"::text AS type, d."chosen", d."timestamp",
             (SELECT ps."startedAt" FROM "Span" ps WHERE ps."traceId" = d."traceId" AND ps."id" = d."parentSpanId") AS "parentStartedAt"
        FROM "DecisionPoint" d
       WHERE d."traceId" = ANY (${ids}::text[])`),
    db.query<{ traceId: string; decisionPointId: string; value: number | null }>(sql`
      SELECT sc."traceId", sc."decisionPointId", sc."value" FROM "Score" sc
       WHERE sc."traceId" = ANY (${ids}::text[]) AND sc."decisionPointId" IS NOT NULL
         AND sc."name" = ${DECISION_CORRECT} AND sc."dataType" = 'BOOLEAN'`),
  ]);
  return { from, to, name: params.name ?? null, reviewedTraces: ids.length, limited, branches: branchReviewsOf(decisions, scores) };
}
