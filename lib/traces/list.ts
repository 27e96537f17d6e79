// GET /api/traces: parameter parsing and the paginated, filtered list.
import 'server-only';
import { AppError } from '@/lib/errors';
import { Prisma } from '@/lib/generated/prisma/client';
import { requireScope, type ServiceContext } from '@/lib/context';
import type { Db } from '@/lib/db';
import { enumParam, escapeLike, parseTraceFilters, TRACE_FILTER_NAMES, traceWhereSql } from './filters';
import { LIST_COLUMNS, toListItem, type ListRow } from './list-row';
import { tracePreviews, type TracePreview } from './previews';
import { findMatches, searchTracePage } from './search';
import { SORT_FIELDS, SORT_ORDERS, type ListParams, type SortField, type SortOrder, type TraceFilterParams, type TraceList } from './types';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const INTEGER = /^\d+$/;

/**
 * Strict: '1.5', 'abc', '', '0' are errors, never silently defaulted. An empty filter is
 * absent, as the spec's list has always read status, search and sessionId.
 */
export function parseListParams(query: URLSearchParams): ListParams {
  const { page, limit } = parsePageParams(query);
  const sort = enumParam<SortField>(query, 'sort', SORT_FIELDS);
  const order = enumParam<SortOrder>(query, 'order', SORT_ORDERS);
  return { page, limit, ...(sort && { sort }), ...(order && { order }), ...parseTraceFilters(query, TRACE_FILTER_NAMES) };
}

/** page and limit as the trace list reads them (the seed contract's rules and messages), for every paged list. */
export function parsePageParams(query: Pick<URLSearchParams, 'get'>): { page: number; limit: number } {
  const pageRaw = query.get('page');
  const limitRaw = query.get('limit');
  const page = pageRaw === null ? 1 : INTEGER.test(pageRaw.trim()) ? Number(pageRaw.trim()) : NaN;
  if (!Number.isSafeInteger(page) || page < 1) throw new AppError('VALIDATION', 'Invalid page parameter');
  const limit = limitRaw === null ? DEFAULT_PAGE_SIZE : INTEGER.test(limitRaw.trim()) ? Number(limitRaw.trim()) : NaN;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new AppError('VALIDATION', 'Invalid limit parameter');
  }
  return { page, limit };
}

const SORT_COLUMNS: Record<SortField, string> = { startedAt: 'startedAt', duration: 'totalDuration', cost: 'totalCost' };

/**
 * ORDER BY of the list over "Trace" t: the sort column, then the id in the same direction
 * so pages never overlap. Traces without a duration or cost come last in both orders;
 * each order has its index (search_and_filters migration).
 */
export function listOrderSql(sort: SortField = 'startedAt', order: SortOrder = 'desc'): Prisma.Sql {
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const nulls = sort === 'startedAt' ? '' : ' NULLS LAST';
  return Prisma.raw(`t."${SORT_COLUMNS[sort]}" ${dir}${nulls}, t."id" ${dir}`);
}

/** The list's filters; SOAP's TRACE query passes `tag` too. */
export type ListFilters = TraceFilterParams;

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

/** The filters alone, without paging and sorting. */
function filtersOf(params: ListParams): TraceFilterParams {
  const filters: TraceFilterParams & Partial<ListParams> = { ...params };
  delete filters.page;
  delete filters.limit;
  delete filters.sort;
  delete filters.order;
  return filters;
}

/** Tuning of the search plan, for tests that exercise both plans on small data. */
export interface ListOptions {
  search?: { probeCap?: number; walkChunk?: number };
  /** Adds each row's input/output previews and models (GET /api/traces, the list page); SOAP's rows have no field for them. */
  previews?: boolean;
}

async function previewsOf(db: Db, ids: string[], wanted: boolean | undefined): Promise<Map<string, TracePreview>> {
  return wanted ? tracePreviews(db, ids) : new Map();
}

export async function listTraces(ctx: ServiceContext, params: ListParams, options: ListOptions = {}): Promise<TraceList> {
  requireScope(ctx, 'read');
  const db = ctx.db.prisma;
  const orderBy = listOrderSql(params.sort, params.order);
  const offset = (params.page - 1) * params.limit;
  const { q, ...filters } = filtersOf(params);
  if (q !== undefined) {
    const found = await searchTracePage(db, q, traceWhereSql(filters), orderBy, { limit: params.limit, offset }, () =>
      countTraces(db, filters),
      options.search,
    );
    const ids = found.rows.map((r) => r.id);
    const [matches, previews] = await Promise.all([findMatches(db, ids, q), previewsOf(db, ids, options.previews)]);
    return {
      traces: found.rows.map((row) => ({ ...toListItem(row), ...previews.get(row.id), matches: matches.get(row.id) ?? [] })),
      ...pageInfo(params, found.total),
      totalExact: found.totalExact,
    };
  }
  const [rows, total] = await Promise.all([
    db.$queryRaw<ListRow[]>`SELECT ${LIST_COLUMNS} FROM "Trace" t ${traceWhereSql(filters)}
      ORDER BY ${orderBy} LIMIT ${params.limit} OFFSET ${offset}`,
    countTraces(db, filters),
  ]);
  const previews = await previewsOf(db, rows.map((r) => r.id), options.previews);
  return { traces: rows.map((row) => ({ ...toListItem(row), ...previews.get(row.id) })), ...pageInfo(params, total) };
}

function pageInfo(params: ListParams, total: number) {
  return { total, page: params.page, limit: params.limit, totalPages: Math.ceil(total / params.limit) };
}
