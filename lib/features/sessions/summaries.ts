// The figures of given sessions, in one grouped read over the sessionId index.
import 'server-only';
import type { SqlExecutor } from '@/lib/db/executor';
import type { SessionSummary } from './types';
import { empty, join, sql } from '@/lib/db/sql';

interface SummaryRow {
  id: string;
  traces: number;
  errorTraces: number;
  firstStartedAt: Date;
  lastStartedAt: Date;
  totalCost: number | null;
  totalTokens: number | null;
}

/** Sessions without traces are absent from the map. `userId`: only that user's traces count. */
export async function sessionSummaries(db: SqlExecutor, ids: string[], userId?: string): Promise<Map<string, SessionSummary>> {
  if (ids.length === 0) return new Map();
  const byUser = userId === undefined ? empty : sql` AND t."userId" = ${userId}`;
  const rows = await db.query<SummaryRow>(sql`
    SELECT t."sessionId" AS id, count(*)::int AS traces,
      (count(*) FILTER (WHERE t."status" = 'ERROR'))::int AS "errorTraces",
      min(t."startedAt") AS "firstStartedAt", max(t."startedAt") AS "lastStartedAt",
      sum(t."totalCost") AS "totalCost", sum(t."totalTokens") AS "totalTokens"
    FROM "Trace" t
    WHERE t."sessionId" IN (${join(ids.map((id) => sql`${id}`))})${byUser}
    GROUP BY t."sessionId"`);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        traces: r.traces,
        errorTraces: r.errorTraces,
        firstStartedAt: r.firstStartedAt.toISOString(),
        lastStartedAt: r.lastStartedAt.toISOString(),
        totalCost: r.totalCost === null ? null : Number(r.totalCost),
        totalTokens: r.totalTokens === null ? null : Number(r.totalTokens),
      },
    ]),
  );
}
