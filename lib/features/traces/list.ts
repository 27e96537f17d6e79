// GET /api/traces: the paginated, filtered list (its parameters: lib/features/query/list-params.ts).
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { SqlExecutor } from '@/lib/db/executor';
import { escapeLike, LIST_COLUMNS, toListItem, TRACE_FILTER_NAMES, traceScoreAverageSql, traceWhereSql, type ListRow } from '@/lib/features/query';
import { tracePreviews, type TracePreview } from './previews';
import { countTracesByStatus } from './status-counts';
import { traceScoreSummaries } from './score-summary';
import { findMatches, searchTracePage } from '@/lib/features/search';
import {
  scoreSortName,
  type ListParams,
  type ListSort,
  type SortField,
  type SortOrder,
  type TraceFilterParams,
  type TraceList,
  type TraceListItem,
} from './types';
import { raw, sql, type Sql } from '@/lib/db/sql';

const SORT_COLUMNS: Record<SortField, string> = { startedAt: 'startedAt', duration: 'totalDuration', cost: 'totalCost' };

/**
 * ORDER BY of the list over "Trace" t: the sort column, then the id in the same direction
 * so pages never overlap. Traces without a duration or cost come last in both orders;
 * each order has its index (search_and_filters migration). A score sort orders by the
 * trace's average of that name, computed per candidate trace (no index holds it), traces
 * without one last.
 */
export function listOrderSql(sort: ListSort = 'startedAt', order: SortOrder = 'desc'): Sql {
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const scoreName = scoreSortName(sort);
  if (scoreName !== null) return sql`${traceScoreAverageSql(raw('t'), scoreName)} ${raw(dir)} NULLS LAST, t."id" ${raw(dir)}`;
  const nulls = sort === 'startedAt' ? '' : ' NULLS LAST';
  return raw(`t."${SORT_COLUMNS[sort as SortField]}" ${dir}${nulls}, t."id" ${dir}`);
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
export async function countTraces(db: SqlExecutor, filters: ListFilters): Promise<number> {
  const { status, search } = filters;
  const noOtherFilter = TRACE_FILTER_NAMES.every((name) => name === 'status' || name === 'search' || filters[name] === undefined);
  if (noOtherFilter && !search) {
    return countTracesByStatus(db, status);
  }
  if (noOtherFilter && search && status === undefined) {
    // lower() of both sides, then LIKE: how PostgreSQL evaluates ILIKE in a UTF-8 database.
    const pattern = `%${escapeLike(search)}%`;
    const [{ n }] = await db.query<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM "TraceName" WHERE "nameLower" LIKE lower(${pattern})`);
    return n;
  }
  const [{ n }] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "Trace" t ${traceWhereSql(filters)}`);
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

// The page's rows' previews and score summaries, read together after the page.
async function previewsOf(db: SqlExecutor, ids: string[], wanted: boolean | undefined): Promise<Map<string, Partial<TracePreview> & Pick<TraceListItem, 'scoreSummary'>>> {
  if (!wanted) return new Map();
  const [previews, scores] = await Promise.all([tracePreviews(db, ids), traceScoreSummaries(db, ids)]);
  return new Map(ids.map((id) => [id, { ...previews.get(id), scoreSummary: scores.get(id) ?? [] }]));
}

export async function listTraces(ctx: ServiceContext, params: ListParams, options: ListOptions = {}): Promise<TraceList> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
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
    db.query<ListRow>(sql`SELECT ${LIST_COLUMNS} FROM "Trace" t ${traceWhereSql(filters)}
      ORDER BY ${orderBy} LIMIT ${params.limit} OFFSET ${offset}`),
    countTraces(db, filters),
  ]);
  const previews = await previewsOf(db, rows.map((r) => r.id), options.previews);
  return { traces: rows.map((row) => ({ ...toListItem(row), ...previews.get(row.id) })), ...pageInfo(params, total) };
}

function pageInfo(params: ListParams, total: number) {
  return { total, page: params.page, limit: params.limit, totalPages: Math.ceil(total / params.limit) };
}
