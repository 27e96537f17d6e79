'use client';

import { useState, type FormEvent } from 'react';
import { INSIGHTS_FILTER_KEYS, type InsightsFilters as Filters, type InsightsUrlState } from '@/lib/client/insights';
import { RUN_STATUSES, type RunStatus } from '@/lib/features/traces/shared';
import { statusLabel } from '@/components/ui/badges';

type State = Omit<InsightsUrlState, 'problem'>;

const FIELDS = [
  { key: 'name', label: 'Trace name', placeholder: 'Exact name' },
  { key: 'tag', label: 'Tags', placeholder: 'prod, eu (all of them)' },
  { key: 'sessionId', label: 'Session ID', placeholder: 'Exact session ID' },
] as const;

type Draft = Record<(typeof FIELDS)[number]['key'], string> & { status: string };

const toDraft = (f: Filters): Draft => ({
  name: f.name ?? '',
  tag: f.tag?.join(', ') ?? '',
  sessionId: f.sessionId ?? '',
  status: f.status ?? '',
});

/** The trace filters of every figure on the page, applied together (a form: aggregates are not cheap per keystroke). */
export function InsightsFilters({ state, navigate }: { state: State; navigate: (next: State) => void }) {
  // Remounted when the URL's filters change (Back/Forward, a cleared filter), so the fields follow it.
  return <FiltersForm key={JSON.stringify(state.filters)} state={state} navigate={navigate} />;
}

function FiltersForm({ state, navigate }: { state: State; navigate: (next: State) => void }) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(state.filters));
  const active = INSIGHTS_FILTER_KEYS.some((k) => state.filters[k]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const filters: Filters = {};
    // The name is exact (spaces are part of it); the rest is trimmed.
    if (draft.name) filters.name = draft.name;
    const tags = draft.tag.split(',').map((t) => t.trim()).filter(Boolean);
    if (tags.length) filters.tag = [...new Set(tags)];
    if (draft.sessionId.trim()) filters.sessionId = draft.sessionId.trim();
    if (draft.status) filters.status = draft.status as RunStatus;
    navigate({ ...state, filters });
  };
  return (
    <form role="search" aria-label="Filter the traces behind every figure" onSubmit={submit} className="flex flex-wrap items-end gap-3">
      {FIELDS.map((f) => (
        <label key={f.key} className="flex w-48 flex-col gap-1 text-xs font-medium text-muted">
          {f.label}
          <input
            type="text"
            name={f.key}
            value={(f.key === 'tag' ? draft.tag?.[0] : draft[f.key]) ?? ''}
            placeholder={f.placeholder}
            autoComplete="off"
            spellCheck={false}
            // One tag here; the API (and the list it drills down to) takes several.
            onChange={(e) => setDraft({ ...draft, [f.key]: f.key === 'tag' ? (e.target.value ? [e.target.value] : undefined) : e.target.value })}
            className="h-8 rounded-md border border-border-strong bg-bg px-2.5 text-sm font-normal text-fg placeholder:text-muted"
          />
        </label>
      ))}
      <label className="flex flex-col gap-1 text-xs font-medium text-muted">
        Status
        <select
          name="status"
          value={draft.status}
          onChange={(e) => setDraft({ ...draft, status: e.target.value })}
          className="h-8 rounded-md border border-border-strong bg-bg px-2 text-sm font-normal text-fg"
        >
          <option value="">Any</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="h-8 rounded-md border border-border-strong bg-bg px-3 text-sm font-medium text-fg hover:bg-surface-2">
        Apply filters
      </button>
      {active && (
        <button type="button" onClick={() => navigate({ ...state, filters: {} })} className="h-8 px-1 text-sm text-accent hover:underline">
          Clear filters
        </button>
      )}
    </form>
  );
}
