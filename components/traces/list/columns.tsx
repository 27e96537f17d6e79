'use client';

// The trace list's columns as data: what each shows, its fixed width, whether it sorts,
// and whether a person may hide it. The chooser, the table and saved views all read this
// table, so a new column (scores, say) is one entry here.
import { useCallback, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { formatCost, formatDuration, formatTokens, toMillis } from '@/lib/core/format';
import { sessionHref } from '@/lib/client/traces';
import type { ListSort, TraceListItem, TraceScoreSummary } from '@/lib/features/traces/shared';
import { StatusBadge } from '@/components/ui/badges';
import { RelativeTime, useNow } from '@/components/ui/time';
import { MiddleEllipsis } from '@/components/ui/MiddleEllipsis';

/** What a cell may do beyond showing its trace. */
export interface CellContext {
  serverNow: number;
  onSession: (sessionId: string) => void;
  /** Adds a tag to the list's filters. */
  onTag: (tag: string) => void;
}

export interface ListColumn {
  key: string;
  label: string;
  /** Fixed, so that nothing moves when rows arrive; '' takes what is left. */
  width: string;
  numeric?: boolean;
  sort?: ListSort;
  title?: string;
  /** Shown when nothing is remembered. */
  byDefault: boolean;
  /** The cell's contents; null for the name column, which the table draws itself. */
  cell: ((t: TraceListItem, ctx: CellContext) => ReactNode) | null;
  cellClass?: string;
}

function Duration({ trace, serverNow }: { trace: TraceListItem; serverNow: number }) {
  const now = useNow(serverNow);
  if (trace.totalDuration !== null) return <>{formatDuration(trace.totalDuration)}</>;
  const start = toMillis(trace.startedAt);
  const end = toMillis(trace.endedAt);
  if (start !== null && end !== null) {
    return <span title="From the start and end times (no total recorded)">{formatDuration(end - start)}</span>;
  }
  if (trace.status === 'RUNNING' && start !== null) {
    return (
      <span className="text-muted italic" title="Still running: time since it started">
        {formatDuration(Math.max(0, now - start))}
      </span>
    );
  }
  return <span className="text-muted">—</span>;
}

const none = <span className="text-muted">—</span>;

/** A tag that filters the list by itself when clicked. */
export function TagButton({ tag, onTag, className = '' }: { tag: string; onTag: (tag: string) => void; className?: string }) {
  return (
    <button
      type="button"
      onClick={() => onTag(tag)}
      title={`Show only traces tagged “${tag}”`}
      aria-label={`Filter by tag ${tag}`}
      className={`inline-block max-w-full truncate rounded border border-border bg-surface-2 px-1.5 py-px text-xs text-fg hover:border-accent hover:text-accent ${className}`}
    >
      {tag}
    </button>
  );
}

function Tags({ tags, onTag }: { tags: string[]; onTag: (tag: string) => void }) {
  if (tags.length === 0) return none;
  // One tag fits a narrow window, two a wide one; the rest are counted.
  return (
    <div className="flex min-w-0 items-center gap-1" title={tags.join(', ')}>
      <TagButton tag={tags[0]} onTag={onTag} className="min-w-0 shrink" />
      {tags.length > 1 && (
        <span className="hidden min-w-0 shrink xl:flex">
          <TagButton tag={tags[1]} onTag={onTag} />
        </span>
      )}
      {tags.length > 1 && (
        <span className={`shrink-0 text-xs text-muted ${tags.length === 2 ? 'xl:hidden' : ''}`}>
          <span className="xl:hidden">+{tags.length - 1}</span>
          {tags.length > 2 && <span className="hidden xl:inline">+{tags.length - 2}</span>}
        </span>
      )}
      <span className="sr-only">{tags.length > 1 ? `Tags: ${tags.join(', ')}` : ''}</span>
    </div>
  );
}

function Count({ n }: { n: number }) {
  return <span className={n === 0 ? 'text-muted' : ''}>{formatTokens(n)}</span>;
}

/** The column that shows the first input and last output under each name (not a table column). */
export const PREVIEW_COLUMN = 'preview';

export const LIST_COLUMNS: ListColumn[] = [
  { key: 'name', label: 'Name', width: '', byDefault: true, cell: null },
  { key: PREVIEW_COLUMN, label: 'Input and output', width: '', byDefault: true, cell: null },
  { key: 'status', label: 'Status', width: 'w-[108px]', byDefault: true, cell: (t) => <StatusBadge status={t.status} /> },
  {
    key: 'session',
    label: 'Session',
    width: 'w-[140px]',
    byDefault: true,
    // Cut in the middle, whole on hover: ids often differ only at the end.
    cell: (t, { onSession }) =>
      t.sessionId ? (
        <a
          href={sessionHref(t.sessionId)}
          aria-label={t.sessionId}
          onClick={(e) => {
            if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
            e.preventDefault();
            onSession(t.sessionId!);
          }}
          className="block min-w-0 font-mono text-xs text-accent hover:underline"
        >
          <MiddleEllipsis text={t.sessionId} title={`Show the traces of session ${t.sessionId}`} />
        </a>
      ) : (
        none
      ),
  },
  {
    key: 'user',
    label: 'User',
    width: 'w-[108px]',
    byDefault: false,
    cellClass: 'truncate',
    cell: (t) => (t.userId ? <span title={t.userId}>{t.userId}</span> : none),
  },
  {
    key: 'model',
    label: 'Model',
    width: 'w-[132px]',
    byDefault: false,
    cellClass: 'truncate',
    cell: (t) =>
      t.models && t.models.length > 0 ? (
        <span title={t.models.join(', ')} className="font-mono text-xs">
          {t.models[0]}
          {t.models.length > 1 && <span className="ml-1 text-muted">+{t.models.length - 1}</span>}
        </span>
      ) : (
        none
      ),
  },
  { key: 'tags', label: 'Tags', width: 'w-[120px] xl:w-[160px]', byDefault: true, cell: (t, { onTag }) => <Tags tags={t.tags} onTag={onTag} /> },
  {
    key: 'started',
    label: 'Started',
    width: 'w-[88px]',
    sort: 'startedAt',
    byDefault: true,
    cellClass: 'truncate text-muted',
    cell: (t, { serverNow }) => <RelativeTime iso={t.startedAt} serverNow={serverNow} />,
  },
  { key: 'duration', label: 'Duration', width: 'w-[80px]', numeric: true, sort: 'duration', byDefault: true, cell: (t, { serverNow }) => <Duration trace={t} serverNow={serverNow} /> },
  {
    key: 'cost',
    label: 'Cost',
    width: 'w-[70px]',
    numeric: true,
    sort: 'cost',
    byDefault: true,
    cell: (t) => (t.totalCost === null ? none : formatCost(t.totalCost)),
  },
  { key: 'tokens', label: 'Tokens', width: 'w-[64px]', numeric: true, byDefault: true, cell: (t) => (t.totalTokens === null ? none : formatTokens(t.totalTokens)) },
  { key: 'decisions', label: 'Decisions', width: 'w-[68px]', numeric: true, title: 'Decision points', byDefault: true, cell: (t) => <Count n={t._count.decisionPoints} /> },
  { key: 'spans', label: 'Spans', width: 'w-[50px]', numeric: true, byDefault: true, cell: (t) => <Count n={t._count.spans} /> },
  { key: 'events', label: 'Events', width: 'w-[54px]', numeric: true, byDefault: true, cell: (t) => <Count n={t._count.events} /> },
];

/** A score column's key: `score:<name>`. */
export const SCORE_COLUMN_PREFIX = 'score:';
/** At most this many score columns (each is 88 px wide). */
export const MAX_SCORE_COLUMNS = 8;

export function scoreColumnKey(name: string): string {
  return `${SCORE_COLUMN_PREFIX}${name}`;
}

/** How a trace's scores of one name read in a cell: the average (a share for a boolean), or the most frequent category. */
export function scoreCellText(summaries: TraceScoreSummary[]): { text: string; title: string } | null {
  if (summaries.length === 0) return null;
  const parts = summaries.map((s) => {
    const of = `${s.count} ${s.count === 1 ? 'score' : 'scores'}`;
    if (s.dataType === 'CATEGORICAL') {
      const top = s.values[0];
      const others = s.count - (top?.count ?? 0);
      return { text: `${top?.value ?? '—'}${others > 0 ? ` +${others}` : ''}`, title: `${s.values.map((v) => `${v.value} ×${v.count}`).join(', ')} (${of})` };
    }
    if (s.average === null) return { text: '—', title: of };
    if (s.dataType === 'BOOLEAN') {
      const share = `${Math.round(s.average * 100)}%`;
      return { text: share, title: `${share} true of ${of}` };
    }
    const avg = String(Number(s.average.toPrecision(3)));
    return { text: avg, title: `average ${avg} of ${of}` };
  });
  return { text: parts.map((p) => p.text).join(' · '), title: `${summaries[0].name}: ${parts.map((p) => p.title).join('; ')}` };
}

/** The column of a score name: the trace's average of it, sortable by that average. */
export function scoreColumn(name: string): ListColumn {
  return {
    key: scoreColumnKey(name),
    label: name,
    width: 'w-[88px]',
    numeric: true,
    sort: `score.${name}`,
    title: `Score ${name}: the trace's average (a share of true for a boolean), or its most frequent category`,
    byDefault: false,
    cellClass: 'truncate',
    cell: (t) => {
      const shown = scoreCellText((t.scoreSummary ?? []).filter((s) => s.name === name));
      return shown ? <span title={shown.title}>{shown.text}</span> : none;
    },
  };
}

/** Every column but the name, which is always shown. */
export const CHOOSABLE_COLUMNS = LIST_COLUMNS.filter((c) => c.key !== 'name');
export const DEFAULT_COLUMNS = LIST_COLUMNS.filter((c) => c.byDefault).map((c) => c.key);
const KNOWN = new Set(LIST_COLUMNS.map((c) => c.key));

const isScoreKey = (k: string) => k.startsWith(SCORE_COLUMN_PREFIX) && k.length > SCORE_COLUMN_PREFIX.length;

/**
 * Column keys as stored or sent (saved views): known ones only, in the table's order, the
 * name always, then the score columns in the order they were chosen.
 */
export function normaliseColumns(keys: readonly string[]): string[] {
  const wanted = new Set(keys.filter((k) => KNOWN.has(k)));
  wanted.add('name');
  const scores = [...new Set(keys.filter(isScoreKey))].slice(0, MAX_SCORE_COLUMNS);
  return [...LIST_COLUMNS.map((c) => c.key).filter((k) => wanted.has(k)), ...scores];
}

// The keys a saved view takes (lib/features/views/validate.ts): a score column whose name has other
// characters, or is longer, is shown but not saved with the view.
const SAVABLE_KEY = /^[A-Za-z][\w.:-]{0,63}$/;
export function savableColumns(keys: readonly string[]): string[] {
  return keys.filter((k) => SAVABLE_KEY.test(k));
}

/** The columns for the keys, in order: the table's own, then the score columns. */
export function columnsOf(keys: readonly string[]): ListColumn[] {
  const shown = new Set(keys);
  const scores = keys.filter(isScoreKey).map((k) => scoreColumn(k.slice(SCORE_COLUMN_PREFIX.length)));
  return [...LIST_COLUMNS.filter((c) => shown.has(c.key)), ...scores];
}

// The chosen columns, remembered in this browser.
const STORAGE_KEY = 'crossroads.list.columns';
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function parseStored(raw: string | null): string[] {
  if (!raw) return DEFAULT_COLUMNS;
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? normaliseColumns(value.filter((k): k is string => typeof k === 'string')) : DEFAULT_COLUMNS;
  } catch {
    return DEFAULT_COLUMNS;
  }
}

/** The visible columns' keys and a setter that remembers them; the server renders the defaults. */
export function useListColumns(): [string[], (keys: readonly string[]) => void] {
  const raw = useSyncExternalStore(subscribe, readStored, () => null);
  const columns = useMemo(() => parseStored(raw), [raw]);
  const setColumns = useCallback((keys: readonly string[]) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(normaliseColumns(keys)));
    } catch {
      // Storage refused (private mode): nothing to remember the choice by.
    }
    for (const l of listeners) l();
  }, []);
  return [columns, setColumns];
}
