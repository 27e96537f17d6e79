// Paging and sorting of the trace list as its query string reads them (the seed contract's rules
// and messages); page and limit also for every other paged list.
import { AppError } from '@/lib/core/errors';
import { SCORE_LIMITS } from '@/lib/features/scores/shared';
import { scoreSortName, SORT_FIELDS, SORT_ORDERS, type ListParams, type ListSort, type SortField, type SortOrder } from '@/lib/features/traces/shared';
import { enumParam, invalidParam, parseTraceFilters, TRACE_FILTER_NAMES } from './filters';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const INTEGER = /^\d+$/;

/**
 * Strict: '1.5', 'abc', '', '0' are errors, never silently defaulted. An empty filter is
 * absent, as the spec's list has always read status, search and sessionId.
 */
export function parseListParams(query: URLSearchParams): ListParams {
  const { page, limit } = parsePageParams(query);
  const sort = parseSort(query);
  const order = enumParam<SortOrder>(query, 'order', SORT_ORDERS);
  return { page, limit, ...(sort && { sort }), ...(order && { order }), ...parseTraceFilters(query, TRACE_FILTER_NAMES) };
}

/** A column (startedAt, duration, cost), or `score.<name>`: the trace's average of that score name. */
function parseSort(query: Pick<URLSearchParams, 'get'>): ListSort | undefined {
  const raw = query.get('sort');
  const name = scoreSortName(raw ?? undefined);
  if (name === null) return enumParam<SortField>(query, 'sort', SORT_FIELDS);
  if (name === '') throw invalidParam('sort', 'needs a score name after "score." (sort=score.<name>)');
  if (Array.from(name).length > SCORE_LIMITS.nameLength) throw invalidParam('sort', `score names are at most ${SCORE_LIMITS.nameLength} characters`);
  if (name.includes('\u0000')) throw invalidParam('sort', 'must not contain a NUL character');
  return raw as ListSort;
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

