'use client';

import { useState, type FormEvent } from 'react';
import { RANGE_PRESETS, type InsightsUrlState, type RangePreset } from '@/lib/client/insights';
import { useHydrated } from '@/components/ui/time';

type State = Omit<InsightsUrlState, 'problem'>;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local value in the reader's zone: `2026-03-01T14:05`. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The window picker: four presets ending now, or a custom from/to (in the reader's zone). */
export function RangePicker({
  state,
  shown,
  navigate,
}: {
  state: State;
  /** The window shown now (the custom editor starts from it). */
  shown: { from: string; to: string } | null;
  navigate: (next: State) => void;
}) {
  const [editing, setEditing] = useState(false);
  // datetime-local values are in the reader's zone: only known once hydrated.
  const hydrated = useHydrated();
  const custom = editing || state.range === 'custom';
  const choose = (range: RangePreset) => {
    setEditing(false);
    navigate({ range, filters: state.filters });
  };
  return (
    <div className="flex flex-wrap items-end gap-3">
      <fieldset className="flex min-w-0 max-w-full flex-col gap-1">
        <legend className="mb-1 text-xs font-medium text-muted">Time range</legend>
        <div className="relative flex h-8 max-w-full overflow-x-auto overflow-y-hidden rounded-md border border-border-strong">
          {[...RANGE_PRESETS, { key: 'custom' as const, label: 'Custom' }].map((p) => {
            const checked = p.key === 'custom' ? custom : !custom && state.range === p.key;
            return (
              <label
                key={p.key}
                className={`flex cursor-pointer items-center border-r border-border-strong px-3 text-sm whitespace-nowrap last:border-r-0 has-[:focus-visible]:outline-2 has-[:focus-visible]:-outline-offset-2 has-[:focus-visible]:outline-accent ${
                  checked ? 'bg-accent text-bg' : 'bg-bg text-fg hover:bg-surface-2'
                }`}
              >
                <input
                  type="radio"
                  name="range"
                  value={p.key}
                  checked={checked}
                  onChange={() => (p.key === 'custom' ? setEditing(true) : choose(p.key))}
                  className="sr-only"
                />
                {p.label}
              </label>
            );
          })}
        </div>
      </fieldset>
      {custom && hydrated && (
        <CustomRange
          key={`${state.from ?? ''}|${state.to ?? ''}`}
          initial={shown ?? { from: state.from, to: state.to }}
          onApply={(from, to) => {
            setEditing(false);
            navigate({ range: 'custom', from, to, filters: state.filters });
          }}
        />
      )}
    </div>
  );
}

function CustomRange({
  initial,
  onApply,
}: {
  initial: { from?: string; to?: string };
  onApply: (from: string, to: string) => void;
}) {
  const [from, setFrom] = useState(() => (initial.from ? toLocalInput(initial.from) : ''));
  const [to, setTo] = useState(() => (initial.to ? toLocalInput(initial.to) : ''));
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const a = Date.parse(from);
    const b = Date.parse(to);
    if (Number.isNaN(a) || Number.isNaN(b)) return setError('Enter both a start and an end.');
    if (a >= b) return setError('The start must be before the end.');
    setError(null);
    onApply(new Date(a).toISOString(), new Date(b).toISOString());
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Custom time range">
      <label className="flex flex-col gap-1 text-xs font-medium text-muted">
        From
        <input
          type="datetime-local"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          className="h-8 rounded-md border border-border-strong bg-bg px-2 text-sm text-fg"
        />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-muted">
        To
        <input
          type="datetime-local"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          className="h-8 rounded-md border border-border-strong bg-bg px-2 text-sm text-fg"
        />
      </label>
      <button type="submit" className="h-8 rounded-md bg-accent px-3 text-sm font-medium text-bg hover:opacity-90">
        Apply
      </button>
      {error && (
        <p role="alert" className="w-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </form>
  );
}
