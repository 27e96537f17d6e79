// GET /api/sessions/{id}: a session's figures and its traces oldest first, each with what
// went in and what came out.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { JsonValue, RunStatus } from '@/lib/features/traces/shared';
import { isValidId } from '@/lib/features/ingest/shared';
import { sessionSummaries } from './summaries';
import type { SessionDetail } from './types';
import { sql } from '@/lib/db/sql';

interface TurnRow {
  id: string;
  name: string;
  status: RunStatus;
  startedAt: Date;
  endedAt: Date | null;
  totalCost: number | null;
  totalTokens: number | null;
  input: JsonValue | null;
  output: JsonValue | null;
}

/**
 * Each trace's input and output are its root span's (no parent; the first by start), or,
 * where the root has none, its first model call's input and its last model call's output
 * (LLM_CALL spans by start). Read through the (traceId, startedAt) index; a model call is
 * only looked for when the root has nothing.
 */
export async function getSessionOrThrow(ctx: ServiceContext, id: string): Promise<SessionDetail> {
  requireScope(ctx, 'read');
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid session ID');
  const db = ctx.db.sql;
  const [summaries, rows] = await Promise.all([
    sessionSummaries(db, [id]),
    db.query<TurnRow>(sql`
      SELECT t."id", t."name", t."status", t."startedAt", t."endedAt", t."totalCost", t."totalTokens",
        COALESCE(NULLIF(root."input", 'null'::jsonb),
          (SELECT s."input" FROM "Span" s WHERE s."traceId" = t."id" AND s."type" = 'LLM_CALL'
           ORDER BY s."startedAt", s."id" LIMIT 1)) AS "input",
        COALESCE(NULLIF(root."output", 'null'::jsonb),
          (SELECT s."output" FROM "Span" s WHERE s."traceId" = t."id" AND s."type" = 'LLM_CALL'
           ORDER BY s."startedAt" DESC, s."id" DESC LIMIT 1)) AS "output"
      FROM "Trace" t
      LEFT JOIN LATERAL (
        SELECT s."input", s."output" FROM "Span" s
        WHERE s."traceId" = t."id" AND s."parentSpanId" IS NULL
        ORDER BY s."startedAt", s."id" LIMIT 1
      ) root ON true
      WHERE t."sessionId" = ${id}
      ORDER BY t."startedAt", t."id"`),
  ]);
  const session = summaries.get(id);
  if (!session || rows.length === 0) throw new AppError('NOT_FOUND', 'Session not found');
  return {
    session,
    traces: rows.map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      startedAt: r.startedAt.toISOString(),
      endedAt: r.endedAt ? r.endedAt.toISOString() : null,
      input: r.input ?? null,
      output: r.output ?? null,
      totalCost: r.totalCost,
      totalTokens: r.totalTokens,
    })),
  };
}
