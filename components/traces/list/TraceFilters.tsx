'use client';

import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { RUN_STATUSES, type ListParams, type RunStatus, type SuggestField } from '@/lib/features/traces/shared';
import { statusLabel } from '@/components/ui/badges';
import { hasListFilters } from '@/lib/client/list-filters';
import { FiltersPanel } from './FiltersPanel';
import { SuggestionList } from '@/components/ui/Suggestions';
import { changeFilters, clearFilters, type ListNavigate } from './useListUrl';

const DEBOUNCE_MS = 300;

/**
 * A text filter typed into freely and written to the URL after a pause. The first
 * write of a burst of typing adds a history entry (Back undoes the search), later
 * ones while the field keeps focus replace it, so Back does not step through
 * every keystroke.
 */
function DebouncedField({
  id,
  label,
  placeholder,
  value,
  onCommit,
  hint,
  type = 'search',
  suggest,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onCommit: (value: string, mode: 'push' | 'replace') => void;
  hint?: string;
  type?: 'search' | 'text';
  /** Offers the stored values of this field that start with what is typed. */
  suggest?: SuggestField;
}) {
  const [text, setText] = useState(value);
  const [focused, setFocused] = useState(false);
  // Follow the URL when it changes from elsewhere (Back/Forward, a session link, "clear").
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if (text.trim() !== value) setText(value);
  }
  const pushedThisFocus = useRef(false);

  const commitNow = (next: string) => {
    onCommit(next, pushedThisFocus.current ? 'replace' : 'push');
    pushedThisFocus.current = true;
  };
  const commit = useEffectEvent(commitNow);

  useEffect(() => {
    const next = text.trim();
    if (next === value) return;
    const timer = setTimeout(() => commit(next), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  return (
    <div className="flex min-w-0 flex-col gap-1">
      {label && (
        <label htmlFor={id} className="text-xs font-medium text-muted">
          {label}
        </label>
      )}
      <input
        id={id}
        type={type}
        value={text}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => setText(e.target.value)}
        list={suggest ? `${id}-suggestions` : undefined}
        onFocus={() => {
          pushedThisFocus.current = false;
          setFocused(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            const next = text.trim();
            if (next !== value) commitNow(next);
          }
        }}
        className="h-8 w-full rounded-md border border-border-strong bg-bg px-2.5 text-sm text-fg placeholder:text-muted"
      />
      {hint && (
        <span id={`${id}-hint`} className="sr-only">
          {hint}
        </span>
      )}
      {suggest && <SuggestionList id={`${id}-suggestions`} field={suggest} text={text.trim()} active={focused} />}
    </div>
  );
}

type SearchMode = 'everywhere' | 'names';

/**
 * One search box. By default it searches everything a trace holds (`q`: names, inputs,
 * outputs, reasoning, events, metadata); the switch narrows it to trace names (`search`,
 * the spec's filter). The text moves with the switch, so flipping it re-runs the search.
 */
function SearchBox({ params, navigate }: { params: ListParams; navigate: ListNavigate }) {
  // A names-only search in the URL (and no full-text one) opens in names mode.
  const urlMode: SearchMode = params.search && !params.q ? 'names' : 'everywhere';
  const [chosenMode, setChosenMode] = useState<SearchMode | null>(null);
  const mode = chosenMode ?? urlMode;
  const value = (mode === 'names' ? params.search : params.q) ?? '';
  const commit = (text: string, history: 'push' | 'replace', nextMode: SearchMode = mode) =>
    navigate(changeFilters(nextMode === 'names' ? { search: text, q: undefined } : { q: text, search: undefined }), history);
  return (
    <div className="flex w-72 max-w-full min-w-0 flex-col gap-1">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor="filter-search" className="text-xs font-medium text-muted">
          Search
        </label>
        <div role="radiogroup" aria-label="Search in" className="flex overflow-hidden rounded border border-border-strong text-xs">
          {(['everywhere', 'names'] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="radio"
              aria-checked={mode === m}
              onClick={() => {
                setChosenMode(m);
                if (m !== mode && value) commit(value, 'push', m);
              }}
              className={`px-2 py-0.5 ${mode === m ? 'bg-accent text-bg' : 'bg-bg text-muted hover:bg-surface-2'}`}
            >
              {m === 'everywhere' ? 'Everything' : 'Names only'}
            </button>
          ))}
        </div>
      </div>
      <DebouncedField
        id="filter-search"
        label=""
        placeholder={mode === 'names' ? 'Search trace names' : 'Search names, inputs, outputs, reasoning, events…'}
        value={value}
        hint={
          mode === 'names'
            ? 'Case-insensitive, in trace names only; the list updates as you type.'
            : 'Case-insensitive, in every field of every trace, span, decision and event; the list updates as you type.'
        }
        onCommit={(text, history) => commit(text, history)}
      />
    </div>
  );
}

export function TraceFilters({
  params,
  navigate,
}: {
  params: ListParams;
  navigate: ListNavigate;
}) {
  const hasFilters = hasListFilters(params);
  return (
    <div role="search" aria-label="Filter traces" className="flex flex-wrap items-end gap-3">
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-xs font-medium text-muted">Status</legend>
        <div className="flex h-8 overflow-hidden rounded-md border border-border-strong">
          {(['', ...RUN_STATUSES] as const).map((s) => {
            const checked = (params.status ?? '') === s;
            return (
              <label
                key={s || 'all'}
                className={`flex cursor-pointer items-center border-r border-border-strong px-3 text-sm last:border-r-0 has-[:focus-visible]:outline-2 has-[:focus-visible]:-outline-offset-2 has-[:focus-visible]:outline-accent ${
                  checked ? 'bg-accent text-bg' : 'bg-bg text-fg hover:bg-surface-2'
                }`}
              >
                <input
                  type="radio"
                  name="status"
                  value={s}
                  checked={checked}
                  onChange={() => navigate(changeFilters({ status: (s || undefined) as RunStatus | undefined }))}
                  className="sr-only"
                />
                {s ? statusLabel(s) : 'All'}
              </label>
            );
          })}
        </div>
      </fieldset>
      <SearchBox params={params} navigate={navigate} />
      <div className="w-52 max-w-full">
        <DebouncedField
          id="filter-session"
          label="Session ID"
          placeholder="Exact session ID"
          type="text"
          suggest="sessionId"
          value={params.sessionId ?? ''}
          onCommit={(sessionId, mode) => navigate(changeFilters({ sessionId }), mode)}
        />
      </div>
      <div className="w-44 max-w-full">
        <DebouncedField
          id="filter-name"
          label="Trace name"
          placeholder="Exact name"
          type="text"
          suggest="name"
          value={params.name ?? ''}
          onCommit={(name, mode) => navigate(changeFilters({ name }), mode)}
        />
      </div>
      <div className="w-44 max-w-full">
        <DebouncedField
          id="filter-model"
          label="Model"
          placeholder="Exact model"
          type="text"
          suggest="model"
          value={params.model ?? ''}
          onCommit={(model, mode) => navigate(changeFilters({ model }), mode)}
        />
      </div>
      <FiltersPanel params={params} navigate={navigate} />
      {/* Always rendered so that the row does not shift when filters appear. */}
      <button
        type="button"
        onClick={() => navigate(clearFilters)}
        className={`h-8 rounded-md px-2 text-sm text-accent hover:underline ${hasFilters ? '' : 'invisible'}`}
        aria-hidden={!hasFilters}
        tabIndex={hasFilters ? 0 : -1}
      >
        Clear filters
      </button>
    </div>
  );
}
