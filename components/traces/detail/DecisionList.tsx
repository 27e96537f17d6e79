'use client';

import { useDeferredValue, useMemo, useState } from 'react';
import { DECISION_TYPES, type DecisionType } from '@/lib/features/traces/shared';
import { groupDecisions, type DecisionGroup } from '@/lib/features/traces/shared';
import { toolSpanOf } from '@/lib/features/traces/shared';
import { formatOffset, plural, toMillis } from '@/lib/core/format';
import { DECISION_LABEL, DecisionTypeBadge } from '@/components/ui/badges';
import { summarizeJson } from '@/components/json/json';
import { ChosenVsAlternatives, DecisionCard } from './DecisionCard';
import type { Selection, TraceModel } from './model';

const PAGE = 50;

/** How the tool spans of a group's selections ended, counted (tool selections only). */
function groupOutcomes(group: DecisionGroup, model: TraceModel): string | null {
  if (group.type !== 'TOOL_SELECTION') return null;
  let completed = 0;
  let failed = 0;
  let running = 0;
  let none = 0;
  for (const d of group.decisions) {
    const span = toolSpanOf(d, model.toolSpans);
    if (!span) none++;
    else if (span.status === 'ERROR') failed++;
    else if (span.status === 'RUNNING') running++;
    else completed++;
  }
  const parts = [
    completed && `${completed.toLocaleString('en-US')} completed`,
    failed && `${failed.toLocaleString('en-US')} failed`,
    running && `${running.toLocaleString('en-US')} running`,
    none && `${none.toLocaleString('en-US')} without a tool span`,
  ].filter(Boolean);
  return parts.length > 0 ? `Led to: ${parts.join(', ')}` : null;
}

/** Many decisions of one type with the same chosen option: one card with the count, the members a click away. */
function DecisionGroupCard({
  group,
  model,
  selection,
  onSelect,
  onReveal,
}: {
  group: DecisionGroup;
  model: TraceModel;
  selection: Selection | null;
  onSelect: (s: Selection) => void;
  onReveal: (s: Selection) => void;
}) {
  // A link to one of its decisions opens the group.
  const [open, setOpen] = useState(() => selection?.kind === 'decision' && group.decisions.some((d) => d.id === selection.id));
  const [shown, setShown] = useState(() => {
    const at = selection?.kind === 'decision' ? group.decisions.findIndex((d) => d.id === selection.id) : -1;
    return Math.max(PAGE, Math.ceil((at + 1) / PAGE) * PAGE);
  });
  const first = group.decisions[0];
  const last = group.decisions[group.decisions.length - 1];
  const offset = (iso: string) => {
    const t = toMillis(iso);
    return t === null ? '—' : formatOffset(t - model.window.start);
  };
  const outcomes = groupOutcomes(group, model);
  const count = group.decisions.length;
  return (
    <section
      data-testid="decision-group"
      aria-label={`${DECISION_LABEL[group.type]}: ${group.chosenLabel}, ${plural(count, 'decision')}`}
      className="rounded-lg border border-border bg-surface p-3"
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
        <DecisionTypeBadge type={group.type} />
        <span className="rounded-full bg-fuchsia-100 px-2 py-px font-semibold text-fuchsia-900 tabular dark:bg-fuchsia-950 dark:text-fuchsia-100" data-testid="decision-group-count">
          ×{count.toLocaleString('en-US')}
        </span>
        <span className="tabular">
          {offset(first.timestamp)} to {offset(last.timestamp)}
        </span>
        {outcomes && <span data-testid="decision-group-outcomes">{outcomes}</span>}
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="ml-auto rounded border border-border px-1.5 py-0.5 text-xs text-fg hover:bg-surface-2"
        >
          {open ? 'Hide them' : `Show all ${count.toLocaleString('en-US')}`}
        </button>
      </header>
      <p className="mt-2 text-sm text-muted">
        The same choice made {plural(count, 'time')}; the first one:
      </p>
      <div className="mt-2">
        <ChosenVsAlternatives decision={first} />
      </div>
      {open && (
        <div className="mt-3 space-y-3 border-l-2 border-border pl-3">
          {group.decisions.slice(0, shown).map((d) => (
            <DecisionCard
              key={d.id}
              decision={d}
              model={model}
              selected={selection?.kind === 'decision' && selection.id === d.id}
              onSelect={onSelect}
              onReveal={onReveal}
            />
          ))}
          {count > shown && (
            <button
              type="button"
              onClick={() => setShown((n) => n + PAGE)}
              className="w-full rounded-md border border-border-strong py-2 text-sm hover:bg-surface-2"
            >
              Show {Math.min(PAGE, count - shown)} more of {count - shown}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

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
  const groups = useMemo(() => groupDecisions(filtered), [filtered]);

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
        <div className="flex w-full max-w-72 flex-col gap-1">
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
        {groups.slice(0, shown).map((g) =>
          g.decisions.length === 1 ? (
            <DecisionCard
              key={g.key}
              decision={g.decisions[0]}
              model={model}
              selected={selection?.kind === 'decision' && selection.id === g.decisions[0].id}
              onSelect={onSelect}
              onReveal={onReveal}
            />
          ) : (
            <DecisionGroupCard key={g.key} group={g} model={model} selection={selection} onSelect={onSelect} onReveal={onReveal} />
          ),
        )}
        {groups.length > shown && (
          <button
            type="button"
            onClick={() => setShown((n) => n + PAGE)}
            className="w-full rounded-md border border-border-strong py-2 text-sm hover:bg-surface-2"
          >
            Show {Math.min(PAGE, groups.length - shown)} more of {groups.length - shown}
          </button>
        )}
      </div>
    </div>
  );
}
