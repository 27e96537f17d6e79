// GET /api/sessions: sessions by latest activity, a page at a time.
import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { requireScope, type ServiceContext } from '@/lib/context';
import { sessionSummaries } from './summaries';
import type { SessionList, SessionListParams } from './types';

/**
 * The grouping of traces by session, filtered. The page and the count group over the
 * (sessionId, startedAt, id) index; only the page's sessions are then read in full.
 */
function groupedSql(params: SessionListParams): Prisma.Sql {
  const byUser = params.userId === undefined ? Prisma.empty : Prisma.sql` AND t."userId" = ${params.userId}`;
  const window = [
    params.from ? Prisma.sql`t."startedAt" >= ${new Date(params.from)}` : null,
    params.to ? Prisma.sql`t."startedAt" < ${new Date(params.to)}` : null,
  ].filter((c): c is Prisma.Sql => c !== null);
  // A session is in the window when one of its traces started there; its figures cover them all.
  const having = window.length ? Prisma.sql` HAVING bool_or(${Prisma.join(window, ' AND ')})` : Prisma.empty;
  return Prisma.sql`FROM "Trace" t WHERE t."sessionId" IS NOT NULL${byUser} GROUP BY t."sessionId"${having}`;
}

export async function listSessions(ctx: ServiceContext, params: SessionListParams): Promise<SessionList> {
  requireScope(ctx, 'read');
  const db = ctx.db.prisma;
  const grouped = groupedSql(params);
  const [page, [{ n: total }]] = await Promise.all([
    db.$queryRaw<Array<{ id: string }>>`
      SELECT t."sessionId" AS id ${grouped}
      ORDER BY max(t."startedAt") DESC, t."sessionId" DESC
      LIMIT ${params.limit} OFFSET ${(params.page - 1) * params.limit}`,
    db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM (SELECT 1 ${grouped}) s`,
  ]);
  const summaries = await sessionSummaries(db, page.map((r) => r.id), params.userId);
  // A session deleted between the two reads is left out of its page.
  const sessions = page.flatMap((r) => summaries.get(r.id) ?? []);
  return { sessions, total, page: params.page, limit: params.limit, totalPages: Math.ceil(total / params.limit) };
}
