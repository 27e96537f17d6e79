// "Compare with a successful run": the COMPLETED trace of the same name whose path shares
// the longest prefix with the given trace's (the most recent among equals).
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { isValidTraceId } from '@/lib/features/traces';
import { tracePathSql } from '@/lib/features/query';
import { sharedPrefixLength, type Step } from './steps';
import { raw, sql } from '@/lib/db/sql';

/**
 * Candidates looked at: the most recent completed traces of the name. Each needs its path
 * computed, so the search is bounded; an older run with a longer shared prefix is missed.
 */
export const SUCCESS_CANDIDATES = 2_000;

export interface SuccessfulMatch {
  /** The completed run to compare with, or null when the name has none (other than the trace). */
  traceId: string | null;
  /** Steps its path shares with the trace's, from the start. */
  sharedSteps: number;
  /** Steps on the trace's own path. */
  pathSteps: number;
}

export async function successfulMatch(ctx: ServiceContext, traceId: string): Promise<SuccessfulMatch> {
  requireScope(ctx, 'read');
  if (!isValidTraceId(traceId)) throw new AppError('VALIDATION', 'Invalid trace ID');
  const db = ctx.db.sql;
  const own = await db.query<{ name: string; steps: Step[] }>(sql`
    SELECT t."name", p.steps FROM "Trace" t CROSS JOIN LATERAL ${tracePathSql(raw('t."id"'))} p WHERE t."id" = ${traceId}`);
  if (own.length === 0) throw new AppError('NOT_FOUND', 'Trace not found');
  const { name, steps } = own[0];
  const candidates = await db.query<{ id: string; steps: Step[] }>(sql`
    SELECT c."id", p.steps
      FROM (SELECT t."id", t."startedAt" FROM "Trace" t
             WHERE t."name" = ${name} AND t."status" = 'COMPLETED' AND t."id" <> ${traceId}
             ORDER BY t."startedAt" DESC, t."id" DESC LIMIT ${SUCCESS_CANDIDATES}) c
     CROSS JOIN LATERAL ${tracePathSql(raw('c."id"'))} p
     ORDER BY c."startedAt" DESC, c."id" DESC`);
  let best: SuccessfulMatch = { traceId: null, sharedSteps: 0, pathSteps: steps.length };
  // Most recent first: a later candidate replaces the best only with a strictly longer prefix.
  for (const c of candidates) {
    const shared = sharedPrefixLength(steps, c.steps);
    if (best.traceId === null || shared > best.sharedSteps) best = { traceId: c.id, sharedSteps: shared, pathSteps: steps.length };
  }
  return best;
}
