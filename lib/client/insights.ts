// React Query options for the insights page (one factory, STYLE.md), its URL state, and
// the drill-down links from its figures to the trace list. Safe for client components and
// for the server component that seeds the cache: no server module is imported here.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { bucketCount, defaultBucket, MAX_BUCKETS } from '@/lib/features/insights/shared';
import type { DecisionInsights, OverviewBucket, OverviewInsights, ScoreSeriesInsights } from '@/lib/features/insights/shared';
import type { PathInsights } from '@/lib/features/paths';
import type { PathReviews } from '@/lib/features/paths';
import type { TraceFilterParams } from '@/lib/features/traces/shared';
import { readListFilters, writeListFilters, type ReadableQuery } from './list-filters';
import { DEFAULT_PAGE_SIZE, fetchJson, listQueryString } from './traces';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The preset windows of the range picker, ending now. */
export const RANGE_PRESETS = [
  { key: '1h', label: 'Last hour', ms: HOUR_MS },
  { key: '24h', label: 'Last 24 hours', ms: DAY_MS },
  { key: '7d', label: 'Last 7 days', ms: 7 * DAY_MS },
  { key: '30d', label: 'Last 30 days', ms: 30 * DAY_MS },
] as const;

export type RangePreset = (typeof RANGE_PRESETS)[number]['key'];
export const DEFAULT_RANGE: RangePreset = '24h';

/** The trace filters the insights API takes besides the window. */
export type InsightsFilters = Pick<TraceFilterParams, 'name' | 'tag' | 'sessionId' | 'status'>;
export const INSIGHTS_FILTER_KEYS = ['name', 'tag', 'sessionId', 'status'] as const satisfies readonly (keyof InsightsFilters)[];

/**
 * The page's URL state: a preset (`?range=7d`) or a custom window (`?from=…&to=…`; a
 * missing end is now, a missing start 24 hours before the end, as the API reads them),
 * and the trace filters.
 */
export interface InsightsUrlState {
  range: RangePreset | 'custom';
  /** Custom window ends, ISO UTC (only with range 'custom'). */
  from?: string;
  to?: string;
  filters: InsightsFilters;
  /** Why the URL cannot be used as it is (shown to the reader). */
  problem: string | null;
}

export function readInsightsState(query: ReadableQuery): InsightsUrlState {
  const { filters: all, problems } = readListFilters(query);
  const filters: InsightsFilters = {};
  for (const key of INSIGHTS_FILTER_KEYS) if (all[key]) Object.assign(filters, { [key]: all[key] });
  const state: InsightsUrlState = { range: DEFAULT_RANGE, filters, problem: null };
  if (all.from || all.to) {
    state.range = 'custom';
    if (all.from) state.from = all.from;
    if (all.to) state.to = all.to;
  } else {
    const range = query.get('range')?.trim();
    if (range && range !== 'custom') {
      const preset = RANGE_PRESETS.find((p) => p.key === range);
      if (preset) state.range = preset.key;
      else problems.push(`Range “${range}” is not one of ${RANGE_PRESETS.map((p) => p.key).join(', ')}.`);
    }
  }
  state.problem = problems.length ? problems.join(' ') : null;
  return state;
}

/** The page's query string: `?range=7d&tag=prod`, the default range left out. */
export function insightsQueryString(state: Omit<InsightsUrlState, 'problem'>): string {
  const q = new URLSearchParams();
  if (state.range === 'custom') writeListFilters(q, { from: state.from, to: state.to });
  else if (state.range !== DEFAULT_RANGE) q.set('range', state.range);
  writeListFilters(q, state.filters);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A request of the insights API: a resolved window, its bucket, and the filters. */
export interface InsightsRequest extends InsightsFilters {
  from: string;
  to: string;
  bucket: OverviewBucket;
}

/**
 * The window a state stands for at `now` (ms). Preset windows end at the next whole
 * minute, so the server's render and the browser's hydration (and everyone opening the
 * same link within a minute) ask for the same window and share the cached answer; the
 * window moves on by itself each minute.
 */
export function resolveInsightsRequest(state: InsightsUrlState, now: number): InsightsRequest | { problem: string } {
  let from: string;
  let to: string;
  if (state.range === 'custom') {
    to = state.to ?? new Date(Math.ceil(now / MINUTE_MS) * MINUTE_MS).toISOString();
    from = state.from ?? new Date(Date.parse(to) - DAY_MS).toISOString();
  } else {
    const end = Math.ceil(now / MINUTE_MS) * MINUTE_MS;
    const preset = RANGE_PRESETS.find((p) => p.key === state.range)!;
    to = new Date(end).toISOString();
    from = new Date(end - preset.ms).toISOString();
  }
  if (from > to) return { problem: 'The start of the window is after its end.' };
  const bucket = defaultBucket(from, to);
  if (bucketCount(from, to, bucket) > MAX_BUCKETS) return { problem: 'The window is too long: at most about four years.' };
  return { from, to, bucket, ...state.filters };
}

function apiQuery(req: InsightsRequest): string {
  const q = new URLSearchParams({ from: req.from, to: req.to, bucket: req.bucket });
  writeListFilters(q, Object.fromEntries(INSIGHTS_FILTER_KEYS.map((key) => [key, req[key]])));
  return q.toString();
}

function requestKey(req: InsightsRequest) {
  // A fixed shape (no undefined members) so that equal requests give equal keys.
  return {
    from: req.from,
    to: req.to,
    bucket: req.bucket,
    name: req.name ?? null,
    tag: req.tag ?? null,
    sessionId: req.sessionId ?? null,
    status: req.status ?? null,
  };
}

export const insightsQueries = {
  all: () => ['insights'] as const,
  overview: (req: InsightsRequest) =>
    queryOptions({
      queryKey: [...insightsQueries.all(), 'overview', requestKey(req)] as const,
      queryFn: ({ signal }) => fetchJson<OverviewInsights>(`/api/insights/overview?${apiQuery(req)}`, { signal }),
      // A new range or filter keeps the figures on screen until the new ones arrive.
      placeholderData: keepPreviousData,
    }),
  decisions: (req: InsightsRequest) =>
    queryOptions({
      queryKey: [...insightsQueries.all(), 'decisions', requestKey(req)] as const,
      queryFn: ({ signal }) => fetchJson<DecisionInsights>(`/api/insights/decisions?${apiQuery(req)}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  scores: (req: InsightsRequest) =>
    queryOptions({
      queryKey: [...insightsQueries.all(), 'scores', requestKey(req)] as const,
      queryFn: ({ signal }) => fetchJson<ScoreSeriesInsights>(`/api/insights/scores?${apiQuery(req)}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  paths: (req: InsightsRequest) =>
    queryOptions({
      queryKey: [...insightsQueries.all(), 'paths', requestKey(req)] as const,
      queryFn: ({ signal }) => fetchJson<PathInsights>(`/api/insights/paths?${apiQuery(req)}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  pathReviews: (req: InsightsRequest) =>
    queryOptions({
      queryKey: [...insightsQueries.all(), 'path-reviews', requestKey(req)] as const,
      queryFn: ({ signal }) => fetchJson<PathReviews>(`/api/insights/paths/reviews?${apiQuery(req)}`, { signal }),
    }),
};

/**
 * A `score.<name>` condition that some score of the name is `value`: written literally
 * (`=` first) when the value would otherwise read as `*` or a comparison.
 */
export function scoreEqualsCondition(value: string): string {
  return value === '*' || value.startsWith('=') || /^[<>]/.test(value) ? `=${value}` : value;
}

/**
 * The trace list showing exactly the traces behind a figure: the figure's window, the
 * page's filters, and what the figure adds (a decision type and chosen label, a status, a
 * name, a bucket's narrower window).
 */
export function drillDownHref(req: Pick<InsightsRequest, 'from' | 'to'> & InsightsFilters, extra: TraceFilterParams = {}): string {
  const filters: TraceFilterParams = { from: req.from, to: req.to };
  for (const key of INSIGHTS_FILTER_KEYS) if (req[key]) Object.assign(filters, { [key]: req[key] });
  return `/traces${listQueryString({ page: 1, limit: DEFAULT_PAGE_SIZE, ...filters, ...extra })}`;
}
