'use client';

import { useEffect, useRef, useState } from 'react';
import { plural } from '@/lib/core/format';
import { spanInterval, type TimeWindow } from '@/lib/features/traces/shared';
import { RUN_STATUSES, SPAN_TYPES, type RunStatus, type SpanSummary, type SpanType } from '@/lib/features/traces/shared';
import { SPAN_TYPE_META } from '@/components/ui/badges';

/** The tree's span filters, as the URL holds them (`spanType`, `spanStatus`, `minDuration` in ms). */
export interface SpanFilterState {
  type: SpanType | null;
  status: RunStatus | null;
  minDurationMs: number | null;
}

const STATUS_LABEL: Record<RunStatus, string> = { COMPLETED: 'Completed', ERROR: 'Error', RUNNING: 'Running' };
const TYPING_PAUSE_MS = 300;

/** Reads the filters leniently: a value the viewer does not know is no filter. */
export function readSpanFilters(query: Pick<URLSearchParams, 'get'>): SpanFilterState {
  const type = query.get('spanType');
  const status = query.get('spanStatus');
  const min = query.get('minDuration');
  const minDurationMs = min !== null && /^\d+(\.\d+)?$/.test(min) ? Number(min) : null;
  return {
    type: (SPAN_TYPES as readonly string[]).includes(type ?? '') ? (type as SpanType) : null,
    status: (RUN_STATUSES as readonly string[]).includes(status ?? '') ? (status as RunStatus) : null,
    minDurationMs: minDurationMs !== null && minDurationMs > 0 ? minDurationMs : null,
  };
}

export function spanFilterActive(f: SpanFilterState): boolean {
  return f.type !== null || f.status !== null || f.minDurationMs !== null;
}

/** A span passes every filter set; a span with no known end has no duration and fails a minimum. */
export function spanFilterAccepts(f: SpanFilterState, span: SpanSummary, window: TimeWindow): boolean {
  if (f.type !== null && span.type !== f.type) return false;
  if (f.status !== null && span.status !== f.status) return false;
  if (f.minDurationMs !== null) {
    const iv = spanInterval(span, window);
    if (iv.open || iv.end - iv.start < f.minDurationMs) return false;
  }
  return true;
}

/** Writes the changed filters into the URL as it is now, so two changes made before a re-render both count. */
function writeFilters(change: Partial<SpanFilterState>) {
  const q = new URLSearchParams(window.location.search);
  const set = (name: string, value: string | null | undefined) => {
    if (value === undefined) return;
    if (value === null) q.delete(name);
    else q.set(name, value);
  };
  set('spanType', change.type);
  set('spanStatus', change.status);
  set('minDuration', change.minDurationMs === undefined ? undefined : change.minDurationMs === null ? null : String(change.minDurationMs));
  const qs = q.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${qs ? `?${qs}` : ''}`);
}

/** Span type, status and minimum duration for the tree; the spans that pass keep their ancestors in place. */
export function SpanFilters({ filters, matching, total }: { filters: SpanFilterState; matching: number | null; total: number }) {
  const [minText, setMinText] = useState(filters.minDurationMs === null ? '' : String(filters.minDurationMs));
  const [minFor, setMinFor] = useState(filters.minDurationMs);
  // The URL changed from elsewhere (Clear, back): show its value.
  if (filters.minDurationMs !== minFor) {
    setMinFor(filters.minDurationMs);
    setMinText(filters.minDurationMs === null ? '' : String(filters.minDurationMs));
  }
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  const typeMin = (text: string) => {
    setMinText(text);
    clearTimeout(pending.current ?? undefined);
    pending.current = setTimeout(() => {
      const value = text.trim() === '' ? null : Number(text);
      if (value !== null && !(Number.isFinite(value) && value >= 0)) return;
      writeFilters({ minDurationMs: value || null });
    }, TYPING_PAUSE_MS);
  };
  const minInvalid = minText.trim() !== '' && !(Number.isFinite(Number(minText)) && Number(minText) >= 0);
  const control = 'h-7 rounded-md border border-border-strong bg-bg px-1.5 text-xs';

  return (
    <div className="flex flex-wrap items-center gap-2 text-xs" role="group" aria-label="Filter spans">
      <label className="inline-flex items-center gap-1">
        <span className="text-muted">Type</span>
        <select className={control} value={filters.type ?? ''} onChange={(e) => writeFilters({ type: (e.target.value || null) as SpanType | null })}>
          <option value="">All types</option>
          {SPAN_TYPES.map((t) => (
            <option key={t} value={t}>
              {SPAN_TYPE_META[t].label}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-flex items-center gap-1">
        <span className="text-muted">Status</span>
        <select className={control} value={filters.status ?? ''} onChange={(e) => writeFilters({ status: (e.target.value || null) as RunStatus | null })}>
          <option value="">Any status</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-flex items-center gap-1">
        <span className="text-muted">Min duration (ms)</span>
        <input
          type="text"
          inputMode="decimal"
          value={minText}
          onChange={(e) => typeMin(e.target.value)}
          aria-invalid={minInvalid || undefined}
          aria-describedby={minInvalid ? 'min-duration-problem' : undefined}
          className={`${control} w-20 ${minInvalid ? 'border-red-600 dark:border-red-400' : ''}`}
        />
      </label>
      {minInvalid && (
        <span id="min-duration-problem" className="text-red-800 dark:text-red-200">
          A number of milliseconds, 0 or more
        </span>
      )}
      {matching !== null && (
        <>
          <span className="text-muted tabular" role="status" data-testid="filter-count">
            {matching} of {plural(total, 'span')} match
          </span>
          <button
            type="button"
            onClick={() => writeFilters({ type: null, status: null, minDurationMs: null })}
            className="rounded px-1.5 py-0.5 font-medium text-accent hover:underline"
          >
            Clear filters
          </button>
        </>
      )}
    </div>
  );
}
