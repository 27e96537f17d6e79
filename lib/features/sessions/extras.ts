// What the sessions list shows of each session beyond its figures: its user and its first
// input. Read for one page of sessions only, after the page itself.
import 'server-only';
import type { SqlExecutor } from '@/lib/db/executor';
import { tracePreviews } from '@/lib/features/traces';
import { empty, join, sql } from '@/lib/db/sql';

export interface SessionExtras {
  userId: string | null;
  firstInput: string | null;
}

/**
 * The user of each session's latest trace that names one, and its first trace's input as
 * the trace list previews it (the root span's, else the first model call's). `userId`: only
 * that user's traces count, as in the figures.
 */
export async function sessionExtras(db: SqlExecutor, ids: string[], userId?: string): Promise<Map<string, SessionExtras>> {
  if (ids.length === 0) return new Map();
  const byUser = userId === undefined ? empty : sql` AND t."userId" = ${userId}`;
  const rows = await db.query<{ id: string; firstTraceId: string; userId: string | null }>(sql`
    SELECT t."sessionId" AS id,
      (array_agg(t."id" ORDER BY t."startedAt", t."id"))[1] AS "firstTraceId",
      (array_agg(t."userId" ORDER BY t."startedAt" DESC, t."id" DESC) FILTER (WHERE t."userId" IS NOT NULL))[1] AS "userId"
    FROM "Trace" t
    WHERE t."sessionId" IN (${join(ids.map((id) => sql`${id}`))})${byUser}
    GROUP BY t."sessionId"`);
  const previews = await tracePreviews(db, rows.map((r) => r.firstTraceId));
  return new Map(rows.map((r) => [r.id, { userId: r.userId, firstInput: previews.get(r.firstTraceId)?.inputPreview ?? null }]));
}
