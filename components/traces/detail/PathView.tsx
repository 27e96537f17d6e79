'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { PathInsights } from '@/lib/features/paths';
import { judgedRightShareOf, type BranchReview } from '@/lib/features/paths/shared';
import { insightsQueries, drillDownHref } from '@/lib/client/insights';
import { formatCompact, plural } from '@/lib/core/format';
import { formatConfidence } from '@/lib/features/traces/shared';
import type { RunStatus } from '@/lib/features/traces/shared';
import { DECISION_LABEL, EVENT_META, EventTypeBadge, SpanTypeBadge, StatusIcon, statusLabel } from '@/components/ui/badges';
import { formatShare } from '@/components/insights/theme';
import type { TraceModel, Selection } from './model';
import { branchFigures, pathForks, pathRows, placeEvents, type PathEventGroup, type PathFork, type PathRow } from './path-model';

/** Rows drawn before "Show more": long agent runs stay quick to open; repeats are folded already. */
const PAGE_ROWS = 200;
/** The fleet figures cover this many days of traces of the same name, ending now. */
const FLEET_DAYS = 30;
const MINUTE_MS = 60_000;

const BRANCH: Record<RunStatus | 'none', string> = {
  COMPLETED: 'border-emerald-600 bg-emerald-50 text-emerald-950 dark:border-emerald-400 dark:bg-emerald-950 dark:text-emerald-100',
  ERROR: 'border-red-600 bg-red-50 text-red-950 dark:border-red-400 dark:bg-red-950 dark:text-red-100',
  RUNNING: 'border-blue-600 bg-blue-50 text-blue-950 dark:border-blue-400 dark:bg-blue-950 dark:text-blue-100',
  none: 'border-slate-500 bg-surface-2 text-fg dark:border-slate-400',
};

function ledText(fork: PathFork): string {
  const { to, counts, status } = fork.led;
  if (to === null || status === null) return 'no tool span followed';
  if (to === 'trace') return `the run ended ${statusLabel(status).toLowerCase()}`;
  const parts = (['COMPLETED', 'ERROR', 'RUNNING'] as const).filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${statusLabel(s).toLowerCase()}`);
  return fork.decisions.length > 1 ? `tool spans: ${parts.join(', ')}` : `tool span ${statusLabel(status).toLowerCase()}`;
}

/**
 * The trace's decisions as forks in path order, nested under the agent and chain spans they
 * happened in: the chosen branch solid and coloured by what followed, the options not
 * taken as dashed ghost branches with their confidence, and for each branch the fleet's
 * figures (runs of the same name with the same steps before) and a link to those runs.
 * Up/Down move between forks; Enter opens the decision in the side panel.
 */
export function PathView({ model, onSelect }: { model: TraceModel; onSelect: (s: Selection) => void }) {
  const { trace } = model;
  const { forks, before } = useMemo(() => {
    const forks = pathForks(trace, model.toolSpans);
    return { forks, before: placeEvents(forks, trace.events, model.toolSpans) };
  }, [trace, model.toolSpans]);
  const rows = useMemo(() => pathRows(forks, trace.spans), [forks, trace.spans]);
  const [shown, setShown] = useState(PAGE_ROWS);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLOListElement>(null);

  // The fleet's paths of this name; a failure leaves the path readable without figures.
  const [fleetReq] = useState(() => {
    const to = Math.ceil(Date.now() / MINUTE_MS) * MINUTE_MS;
    return { from: new Date(to - FLEET_DAYS * 24 * 60 * MINUTE_MS).toISOString(), to: new Date(to).toISOString(), bucket: 'day' as const, name: trace.name };
  });
  const fleet = useQuery({ ...insightsQueries.paths(fleetReq), enabled: forks.length > 0 });
  const reviews = useQuery({ ...insightsQueries.pathReviews(fleetReq), enabled: forks.length > 0 });

  if (forks.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-border-strong bg-surface p-6 text-center text-sm text-muted" data-testid="path-empty">
        This run recorded no decisions: its path is empty.
      </p>
    );
  }

  const visible = rows.slice(0, shown);
  const forkRows = visible.filter((r) => r.kind === 'fork');
  const onKey = (e: KeyboardEvent<HTMLOListElement>) => {
    const items = [...(listRef.current?.querySelectorAll<HTMLElement>('[data-path-fork]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (i < 0) return;
    let next: number | null = null;
    if (e.key === 'ArrowDown') next = Math.min(items.length - 1, i + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, i - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = items.length - 1;
    if (next === null) return;
    e.preventDefault();
    setActive(next);
    items[next].focus();
  };

  return (
    <div className="flex h-full min-h-0 flex-col gap-2">
      <p className="text-sm text-muted" data-testid="path-summary">
        {plural(trace.decisionPoints.length, 'decision')} as {plural(forks.length, 'step')}; the chosen branch is solid and coloured by what followed,
        options not taken are dashed.{' '}
        {fleet.data
          ? `Figures: runs named “${trace.name}” in the last ${FLEET_DAYS} days with the same steps before.`
          : fleet.isError
            ? 'The fleet’s figures could not be loaded.'
            : 'Loading the fleet’s figures…'}{' '}
        <Link href={`/traces/compare?a=${encodeURIComponent(trace.id)}`} className="font-medium text-accent hover:underline" data-testid="compare-success">
          Compare with a successful run
        </Link>
      </p>
      {before.length > 0 && (
        <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted" data-testid="path-events-before">
          Before the first step: <EventChips groups={before} onSelect={onSelect} />
        </p>
      )}
      <details className="text-sm" data-testid="path-text">
        <summary className="cursor-pointer text-muted">The path as text</summary>
        <ol className="mt-1 list-decimal pl-6">
          {forks.map((f) => (
            <li key={f.index}>{stepSentence(f, f.index === forks.length - 1 ? trace.status : null)}</li>
          ))}
        </ol>
      </details>
      <ol
        ref={listRef}
        aria-label="Decision path"
        onKeyDown={onKey}
        className="min-h-0 flex-1 overflow-y-auto rounded-lg border border-border bg-surface p-2"
        data-testid="path-list"
      >
        {visible.map((row) => (
          <Row
            key={row.key}
            row={row}
            fleet={fleet.data ?? null}
            reviews={reviews.data?.branches ?? null}
            fleetReq={fleetReq}
            tabIndex={row.kind === 'fork' && forkRows.indexOf(row) === active ? 0 : -1}
            onSelect={onSelect}
            traceStatus={row.kind === 'fork' && row.fork.index === forks.length - 1 ? trace.status : null}
          />
        ))}
        {rows.length > shown && (
          <li className="p-2">
            <button type="button" onClick={() => setShown(shown + PAGE_ROWS)} className="text-sm font-medium text-accent hover:underline">
              Show {Math.min(PAGE_ROWS, rows.length - shown)} more of {rows.length - shown}
            </button>
          </li>
        )}
      </ol>
    </div>
  );
}

const indent = (depth: number) => ({ paddingLeft: `${Math.min(depth, 6) * 1.25}rem` });

function Row({
  row,
  fleet,
  reviews,
  fleetReq,
  tabIndex,
  onSelect,
  traceStatus,
}: {
  row: PathRow;
  fleet: PathInsights | null;
  /** The fleet's decision reviews by branch, when loaded. */
  reviews: BranchReview[] | null;
  fleetReq: { from: string; to: string; name: string };
  tabIndex: number;
  onSelect: (s: Selection) => void;
  /** On the last step: how the run ended. */
  traceStatus: RunStatus | null;
}) {
  if (row.kind === 'group') {
    return (
      <li style={indent(row.depth)} className="flex items-center gap-2 pt-2 pb-1 text-sm font-medium" data-testid="path-group" data-depth={row.depth}>
        <SpanTypeBadge type={row.span.type} />
        <span className="truncate" title={row.span.name}>
          {row.span.name}
        </span>
      </li>
    );
  }
  const { fork } = row;
  const first = fork.decisions[0];
  const tone = BRANCH[fork.led.status ?? 'none'];
  const figures = (label: string): Shown | null =>
    fleet
      ? {
          ...branchFigures(fleet.paths, fork.prefix, { type: fork.step.type, label }),
          judged: reviews ? judgedRightShareOf(reviews, fork.forkId, { type: fork.step.type, label }) : null,
        }
      : null;
  const branchHref = (label: string) => drillDownHref(fleetReq, { fork: fork.forkId, chosen: label });
  const chosen = figures(fork.step.label);
  const label = stepSentence(fork, traceStatus);
  return (
    <li style={indent(row.depth)} className="relative py-1" data-testid="path-fork" data-depth={row.depth} data-step={fork.step.label}>
      <div className="border-l-2 border-border-strong pl-3">
        <div
          role="button"
          tabIndex={tabIndex}
          data-path-fork
          aria-label={label}
          onClick={() => onSelect({ kind: 'decision', id: first.id })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              onSelect({ kind: 'decision', id: first.id });
            }
          }}
          className="flex cursor-pointer flex-wrap items-center gap-x-2 gap-y-1 rounded px-1 py-0.5 text-xs text-muted hover:bg-surface-2"
        >
          <span className="tabular">{fork.index + 1}.</span>
          <span>{DECISION_LABEL[fork.step.type]}</span>
          {fork.step.repeats > 1 && (
            <span className="rounded-full bg-surface-2 px-1.5 font-medium text-fg tabular" data-testid="path-repeats">
              ×{formatCompact(fork.step.repeats)}
            </span>
          )}
          {first.inferred && <span>(inferred)</span>}
        </div>
        <ul className="mt-1 flex flex-col gap-1" aria-label="Branches">
          <li className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="path-chosen" data-status={fork.led.status ?? 'none'}>
            <span className={`inline-flex max-w-full items-center gap-1.5 rounded-md border-2 px-2 py-0.5 text-sm font-medium ${tone}`}>
              {fork.led.status && <StatusIcon status={fork.led.status} />}
              <code className="truncate font-mono">{fork.step.label}</code>
              {fork.chosenConfidence !== null && <span className="text-xs opacity-80 tabular">{formatConfidence(fork.chosenConfidence)}</span>}
            </span>
            <span className="text-xs text-muted">{ledText(fork)}{traceStatus && fork.led.to !== 'trace' ? ` · the run ended ${statusLabel(traceStatus).toLowerCase()}` : ''}</span>
            <Figures figures={chosen} href={branchHref(fork.step.label)} label={fork.step.label} />
          </li>
          {fork.alternatives.map((alt) => (
            <li key={alt.label} className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="path-ghost" data-option={alt.label}>
              <span className="inline-flex max-w-full items-center gap-1.5 rounded-md border border-dashed border-border-strong px-2 py-0.5 text-sm text-muted">
                <span aria-hidden="true">╌</span>
                <span className="sr-only">Not taken:</span>
                <code className="truncate font-mono">{alt.label}</code>
                {alt.confidence !== null && (
                  <span className="text-xs tabular" data-testid="ghost-confidence">
                    {formatConfidence(alt.confidence)}
                  </span>
                )}
              </span>
              <Figures figures={figures(alt.label)} href={branchHref(alt.label)} label={alt.label} />
            </li>
          ))}
        </ul>
        {fork.events.length > 0 && (
          <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted" data-testid="path-events">
            <span>Here:</span>
            <EventChips groups={fork.events} onSelect={onSelect} />
          </p>
        )}
      </div>
    </li>
  );
}

const eventsText = (groups: readonly PathEventGroup[]) =>
  groups.map((g) => `${EVENT_META[g.type].label.toLowerCase()} “${g.name}”${g.count > 1 ? ` ×${g.count}` : ''}`).join(', ');

/** One step as a sentence: the text alternative of the drawing, and each step's accessible name. */
function stepSentence(fork: PathFork, traceStatus: RunStatus | null): string {
  const ended = traceStatus && fork.led.to !== 'trace' ? `; the run ended ${statusLabel(traceStatus).toLowerCase()}` : '';
  const events = fork.events.length > 0 ? `; events: ${eventsText(fork.events)}` : '';
  const ghosts = fork.alternatives.length > 0 ? `; not taken: ${fork.alternatives.map((a) => a.label).join(', ')}` : '; no other option offered';
  return `Step ${fork.index + 1}, ${DECISION_LABEL[fork.step.type]}: chose ${fork.step.label}${fork.step.repeats > 1 ? ` ${fork.step.repeats} times` : ''}; ${ledText(fork)}${ended}${ghosts}${events}`;
}

/** Events at one place on the path, folded with a count; each opens its first in the side panel. */
function EventChips({ groups, onSelect }: { groups: readonly PathEventGroup[]; onSelect: (s: Selection) => void }) {
  return (
    <>
      {groups.map((g) => (
        <button
          key={`${g.type}\u001f${g.name}`}
          type="button"
          onClick={() => onSelect({ kind: 'event', id: g.firstId })}
          className="inline-flex max-w-full items-center gap-1 rounded hover:underline"
          data-testid="path-event"
          data-type={g.type}
          title={`${EVENT_META[g.type].label}: ${g.name}${g.count > 1 ? ` (${g.count} times; opens the first)` : ''}`}
        >
          <EventTypeBadge type={g.type} />
          <span className="truncate text-fg">{g.name}</span>
          {g.count > 1 && <span className="font-medium tabular">×{formatCompact(g.count)}</span>}
        </button>
      ))}
    </>
  );
}

/** The fleet's figures of one branch, with its reviews when any decision there was reviewed. */
type Shown = ReturnType<typeof branchFigures> & { judged: ReturnType<typeof judgedRightShareOf> };

function Figures({ figures, href, label }: { figures: Shown | null; href: string; label: string }) {
  const judged = figures?.judged ? ` · ${formatShare(figures.judged.share)} judged right (${plural(figures.judged.reviewed, 'review')})` : '';
  return (
    <Link href={href} className="text-xs text-accent hover:underline" data-testid="branch-link" aria-label={`Runs that took ${label} here${figures ? `: ${figures.chosen} of ${figures.offered}${judged}` : ''}`}>
      {figures
        ? `${figures.chosen} of ${figures.offered} runs here chose it${figures.chosen > 0 ? ` · ${formatShare(figures.errorShareWhenChosen)} failed` : ''}${judged}`
        : 'runs that took it'}
    </Link>
  );
}
