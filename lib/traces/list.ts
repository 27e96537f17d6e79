// GET /api/traces: parameter parsing and the paginated, filtered list.
import { AppError } from '@/lib/errors';
import type { Prisma } from '@/lib/generated/prisma/client';
import type { Db } from '@/lib/db';
import { toTraceRecord } from './serialize';
import { RUN_STATUSES, type ListParams, type RunStatus, type TraceList } from './types';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const INTEGER = /^\d+$/;

/** Strict: '1.5', 'abc', '', '0' are errors, never silently defaulted. */
export function parseListParams(query: URLSearchParams): ListParams {
  const pageRaw = query.get('page');
  const limitRaw = query.get('limit');
  const page = pageRaw === null ? 1 : INTEGER.test(pageRaw.trim()) ? Number(pageRaw.trim()) : NaN;
  if (!Number.isSafeInteger(page) || page < 1) throw new AppError('VALIDATION', 'Invalid page parameter');
  const limit = limitRaw === null ? DEFAULT_PAGE_SIZE : INTEGER.test(limitRaw.trim()) ? Number(limitRaw.trim()) : NaN;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new AppError('VALIDATION', 'Invalid limit parameter');
  }

  const params: ListParams = { page, limit };
  const status = query.get('status');
  if (status !== null && status !== '') {
    if (!(RUN_STATUSES as readonly string[]).includes(status)) {
      throw new AppError('VALIDATION', `Invalid status parameter: must be one of ${RUN_STATUSES.join(', ')}`);
    }
    params.status = status as RunStatus;
  }
  const search = query.get('search');
  if (search) params.search = search;
  const sessionId = query.get('sessionId');
  if (sessionId) params.sessionId = sessionId;
  return params;
}

export interface ListFilters {
  status?: RunStatus;
  search?: string;
  sessionId?: string;
  /** Exact tag match (SOAP query filter). */
  tag?: string;
}

// Prisma passes `contains` through to ILIKE '%…%' without escaping LIKE wildcards, so
// a search for "50%" or "a_b" would match far more than the substring; escape them.
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function traceWhere(filters: ListFilters): Prisma.TraceWhereInput {
  const where: Prisma.TraceWhereInput = {};
  if (filters.status) where.status = filters.status;
  if (filters.sessionId !== undefined) where.sessionId = filters.sessionId;
  if (filters.search) where.name = { contains: escapeLike(filters.search), mode: 'insensitive' };
  if (filters.tag !== undefined) where.tags = { has: filters.tag };
  return where;
}

// The list never loads children or payloads: only the row and its child counts.
const LIST_SELECT = {
  id: true,
  name: true,
  sessionId: true,
  status: true,
  tags: true,
  metadata: true,
  totalCost: true,
  totalTokens: true,
  totalDuration: true,
  startedAt: true,
  endedAt: true,
  createdAt: true,
  // Stored at ingest; Prisma's relation _count would aggregate whole child tables.
  decisionPointCount: true,
  spanCount: true,
  eventCount: true,
} satisfies Prisma.TraceSelect;

/**
 * Exact number of traces matching the filters. Without filters, or with only a status,
 * it is read from the trigger-maintained per-status counts (a count(*) over 1M traces
 * costs ~140 ms); a search alone is counted in the narrow lower-cased "TraceName" table
 * (see the trace_name_search migration: half the time of rechecking ILIKE on "Trace");
 * other filters count the matching rows through their indexes.
 */
export async function countTraces(db: Db, filters: ListFilters): Promise<number> {
  const { status, search, sessionId, tag } = filters;
  const noOtherFilter = sessionId === undefined && tag === undefined;
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
  return db.trace.count({ where: traceWhere(filters) });
}

export async function listTraces(db: Db, params: ListParams & { tag?: string }): Promise<TraceList> {
  const where = traceWhere(params);
  const [rows, total] = await Promise.all([
    db.trace.findMany({
      where,
      select: LIST_SELECT,
      // id breaks ties so paging is stable when traces share a start time.
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      skip: (params.page - 1) * params.limit,
      take: params.limit,
    }),
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
