'use client';

import { useDeferredValue, useMemo, useState } from 'react';
import { DECISION_TYPES, type DecisionType } from '@/lib/traces/types';
import { plural } from '@/lib/format';
import { DECISION_LABEL } from '@/components/ui/badges';
import { summarizeJson } from '@/components/json/json';
import { DecisionCard } from './DecisionCard';
import type { Selection, TraceModel } from './model';

const PAGE = 50;

export function DecisionList({
  model,
  selection,
  typeFilter,
  onTypeFilter,
  onSelect,
  onReveal,
}: {
  model: TraceModel;
  selection: Selection | null;
  typeFilter: DecisionType | null;
  onTypeFilter: (t: DecisionType | null) => void;
  onSelect: (s: Selection) => void;
  onReveal: (s: Selection) => void;
}) {
  const [text, setText] = useState('');
  const [shown, setShown] = useState(PAGE);
  const query = useDeferredValue(text.trim().toLowerCase());
  const decisions = model.trace.decisionPoints;

  const counts = useMemo(() => new Map(model.decisionTypes), [model.decisionTypes]);
  const filtered = useMemo(() => {
    return decisions.filter((d) => {
      if (typeFilter && d.type !== typeFilter) return false;
      if (!query) return true;
      const hay = [d.reasoning ?? '', summarizeJson(d.chosen, 200), ...d.alternatives.map((a) => summarizeJson(a, 200)), d.id]
        .join('\n')
        .toLowerCase();
      return hay.includes(query);
    });
  }, [decisions, typeFilter, query]);

  if (decisions.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-border-strong p-6 text-muted">
        This trace recorded no decision points.
      </p>
    );
  }

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex flex-wrap items-end gap-3 pb-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="decision-type" className="text-xs font-medium text-muted">
            Decision type
          </label>
          <select
            id="decision-type"
            value={typeFilter ?? ''}
            onChange={(e) => {
              onTypeFilter((e.target.value || null) as DecisionType | null);
              setShown(PAGE);
            }}
            className="h-8 rounded-md border border-border-strong bg-bg px-2 text-sm"
          >
            <option value="">All types ({decisions.length})</option>
            {DECISION_TYPES.filter((t) => counts.has(t)).map((t) => (
              <option key={t} value={t}>
                {DECISION_LABEL[t]} ({counts.get(t)})
              </option>
            ))}
          </select>
        </div>
        <div className="flex w-72 flex-col gap-1">
          <label htmlFor="decision-search" className="text-xs font-medium text-muted">
            Reasoning or option contains
          </label>
          <input
            id="decision-search"
            type="search"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setShown(PAGE);
            }}
            placeholder="e.g. web_search"
            className="h-8 rounded-md border border-border-strong bg-bg px-2.5 text-sm placeholder:text-muted"
          />
        </div>
        <p className="pb-1.5 text-sm text-muted" aria-live="polite">
          {filtered.length === decisions.length
            ? plural(decisions.length, 'decision')
            : `${filtered.length} of ${plural(decisions.length, 'decision')}`}
        </p>
      </div>
      <div className="min-h-0 flex-1 space-y-3 overflow-auto pr-1" data-testid="decision-list">
        {filtered.length === 0 && <p className="p-4 text-muted">No decision matches.</p>}
        {filtered.slice(0, shown).map((d) => (
          <DecisionCard
            key={d.id}
            decision={d}
            model={model}
            selected={selection?.kind === 'decision' && selection.id === d.id}
            onSelect={onSelect}
            onReveal={onReveal}
          />
        ))}
        {filtered.length > shown && (
          <button
            type="button"
            onClick={() => setShown((n) => n + PAGE)}
            className="w-full rounded-md border border-border-strong py-2 text-sm hover:bg-surface-2"
          >
            Show {Math.min(PAGE, filtered.length - shown)} more of {filtered.length - shown}
          </button>
        )}
      </div>
    </div>
  );
}
