// The trace list's filters as data: one field per URL parameter, saying how the browser
// reads it (as leniently as the API reads it strictly: a value the API would refuse is
// reported, not thrown), what its chip says, and whether the filter bar has a control for
// it. The list's URL, its API request and its cache key are all written from this table,
// so adding a filter to the list is adding a field here (TraceFilterParams' keys are all
// required: a filter the API gains but this table lacks fails to compile).
// Safe for client components and for server components: no server module is imported.
import { MAX_LABEL_CHARS } from '@/lib/insights/labels';
import { DECISION_TYPES, RUN_STATUSES, type DecisionType, type RunStatus, type TraceFilterParams } from '@/lib/traces/types';

export type ListFilterKey = keyof TraceFilterParams;

type Read<T> = { value: T } | { problem: string };

interface ListFilterField<T> {
  /** Reads a trimmed, non-empty URL value. */
  read(value: string): Read<T>;
  /** The chip's label: "Tag", "Decision type". */
  label: string;
  /** How the chip shows the value: as text, as a humanised enum, or as an instant. */
  show: 'text' | 'enum' | 'date';
  /** True when the filter bar has its own control, so it needs no removable chip. */
  control?: boolean;
  /** An exact match (name, tag, chosen label): read as written, spaces included, like the API. */
  exact?: boolean;
}

type ListFilterFields = { [K in ListFilterKey]-?: ListFilterField<NonNullable<TraceFilterParams[K]>> };

function oneOf<T extends string>(what: string, allowed: readonly T[]) {
  return (value: string): Read<T> =>
    (allowed as readonly string[]).includes(value)
      ? { value: value as T }
      : { problem: `${what} “${value}” is not one of ${allowed.join(', ')}.` };
}

const text = (value: string): Read<string> => ({ value });

// ISO 8601 as ingest and the API read it (a date-time; without a zone it is UTC), written
// back in UTC with milliseconds exactly as the API normalises it, so cache keys agree.
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function instant(what: string) {
  return (raw: string): Read<string> => {
    // An unencoded "+02:00" offset arrives as " 02:00" (a + in a query is a space).
    const value = raw.replace(/(\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/, '$1+$2').replace(',', '.');
    const m = ISO.exec(value);
    const ms = m ? Date.parse(m[1] ? value : `${value}Z`) : NaN;
    return Number.isNaN(ms)
      ? { problem: `${what} “${raw}” is not an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z).` }
      : { value: new Date(ms).toISOString() };
  };
}

/** Every filter of the list, in the order the URL and the API request list them. */
export const LIST_FILTERS: ListFilterFields = {
  status: { read: oneOf<RunStatus>('Status', RUN_STATUSES), label: 'Status', show: 'enum', control: true },
  search: { read: text, label: 'Name contains', show: 'text', control: true },
  sessionId: { read: text, label: 'Session', show: 'text', control: true },
  name: { read: text, label: 'Name', show: 'text', exact: true },
  tag: { read: text, label: 'Tag', show: 'text', exact: true },
  decisionType: { read: oneOf<DecisionType>('Decision type', DECISION_TYPES), label: 'Decision type', show: 'enum' },
  chosen: {
    read: (value) =>
      Array.from(value).length > MAX_LABEL_CHARS
        ? { problem: `The chosen option is longer than ${MAX_LABEL_CHARS} characters.` }
        : { value },
    label: 'Chosen',
    show: 'text',
    exact: true,
  },
  from: { read: instant('From'), label: 'From', show: 'date' },
  to: { read: instant('To'), label: 'To', show: 'date' },
};

export const LIST_FILTER_KEYS = Object.keys(LIST_FILTERS) as ListFilterKey[];

/**
 * Reads every filter from the URL. Empty values are absent, as the API reads them; values
 * are trimmed except exact ones. Problems are sentences for the reader.
 */
export function readListFilters(query: Pick<URLSearchParams, 'get'>): { filters: TraceFilterParams; problems: string[] } {
  const filters: Record<string, string> = {};
  const problems: string[] = [];
  for (const key of LIST_FILTER_KEYS) {
    const field = LIST_FILTERS[key] as ListFilterField<string>;
    const raw = query.get(key);
    const value = field.exact ? raw : raw?.trim();
    if (!value) continue;
    const read = field.read(value);
    if ('value' in read) filters[key] = read.value;
    else problems.push(read.problem);
  }
  if (filters.from && filters.to && filters.from > filters.to) problems.push('From must not be after To.');
  return { filters: filters as TraceFilterParams, problems };
}

/** Writes the filters that are set into `q`, in the table's order. */
export function writeListFilters(q: URLSearchParams, filters: TraceFilterParams): void {
  for (const key of LIST_FILTER_KEYS) {
    const value = filters[key];
    if (value) q.set(key, value);
  }
}

/** The filters that are set, each key once, in the table's order. */
export function activeListFilters(filters: TraceFilterParams): Array<{ key: ListFilterKey; value: string }> {
  return LIST_FILTER_KEYS.flatMap((key) => (filters[key] ? [{ key, value: filters[key] }] : []));
}

export function hasListFilters(filters: TraceFilterParams): boolean {
  return activeListFilters(filters).length > 0;
}

/** The same filters without `key`, and without any empty ones. */
export function withoutListFilter<T extends TraceFilterParams>(filters: T, key?: ListFilterKey): T {
  const next = { ...filters };
  for (const k of LIST_FILTER_KEYS) if (k === key || !next[k]) delete next[k];
  return next;
}

/** A fixed-shape object of every filter (null when absent), for cache keys: equal filters, equal keys. */
export function listFilterKey(filters: TraceFilterParams): Record<ListFilterKey, string | null> {
  return Object.fromEntries(LIST_FILTER_KEYS.map((key) => [key, filters[key] ?? null])) as Record<ListFilterKey, string | null>;
}
