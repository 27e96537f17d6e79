// React Query options for traces: one factory per entity (STYLE.md), the browser-side
// fetchers of /api/traces, and the list's URL state. Safe for client components and
// for server components that seed the cache: no server module is imported here.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { scoreSortName, SORT_FIELDS, SORT_ORDERS, type ListSort, type SearchMatch, type ListParams, type SortField, type SortOrder, type SpanRecord, type SuggestField, type TraceList, type TraceSearchResult } from '@/lib/features/traces/shared';
import { outlineFromColumns, type ColumnarOutline } from '@/lib/features/traces/shared';
import { listFilterKey, readListFilters, readListRange, writeListFilters, type ReadableQuery } from './list-filters';

/** How often lists and traces that are still RUNNING refresh themselves. */
export const LIVE_REFRESH_MS = 5_000;

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const PAGE_SIZE_CHOICES = [10, 20, 50, 100] as const;
/** Suggestions a filter field offers at once. */
export const SUGGESTIONS = 12;

/** An HTTP failure of the API, carrying its status and the API's `{error}` message. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** Server errors and network failures may pass; a 4xx will not change on retry. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status >= 500;
}

/** Fetches the app's JSON API; failures become ApiError (the API's message) or a readable network error. */
export async function fetchJson<T>(url: string, init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new Error('Could not reach the server. Check your connection and try again.', { cause: err });
  }
  if (!res.ok) {
    let message = `Request failed (HTTP ${res.status})`;
    try {
      const body = (await res.json()) as { error?: unknown };
      if (typeof body.error === 'string' && body.error) message = body.error;
    } catch {
      // Not JSON (a proxy's error page): keep the generic message.
    }
    throw new ApiError(res.status, message);
  }
  return (await res.json()) as T;
}

/** A write to the API: the body sent as JSON, the answer read as fetchJson reads it. */
export function sendJson<T>(method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<T> {
  return fetchJson<T>(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  return fetchJson<T>(url, { signal });
}

// ---------------------------------------------------------------------------
// List state in the URL

/** The list's URL state, read leniently: what the API would reject is reported, not thrown. */
export interface ListUrlState {
  params: ListParams;
  /** Why the URL's parameters cannot be used as they are (shown to the user). */
  problem: string | null;
}

type ReadableParams = ReadableQuery;

function clean(value: string | null): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/**
 * Reads page and limit as the API does (same defaults and ranges), and every filter of
 * list-filters.ts, so that the server's and the browser's cache keys agree.
 */
export function readListState(query: ReadableParams): ListUrlState {
  const problems: string[] = [];
  const params: ListParams = { page: 1, limit: DEFAULT_PAGE_SIZE };

  const page = clean(query.get('page'));
  if (page !== undefined) {
    if (/^\d+$/.test(page) && Number(page) >= 1 && Number.isSafeInteger(Number(page))) params.page = Number(page);
    else problems.push(`Page “${page}” is not a page number.`);
  }
  const limit = clean(query.get('limit'));
  if (limit !== undefined) {
    if (/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= MAX_PAGE_SIZE) params.limit = Number(limit);
    else problems.push(`Page size “${limit}” must be a whole number from 1 to ${MAX_PAGE_SIZE}.`);
  }
  const sort = clean(query.get('sort'));
  if (sort !== undefined) {
    if ((SORT_FIELDS as readonly string[]).includes(sort)) params.sort = sort as SortField;
    else if (scoreSortName(sort)) params.sort = sort as ListSort;
    else problems.push(`Sort “${sort}” is not one of ${SORT_FIELDS.join(', ')}, or score.<name>.`);
  }
  const order = clean(query.get('order'));
  if (order !== undefined) {
    if ((SORT_ORDERS as readonly string[]).includes(order)) params.order = order as SortOrder;
    else problems.push(`Order “${order}” is not one of ${SORT_ORDERS.join(', ')}.`);
  }
  const filters = readListFilters(query);
  Object.assign(params, filters.filters);
  problems.push(...filters.problems);
  const range = readListRange(query, filters.filters);
  if (range.range) params.range = range.range;
  if (range.problem) problems.push(range.problem);

  return { params, problem: problems.length ? problems.join(' ') : null };
}

/** The query string for list params, leaving defaults out: `?status=ERROR&page=2`. */
export function listQueryString(params: ListParams): string {
  const q = new URLSearchParams();
  writeListFilters(q, params);
  writeSort(q, params);
  if (params.page !== 1) q.set('page', String(params.page));
  if (params.limit !== DEFAULT_PAGE_SIZE) q.set('limit', String(params.limit));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** sort and order when they differ from the list's default (startedAt, desc). */
function writeSort(q: URLSearchParams, params: ListParams): void {
  if (params.sort && params.sort !== 'startedAt') q.set('sort', params.sort);
  if (params.order && params.order !== 'desc') q.set('order', params.order);
}

/** The viewer's own URL for a trace. Ids are client-supplied and may hold any character. */
export function traceHref(id: string): string {
  return `/traces/${encodeURIComponent(id)}`;
}

/**
 * A trace opened from a full-text search: the detail page selects and reveals the first
 * matching span, decision point or event (in the tab that shows it) and marks the term.
 */
export function traceMatchHref(id: string, q: string, matches: SearchMatch[] | undefined): string {
  const first = matches?.find((m) => m.kind !== 'trace');
  const query = new URLSearchParams();
  if (first?.kind === 'decision') query.set('tab', 'decisions');
  if (first?.kind === 'event') query.set('tab', 'events');
  if (first && first.kind !== 'trace') query.set(first.kind, first.id);
  query.set('q', q);
  return `${traceHref(id)}?${query.toString()}`;
}

/** The list filtered to one session. */
export function sessionHref(sessionId: string): string {
  return `/traces${listQueryString({ page: 1, limit: DEFAULT_PAGE_SIZE, sessionId })}`;
}

// ---------------------------------------------------------------------------
// Query options

/** The API request for a list page; every parameter explicit, whatever the API's defaults. */
export function apiListUrl(params: ListParams): string {
  const q = new URLSearchParams({ page: String(params.page), limit: String(params.limit) });
  writeListFilters(q, params);
  writeSort(q, params);
  return `/api/traces?${q.toString()}`;
}

function listKey(params: ListParams) {
  // A fixed shape (no undefined members) so that equal params give equal keys.
  return {
    page: params.page,
    limit: params.limit,
    sort: params.sort ?? 'startedAt',
    order: params.order ?? 'desc',
    ...listFilterKey(params),
  };
}

export const traceQueries = {
  all: () => ['traces'] as const,
  lists: () => [...traceQueries.all(), 'list'] as const,
  list: (params: ListParams) =>
    queryOptions({
      queryKey: [...traceQueries.lists(), listKey(params)] as const,
      queryFn: ({ signal }) => getJson<TraceList>(apiListUrl(params), signal),
      // Paging and filtering keep the rows on screen until the next ones arrive.
      placeholderData: keepPreviousData,
      // Poll only while something on the page is still running.
      refetchInterval: (query) =>
        query.state.data?.traces.some((t) => t.status === 'RUNNING') ? LIVE_REFRESH_MS : false,
    }),
  details: () => [...traceQueries.all(), 'detail'] as const,
  /** The detail page's trace: its outline (spans without payloads); the span queries below load those. */
  detail: (id: string) =>
    queryOptions({
      queryKey: [...traceQueries.details(), id] as const,
      queryFn: async ({ signal }) => outlineFromColumns((await getJson<{ trace: ColumnarOutline }>(outlineApiUrl(id), signal)).trace),
      refetchInterval: (query) => (query.state.data?.status === 'RUNNING' ? LIVE_REFRESH_MS : false),
    }),
  /** One span with its payloads, loaded when it is opened. Under its trace's key: deleting the trace drops it too. */
  span: (traceId: string, spanId: string, running = false) =>
    queryOptions({
      queryKey: [...traceQueries.details(), traceId, 'span', spanId] as const,
      queryFn: async ({ signal }) =>
        (await getJson<{ span: SpanRecord }>(`${traceApiUrl(traceId)}/spans/${encodeURIComponent(spanId)}`, signal)).span,
      // A finished span never changes; a running one is refreshed with its trace.
      staleTime: running ? 0 : Number.POSITIVE_INFINITY,
      refetchInterval: running ? LIVE_REFRESH_MS : false,
    }),
  /** Stored values of a filter's field starting with `q` (GET /api/traces/suggest), for the filters' suggestions. */
  suggest: (field: SuggestField, q: string) =>
    queryOptions({
      queryKey: [...traceQueries.all(), 'suggest', field, q] as const,
      queryFn: async ({ signal }) =>
        (await getJson<{ values: string[] }>(`/api/traces/suggest?${new URLSearchParams({ field, q, limit: String(SUGGESTIONS) }).toString()}`, signal)).values,
      staleTime: 60_000,
      placeholderData: keepPreviousData,
    }),
  /** Where a text occurs in one trace (the server searches the payloads the page has not loaded). */
  search: (traceId: string, q: string) =>
    queryOptions({
      queryKey: [...traceQueries.details(), traceId, 'search', q] as const,
      queryFn: ({ signal }) =>
        getJson<TraceSearchResult>(`${traceApiUrl(traceId)}/search?${new URLSearchParams({ q }).toString()}`, signal),
      staleTime: 30_000,
      placeholderData: keepPreviousData,
    }),
};

/** The detail page's outline request, in the compact columnar form (the page preloads this very URL for a large trace). */
export function outlineApiUrl(id: string): string {
  return `${traceApiUrl(id)}/outline?format=columns`;
}

function traceApiUrl(id: string): string {
  return `/api/traces/${encodeURIComponent(id)}`;
}
