'use client';

import type { DecisionPointRecord } from '@/lib/features/traces/shared';
import { formatCost, formatDuration, formatOffset, plural, toMillis } from '@/lib/core/format';
import { chosenConfidence, formatConfidence, notChosenOptions } from '@/lib/features/traces/shared';
import { toolSpanOf } from '@/lib/features/traces/shared';
import { DecisionTypeBadge, StatusBadge } from '@/components/ui/badges';
import { LongText } from '@/components/ui/LongText';
import { previewJson, summarizeJson } from '@/components/json/json';
import type { Selection, TraceModel } from './model';
import { ScoreBar, scoresOf } from '@/components/scores/ScoreBar';

/** A confidence beside its option: `0.79`, with what it is for screen readers and on hover. */
function Confidence({ value, strong = false }: { value: number | null; strong?: boolean }) {
  if (value === null) return null;
  return (
    <span
      data-testid="option-confidence"
      title="The confidence the agent gave this option (its score, confidence or probability)"
      className={`shrink-0 rounded px-1 font-mono text-[11px] tabular ${
        strong ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100' : 'bg-surface-2 text-fg'
      }`}
    >
      <span className="sr-only">confidence </span>
      {formatConfidence(value)}
    </span>
  );
}

/** The option that was taken, set apart; the ones that were not (by option label, never the chosen one), listed beside it. */
export function ChosenVsAlternatives({ decision, compact = false }: { decision: DecisionPointRecord; compact?: boolean }) {
  const chosenDetail = typeof decision.chosen === 'object' && decision.chosen !== null ? previewJson(decision.chosen, 90) : null;
  const others = notChosenOptions(decision);
  const limit = compact ? 20 : 6;
  return (
    <div className={`grid gap-3 ${compact ? 'grid-cols-1' : 'grid-cols-1 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]'}`}>
      <div
        data-testid="decision-chosen"
        className="rounded-md border-2 border-emerald-600 bg-emerald-50 px-3 py-2 dark:border-emerald-400 dark:bg-emerald-950/50"
      >
        <div className="flex items-center gap-1.5 text-[11px] font-semibold tracking-wide text-emerald-800 uppercase dark:text-emerald-200">
          <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12">
            <path d="M2 6.5l2.5 2.5L10 3.5" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" />
          </svg>
          Chosen
        </div>
        <p className="mt-0.5 flex min-w-0 items-baseline gap-2 font-semibold text-fg">
          <span className="min-w-0 break-words">{summarizeJson(decision.chosen, 120)}</span>
          <Confidence value={chosenConfidence(decision)} strong />
        </p>
        {chosenDetail && <p className="mt-0.5 truncate font-mono text-[11px] text-muted">{chosenDetail}</p>}
      </div>
      <div data-testid="decision-alternatives" className="rounded-md border border-dashed border-border-strong px-3 py-2">
        <div className="text-[11px] font-semibold tracking-wide text-muted uppercase">
          {others.length === 0 ? 'No alternatives recorded' : `Not chosen (${others.length})`}
        </div>
        {others.length > 0 && (
          <ul className="mt-1 space-y-0.5">
            {others.slice(0, limit).map((alt) => (
              <li key={alt.label} className="flex min-w-0 items-baseline gap-1.5 text-muted" data-testid="decision-alternative">
                <span aria-hidden="true" className="shrink-0">
                  ○
                </span>
                <span className="truncate" title={alt.label}>
                  {summarizeJson(alt.value, 80)}
                </span>
                <Confidence value={alt.confidence} />
              </li>
            ))}
            {others.length > limit && (
              <li className="text-[11px] text-muted">
                and {others.length - limit} more (open the details)
              </li>
            )}
          </ul>
        )}
      </div>
    </div>
  );
}

/** What a tool selection led to: the tool span that ran it, linked, with its status and duration. */
export function DecisionOutcome({ decision, model, onOpen }: { decision: DecisionPointRecord; model: TraceModel; onOpen: (s: Selection) => void }) {
  if (decision.type !== 'TOOL_SELECTION') return null;
  const span = toolSpanOf(decision, model.toolSpans);
  if (!span) {
    return (
      <p data-testid="decision-outcome" className="text-xs text-muted">
        Outcome: no tool span of this call is in the trace.
      </p>
    );
  }
  return (
    <p data-testid="decision-outcome" className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs">
      <span className="text-muted">Led to</span>
      <button
        type="button"
        onClick={() => onOpen({ kind: 'span', id: span.id })}
        className="min-w-0 truncate font-medium text-accent hover:underline"
        title="Open the tool span this selection ran"
      >
        {span.name}
      </button>
      <StatusBadge status={span.status} />
      {span.durationMs !== null && <span className="text-muted tabular">{formatDuration(span.durationMs)}</span>}
      {span.status === 'ERROR' && span.statusMessage && (
        <span className="min-w-0 truncate text-red-800 dark:text-red-200" title={span.statusMessage}>
          {span.statusMessage}
        </span>
      )}
    </p>
  );
}

/** Set on decisions Crossroads deduced (an LLM's tool calls) so nobody takes them for ones the agent recorded. */
export function InferredBadge() {
  return (
    <span
      data-testid="decision-inferred"
      title="Inferred by Crossroads from the span's tool calls, not recorded by the agent"
      className="rounded border border-dashed border-amber-600 px-1.5 py-0.5 text-[11px] font-medium text-amber-800 dark:border-amber-400 dark:text-amber-200"
    >
      Inferred
    </span>
  );
}

export function DecisionCard({
  decision,
  model,
  selected,
  onSelect,
  onReveal,
}: {
  decision: DecisionPointRecord;
  model: TraceModel;
  selected: boolean;
  onSelect: (s: Selection) => void;
  onReveal: (s: Selection) => void;
}) {
  const t = toMillis(decision.timestamp);
  const parent = decision.parentSpanId ? model.tree.spanById.get(decision.parentSpanId) : undefined;
  return (
    <article
      data-testid="decision-card"
      aria-label={`Decision ${decision.id}`}
      onClick={(e) => {
        if ((e.target as HTMLElement).closest('a, button')) return;
        onSelect({ kind: 'decision', id: decision.id });
      }}
      className={`cursor-pointer rounded-lg border p-3 ${
        selected ? 'border-accent bg-accent-soft' : 'border-border bg-bg hover:border-border-strong'
      }`}
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
        <DecisionTypeBadge type={decision.type} />
        {decision.inferred && <InferredBadge />}
        <span className="tabular">{t !== null ? formatOffset(t - model.window.start) : '—'}</span>
        <span className="min-w-0 truncate">
          {decision.parentSpanId ? (
            parent ? (
              <>
                in{' '}
                <button
                  type="button"
                  onClick={() => onReveal({ kind: 'span', id: parent.span.id })}
                  className="font-medium text-accent hover:underline"
                >
                  {parent.span.name}
                </button>
              </>
            ) : (
              <>in a span not in this trace ({decision.parentSpanId})</>
            )
          ) : (
            'on the trace itself'
          )}
        </span>
        {decision.durationMs !== null && <span className="tabular">took {formatDuration(decision.durationMs)}</span>}
        {decision.costUsd !== null && <span className="tabular">cost {formatCost(decision.costUsd)}</span>}
        <span className="ml-auto flex gap-2">
          <button
            type="button"
            onClick={() => onSelect({ kind: 'decision', id: decision.id })}
            className="rounded border border-border px-1.5 py-0.5 text-xs text-fg hover:bg-surface-2"
          >
            Details
          </button>
          <button
            type="button"
            onClick={() => onReveal({ kind: 'decision', id: decision.id })}
            className="rounded border border-border px-1.5 py-0.5 text-xs text-fg hover:bg-surface-2"
          >
            Show in timeline
          </button>
        </span>
      </header>
      <div className="mt-2">
        {decision.reasoning ? (
          <LongText
            text={decision.reasoning}
            limit={280}
            className="border-l-2 border-fuchsia-400 pl-3 text-sm text-fg dark:border-fuchsia-500"
          />
        ) : (
          <p className="text-sm text-muted italic">No reasoning recorded.</p>
        )}
      </div>
      <div className="mt-3">
        <ChosenVsAlternatives decision={decision} />
      </div>
      <div className="mt-2 empty:hidden">
        <DecisionOutcome decision={decision} model={model} onOpen={onSelect} />
      </div>
      <div className="mt-2">
        <ScoreBar target={{ traceId: model.trace.id, decisionPointId: decision.id }} scores={scoresOf(decision)} label={`decision ${decision.id}`} />
      </div>
      <p className="sr-only">
        Chose {summarizeJson(decision.chosen, 120)} over {plural(notChosenOptions(decision).length, 'alternative')}.
      </p>
    </article>
  );
}
