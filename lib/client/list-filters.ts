// The trace list's filters as data: one field per filter, saying how the browser reads it
// from the URL (as leniently as the API reads it strictly: a value the API would refuse is
// reported, not thrown), how it is written back, what its chips say, and whether the filter
// bar has a control for it. The list's URL, its API request and its cache key are all
// written from this table, so adding a filter to the list is adding a field here
// (TraceFilterParams' keys are all required: a filter the API gains but this table lacks
// fails to compile).
// Safe for client components and for server components: no server module is imported.
import { MAX_LABEL_CHARS } from '@/lib/features/insights/shared';
import { describeScoreCondition, parseScoreCondition, SCORE_FILTER_PREFIX } from '@/lib/features/scores/shared';
import { DECISION_TYPES, JUDGED_VALUES, RUN_STATUSES, TIME_RANGE_KEYS, type DecisionType, type Judged, type RunStatus, type TimeRange, type TraceFilterParams } from '@/lib/features/traces/shared';

export type ListFilterKey = keyof TraceFilterParams;

/** How the relative time ranges (`range`) read. */
export const TIME_RANGE_LABELS: Record<TimeRange, string> = {
  '15m': 'Last 15 minutes',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
};

/** What filters are read from: the URL's query (useSearchParams, or URLSearchParams on the server). */
export type ReadableQuery = Pick<URLSearchParams, 'get' | 'getAll' | 'keys'>;

type Parsed<T> = { value: T } | { problem: string };
type Read<T> = Parsed<T> | null;

/** One chip of an active filter: what it shows, and the filter's value once it is removed. */
export interface FilterChip<T> {
  /** Tells chips of one filter apart: a tag, a metadata key; empty for a single value. */
  part: string;
  label: string;
  value: string;
  rest: T | undefined;
}

export interface ListFilterField<T> {
  /** Reads the filter; null when the URL does not set it. */
  read(query: ReadableQuery): Read<T>;
  write(q: URLSearchParams, value: T): void;
  /** The chips that show a value: one, or one per tag or metadata entry. */
  chips(value: T): FilterChip<T>[];
  /** The chip's label: "Tag", "Decision type". */
  label: string;
  /** How a chip shows its text: as is, as a humanised enum, as an instant, or as a relative time range (`1h`: "Last hour"). */
  show: 'text' | 'enum' | 'date' | 'range';
  /** True when the filter bar has its own control, so it needs no removable chip. */
  control?: boolean;
}

type ListFilterFields = { [K in ListFilterKey]-?: ListFilterField<NonNullable<TraceFilterParams[K]>> };

type Options = Pick<ListFilterField<unknown>, 'label' | 'show' | 'control'>;

/**
 * A filter held in one parameter. Values are trimmed unless `exact` (name, tag, chosen
 * label: read as written, spaces included, like the API); empty is absent.
 */
function single<T>(
  param: string,
  parse: (value: string) => Parsed<T>,
  options: Options & { exact?: boolean; format?: (value: T) => string },
): ListFilterField<T> {
  const format = options.format ?? String;
  return {
    read: (query) => {
      const raw = query.get(param);
      const value = options.exact ? raw : raw?.trim();
      return value ? parse(value) : null;
    },
    write: (q, value) => q.set(param, format(value)),
    chips: (value) => [{ part: '', label: options.label, value: format(value), rest: undefined }],
    label: options.label,
    show: options.show,
    control: options.control,
  };
}

const text = (value: string): Parsed<string> => ({ value });

function oneOf<T extends string>(what: string, allowed: readonly T[]) {
  return (value: string): Parsed<T> =>
    (allowed as readonly string[]).includes(value)
      ? { value: value as T }
      : { problem: `${what} “${value}” is not one of ${allowed.join(', ')}.` };
}

// ISO 8601 as ingest and the API read it (a date-time; without a zone it is UTC), written
// back in UTC with milliseconds exactly as the API normalises it, so cache keys agree.
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function instant(what: string) {
  return (raw: string): Parsed<string> => {
    // An unencoded "+02:00" offset arrives as " 02:00" (a + in a query is a space).
    const value = raw.replace(/(\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/, '$1+$2').replace(',', '.');
    const m = ISO.exec(value);
    const ms = m ? Date.parse(m[1] ? value : `${value}Z`) : NaN;
    return Number.isNaN(ms)
      ? { problem: `${what} “${raw}” is not an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z).` }
      : { value: new Date(ms).toISOString() };
  };
}

function nonNegative(what: string) {
  return (raw: string): Parsed<number> => {
    const value = Number(raw);
    return Number.isFinite(value) && value >= 0 ? { value } : { problem: `${what} “${raw}” is not a number of 0 or more.` };
  };
}

/** A filter given by repeating one parameter (`tag=a&tag=b`: all of them); each value is a chip. */
function repeated(param: string, options: Options): ListFilterField<string[]> {
  return {
    read: (query) => {
      const values = [...new Set(query.getAll(param).filter((v) => v !== ''))];
      return values.length ? { value: values } : null;
    },
    write: (q, values) => values.forEach((v) => q.append(param, v)),
    chips: (values) =>
      values.map((v) => ({ part: v, label: options.label, value: v, rest: values.length > 1 ? values.filter((x) => x !== v) : undefined })),
    ...options,
  };
}

/** A filter given as `<prefix><key>=<value>` parameters; each entry is a chip. */
function prefixed(
  prefix: string,
  options: Options & { check?: (value: string, key: string) => string | null; format?: (value: string) => string },
): ListFilterField<Record<string, string>> {
  const format = options.format ?? String;
  return {
    read: (query) => {
      const entries: Record<string, string> = {};
      for (const param of new Set(query.keys())) {
        const value = query.get(param);
        if (!(param.startsWith(prefix) && param.length > prefix.length && value)) continue;
        const problem = options.check?.(value, param.slice(prefix.length));
        if (problem) return { problem };
        entries[param.slice(prefix.length)] = value;
      }
      return Object.keys(entries).length ? { value: entries } : null;
    },
    write: (q, entries) => Object.entries(entries).forEach(([k, v]) => q.set(`${prefix}${k}`, v)),
    chips: (entries) =>
      Object.keys(entries).map((key) => {
        const rest = Object.fromEntries(Object.entries(entries).filter(([k]) => k !== key));
        return { part: key, label: `${options.label} ${key}`, value: format(entries[key]), rest: Object.keys(rest).length ? rest : undefined };
      }),
    label: options.label,
    show: options.show,
    control: options.control,
  };
}

/** Every filter of the list, in the order the URL and the API request list them. */
export const LIST_FILTERS: ListFilterFields = {
  status: single('status', oneOf<RunStatus>('Status', RUN_STATUSES), { label: 'Status', show: 'enum', control: true }),
  search: single('search', text, { label: 'Name contains', show: 'text', control: true }),
  sessionId: single('sessionId', text, { label: 'Session', show: 'text', control: true }),
  name: single('name', text, { label: 'Name', show: 'text', exact: true, control: true }),
  model: single('model', text, { label: 'Model', show: 'text', exact: true, control: true }),
  userId: single('userId', text, { label: 'User', show: 'text', exact: true }),
  tag: repeated('tag', { label: 'Tag', show: 'text' }),
  decisionType: single('decisionType', oneOf<DecisionType>('Decision type', DECISION_TYPES), { label: 'Decision type', show: 'enum' }),
  chosen: single(
    'chosen',
    (value): Parsed<string> =>
      Array.from(value).length > MAX_LABEL_CHARS ? { problem: `The chosen option is longer than ${MAX_LABEL_CHARS} characters.` } : { value },
    { label: 'Chosen', show: 'text', exact: true },
  ),
  from: single('from', instant('From'), { label: 'From', show: 'date' }),
  to: single('to', instant('To'), { label: 'To', show: 'date' }),
  range: single('range', oneOf<TimeRange>('Time range', TIME_RANGE_KEYS), { label: 'Started', show: 'range' }),
  q: single('q', text, { label: 'Text contains', show: 'text', control: true }),
  minDurationMs: single('minDurationMs', nonNegative('Minimum duration'), { label: 'Min duration (ms)', show: 'text' }),
  maxDurationMs: single('maxDurationMs', nonNegative('Maximum duration'), { label: 'Max duration (ms)', show: 'text' }),
  minCost: single('minCost', nonNegative('Minimum cost'), { label: 'Min cost (USD)', show: 'text' }),
  maxCost: single('maxCost', nonNegative('Maximum cost'), { label: 'Max cost (USD)', show: 'text' }),
  hasErrors: single(
    'hasErrors',
    (value): Parsed<boolean> => (value === 'true' || value === 'false' ? { value: value === 'true' } : { problem: `Errors “${value}” must be true or false.` }),
    { label: 'Has errors', show: 'text' },
  ),
  metadata: prefixed('metadata.', { label: 'Metadata', show: 'text' }),
  path: single('path', text, { label: 'Decision path', show: 'text', exact: true }),
  fork: single('fork', text, { label: 'Fork', show: 'text', exact: true }),
  reviewed: single(
    'reviewed',
    (value): Parsed<boolean> => (value === 'true' || value === 'false' ? { value: value === 'true' } : { problem: `Reviewed “${value}” must be true or false.` }),
    { label: 'Reviewed', show: 'text' },
  ),
  judged: single('judged', oneOf<Judged>('Judged', JUDGED_VALUES), { label: 'Judged', show: 'text' }),
  better: single('better', text, { label: 'Better option', show: 'text', exact: true }),
  score: prefixed(SCORE_FILTER_PREFIX, {
    label: 'Score',
    show: 'text',
    check: (value, name) => {
      const c = parseScoreCondition(value);
      return 'problem' in c ? `Score ${name} “${value}”: ${c.problem}.` : null;
    },
    format: describeScoreCondition,
  }),
};

export const LIST_FILTER_KEYS = Object.keys(LIST_FILTERS) as ListFilterKey[];

function fieldOf(key: ListFilterKey): ListFilterField<unknown> {
  return LIST_FILTERS[key] as ListFilterField<unknown>;
}

/**
 * Reads every filter from the URL but `range`, which the pages sharing this table read in
 * their own way (the list: readListRange; insights: its own presets). Problems are
 * sentences for the reader.
 */
export function readListFilters(query: ReadableQuery): { filters: TraceFilterParams; problems: string[] } {
  const filters: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const key of LIST_FILTER_KEYS) {
    if (key === 'range') continue;
    const read = fieldOf(key).read(query);
    if (read === null) continue;
    if ('value' in read) filters[key] = read.value;
    else problems.push(read.problem);
  }
  const f = filters as TraceFilterParams;
  if (f.from && f.to && f.from > f.to) problems.push('From must not be after To.');
  return { filters: f, problems };
}

/** The list's relative time range (`range=1h`), which cannot go with from or to. */
export function readListRange(query: ReadableQuery, filters: TraceFilterParams): { range?: TimeRange; problem?: string } {
  const read = LIST_FILTERS.range.read(query);
  if (read === null) return {};
  if ('problem' in read) return { problem: read.problem };
  if (filters.from || filters.to) return { problem: 'A time range (range) cannot be combined with From or To.' };
  return { range: read.value };
}

function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** The filters of params, without page, limit, sort or anything else, nor empty ones. */
function filtersOf(params: TraceFilterParams): TraceFilterParams {
  const filters: Record<string, unknown> = {};
  for (const key of LIST_FILTER_KEYS) if (isSet(params[key])) filters[key] = params[key];
  return filters as TraceFilterParams;
}

/** One chip per value of the filters set (one per tag, per metadata entry), in the table's order. */
export interface ActiveFilter {
  id: string;
  key: ListFilterKey;
  label: string;
  value: string;
  /** The filters of `params` without this chip's value. */
  remove(params: TraceFilterParams): TraceFilterParams;
}

export function activeListFilters(params: TraceFilterParams): ActiveFilter[] {
  return LIST_FILTER_KEYS.flatMap((key) =>
    isSet(params[key])
      ? fieldOf(key)
          .chips(params[key])
          .map((chip) => ({
            id: chip.part ? `${key}:${chip.part}` : key,
            key,
            label: chip.label,
            value: chip.value,
            remove: (from: TraceFilterParams) => filtersOf({ ...from, [key]: chip.rest }),
          }))
      : [],
  );
}

/** Writes the filters that are set into `q`, in the table's order. */
export function writeListFilters(q: URLSearchParams, filters: TraceFilterParams): void {
  for (const key of LIST_FILTER_KEYS) if (isSet(filters[key])) fieldOf(key).write(q, filters[key]);
}

export function hasListFilters(filters: TraceFilterParams): boolean {
  return LIST_FILTER_KEYS.some((key) => isSet(filters[key]));
}

/** The same params without the filter `key` (all of it), and without empty filters. */
export function withoutListFilter<T extends TraceFilterParams>(params: T, key?: ListFilterKey): T {
  const next = { ...params };
  for (const k of LIST_FILTER_KEYS) if (k === key || !isSet(next[k])) delete next[k];
  return next;
}

/** Params with their filters replaced by `filters` (paging and sorting kept). */
export function withListFilters<T extends TraceFilterParams>(params: T, filters: TraceFilterParams): T {
  const next = { ...params };
  for (const k of LIST_FILTER_KEYS) delete next[k];
  return { ...next, ...filtersOf(filters) };
}

/** A fixed-shape object of every filter (null when absent), for cache keys: equal filters, equal keys. */
export function listFilterKey(filters: TraceFilterParams): Record<ListFilterKey, unknown> {
  return Object.fromEntries(LIST_FILTER_KEYS.map((key) => [key, isSet(filters[key]) ? filters[key] : null])) as Record<ListFilterKey, unknown>;
}
