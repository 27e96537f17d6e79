// GET /api/traces: parameter parsing and the paginated, filtered list.
import { AppError } from '@/lib/errors';
import { Prisma, type Trace } from '@/lib/generated/prisma/client';
import type { Db } from '@/lib/db';
import { escapeLike, parseTraceFilters, TRACE_FILTER_NAMES, traceWhereSql } from './filters';
import { toTraceRecord } from './serialize';
import type { ListParams, TraceFilterParams, TraceList } from './types';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const INTEGER = /^\d+$/;

/**
 * Strict: '1.5', 'abc', '', '0' are errors, never silently defaulted. An empty filter is
 * absent, as the spec's list has always read status, search and sessionId.
 */
export function parseListParams(query: URLSearchParams): ListParams {
  const pageRaw = query.get('page');
  const limitRaw = query.get('limit');
  const page = pageRaw === null ? 1 : INTEGER.test(pageRaw.trim()) ? Number(pageRaw.trim()) : NaN;
  if (!Number.isSafeInteger(page) || page < 1) throw new AppError('VALIDATION', 'Invalid page parameter');
  const limit = limitRaw === null ? DEFAULT_PAGE_SIZE : INTEGER.test(limitRaw.trim()) ? Number(limitRaw.trim()) : NaN;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new AppError('VALIDATION', 'Invalid limit parameter');
  }

  return { page, limit, ...parseTraceFilters(query, TRACE_FILTER_NAMES) };
}

/** The list's filters; SOAP's TRACE query passes `tag` too. */
export type ListFilters = TraceFilterParams;

// The list never loads children or payloads: only the row and its child counts (stored
// at ingest; aggregating the child tables would cost a join per row).
const LIST_COLUMNS = Prisma.raw(
  ['id', 'name', 'sessionId', 'status', 'tags', 'metadata', 'totalCost', 'totalTokens', 'totalDuration', 'startedAt', 'endedAt', 'createdAt', 'decisionPointCount', 'spanCount', 'eventCount']
    .map((c) => `t."${c}"`)
    .join(', '),
);
type ListRow = Omit<Trace, 'source' | 'lastSpanAt'>;

/**
 * Exact number of traces matching the filters. Without filters, or with only a status,
 * it is read from the trigger-maintained per-status counts (a count(*) over 1M traces
 * costs ~140 ms); a search alone is counted in the narrow lower-cased "TraceName" table
 * (see the trace_name_search migration: half the time of rechecking ILIKE on "Trace");
 * any other filter counts the matching rows through the shared filter SQL.
 */
export async function countTraces(db: Db, filters: ListFilters): Promise<number> {
  const { status, search } = filters;
  const noOtherFilter = TRACE_FILTER_NAMES.every((name) => name === 'status' || name === 'search' || filters[name] === undefined);
  if (noOtherFilter && !search) {
    const { _sum } = await db.traceStatusCount.aggregate({ _sum: { count: true }, where: status ? { status } : {} });
    return Number(_sum.count ?? 0);
  }
  if (noOtherFilter && search && status === undefined) {
    // lower() of both sides, then LIKE: how PostgreSQL evaluates ILIKE in a UTF-8 database.
    const pattern = `%${escapeLike(search)}%`;
    const [{ n }] = await db.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM "TraceName" WHERE "nameLower" LIKE lower(${pattern})`;
    return n;
  }
  const [{ n }] = await db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM "Trace" t ${traceWhereSql(filters)}`;
  return n;
}

export async function listTraces(db: Db, params: ListParams): Promise<TraceList> {
  const [rows, total] = await Promise.all([
    db.$queryRaw<ListRow[]>`SELECT ${LIST_COLUMNS} FROM "Trace" t ${traceWhereSql(params)}
      ORDER BY t."startedAt" DESC, t."id" DESC
      LIMIT ${params.limit} OFFSET ${(params.page - 1) * params.limit}`,
    countTraces(db, params),
  ]);
  return {
    traces: rows.map((row) => ({
      ...toTraceRecord(row),
      _count: { decisionPoints: row.decisionPointCount, spans: row.spanCount, events: row.eventCount },
    })),
    total,
    page: params.page,
    limit: params.limit,
    totalPages: Math.ceil(total / params.limit),
  };
}
