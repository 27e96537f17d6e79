// GET /api/sessions: sessions by latest activity, a page at a time.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { SqlExecutor } from '@/lib/db/executor';
import { escapeLike } from '@/lib/features/query';
import { TIME_RANGES } from '@/lib/features/traces/shared';
import { sessionExtras } from './extras';
import { sessionSummaries } from './summaries';
import type { SessionList, SessionListParams } from './types';
import { empty, join, raw, sql, type Sql } from '@/lib/db/sql';

/** Tuning of the walk, for tests that exercise its growth and its limit on small data. */
export interface SessionListOptions {
  /** Traces read by the first step of the walk (default: eight per session wanted, at least 256). */
  firstWalk?: number;
  /** Past this many traces the walk gives way to grouping them all (default 65,536). */
  maxWalk?: number;
}

const MAX_WALK = 65_536;

function byUser(params: SessionListParams, alias: string): Sql {
  return params.userId === undefined ? empty : sql` AND ${raw(alias)}."userId" = ${params.userId}`;
}

/** The conditions on each trace read: its user, and the session id searched (the same for all of a session's traces). */
function traceFilter(params: SessionListParams, alias: string): Sql {
  const search = params.search === undefined ? empty : sql` AND ${raw(alias)}."sessionId" ILIKE ${`%${escapeLike(params.search)}%`}`;
  return sql`${byUser(params, alias)}${search}`;
}

/** The status filter on the session `session` (its traces probed on the sessionId index): ERROR, else RUNNING, else COMPLETED. */
function statusExists(params: SessionListParams, session: Sql): Sql[] {
  const has = (status: string) =>
    sql`EXISTS (SELECT 1 FROM "Trace" x WHERE x."sessionId" = ${session}${byUser(params, 'x')} AND x."status" = CAST(${status} AS "RunStatus"))`;
  switch (params.status) {
    case 'ERROR':
      return [has('ERROR')];
    case 'RUNNING':
      return [sql`NOT ${has('ERROR')}`, has('RUNNING')];
    case 'COMPLETED':
      return [sql`NOT ${has('ERROR')}`, sql`NOT ${has('RUNNING')}`];
    default:
      return [];
  }
}

/** The same status filter over a session's grouped traces `t`. */
function statusAggregates(params: SessionListParams): Sql[] {
  const any = (status: string) => sql`bool_or(t."status" = CAST(${status} AS "RunStatus"))`;
  switch (params.status) {
    case 'ERROR':
      return [any('ERROR')];
    case 'RUNNING':
      return [sql`NOT ${any('ERROR')}`, any('RUNNING')];
    case 'COMPLETED':
      return [sql`NOT ${any('ERROR')}`, sql`NOT ${any('RUNNING')}`];
    default:
      return [];
  }
}

/**
 * The ids of the page's sessions, latest activity first (ties by id, descending). Walks
 * the traces newest first on the (startedAt, id) index, or (userId, startedAt, id) with a
 * user, reading more each step, until the sessions first seen strictly before the
 * oldest trace read fill the page: their order can no longer change. A session whose
 * latest trace is at or after `to` is left out (checked on the sessionId index).
 */
async function pageIds(db: SqlExecutor, params: SessionListParams, options: SessionListOptions): Promise<{ ids: string[]; total: number | null }> {
  const offset = (params.page - 1) * params.limit;
  const wanted = offset + params.limit;
  const window = sql`${params.from ? sql` AND t."startedAt" >= ${new Date(params.from)}` : empty}${
    params.to ? sql` AND t."startedAt" < ${new Date(params.to)}` : empty
  }`;
  const having = [
    ...(params.to ? [sql`NOT EXISTS (SELECT 1 FROM "Trace" x WHERE x."sessionId" = r."sessionId"${byUser(params, 'x')} AND x."startedAt" >= ${new Date(params.to)})`] : []),
    ...statusExists(params, raw('r."sessionId"')),
  ];
  const later = having.length ? sql` HAVING ${join(having, ' AND ')}` : empty;
  for (let walk = options.firstWalk ?? Math.max(256, wanted * 8); walk <= (options.maxWalk ?? MAX_WALK); walk *= 4) {
    const [step] = await db.query<{ walked: number; sessions: Array<{ id: string; settled: boolean }> }>(sql`
      WITH recent AS (
        SELECT t."sessionId", t."startedAt" FROM "Trace" t
        WHERE t."sessionId" IS NOT NULL${traceFilter(params, 't')}${window}
        ORDER BY t."startedAt" DESC, t."id" DESC LIMIT ${walk}
      ), edge AS (SELECT min("startedAt") AS at FROM recent),
      seen AS (
        SELECT r."sessionId" AS id, max(r."startedAt") AS last FROM recent r GROUP BY r."sessionId"${later}
      )
      SELECT (SELECT count(*) FROM recent)::int AS walked,
        COALESCE((SELECT json_agg(json_build_object('id', s.id, 'settled', s.last > edge.at) ORDER BY s.last DESC, s.id DESC)
          FROM seen s, edge), '[]'::json) AS sessions`);
    const complete = step.walked < walk;
    // Sessions seen at the oldest trace read may have an equal latest trace further on.
    const settled = complete ? step.sessions : step.sessions.filter((s) => s.settled);
    if (complete || settled.length >= wanted) {
      return { ids: settled.slice(offset, wanted).map((s) => s.id), total: complete ? step.sessions.length : null };
    }
  }
  // Deep pages: grouping every matching trace costs less than walking most of them.
  const rows = await db.query<{ id: string; total: number }>(sql`
    SELECT t."sessionId" AS id, (count(*) OVER ())::int AS total FROM "Trace" t WHERE t."sessionId" IS NOT NULL${traceFilter(params, 't')}
    GROUP BY t."sessionId"${windowHaving(params)}
    ORDER BY max(t."startedAt") DESC, t."sessionId" DESC LIMIT ${params.limit} OFFSET ${offset}`);
  return { ids: rows.map((r) => r.id), total: rows.length ? rows[0].total : null };
}

/** Latest activity in [from, to), and the status, over grouped traces. */
function windowHaving(params: SessionListParams): Sql {
  const having = [
    params.from ? sql`max(t."startedAt") >= ${new Date(params.from)}` : null,
    params.to ? sql`max(t."startedAt") < ${new Date(params.to)}` : null,
    ...statusAggregates(params),
  ].filter((c): c is Sql => c !== null);
  return having.length ? sql` HAVING ${join(having, ' AND ')}` : empty;
}

/** How many sessions match: a grouping of every matching trace (see README, Sessions). */
async function countSessions(db: SqlExecutor, params: SessionListParams): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM "Trace" t WHERE t."sessionId" IS NOT NULL${traceFilter(params, 't')} GROUP BY t."sessionId"${windowHaving(params)}
    ) s`);
  return n;
}

/** The params with a relative range made a `from` of this moment. */
function resolveRange({ range, ...params }: SessionListParams): SessionListParams {
  return range ? { ...params, from: new Date(Date.now() - TIME_RANGES[range]).toISOString() } : params;
}

export async function listSessions(ctx: ServiceContext, input: SessionListParams, options: SessionListOptions = {}): Promise<SessionList> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const params = resolveRange(input);
  const page = await pageIds(db, params, options);
  // A walk that read every matching trace counted the sessions on the way.
  const [summaries, extras, total] = await Promise.all([
    sessionSummaries(db, page.ids, params.userId),
    sessionExtras(db, page.ids, params.userId),
    page.total ?? countSessions(db, params),
  ]);
  // A session deleted between the reads is left out of its page.
  const sessions = page.ids.flatMap((id) => {
    const summary = summaries.get(id);
    return summary ? [{ ...summary, ...(extras.get(id) ?? { userId: null, firstInput: null }) }] : [];
  });
  return { sessions, total, page: params.page, limit: params.limit, totalPages: Math.ceil(total / params.limit) };
}
