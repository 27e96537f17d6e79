'use client';

import { HoverPrefetchLink } from '@/components/ui/HoverPrefetchLink';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import type { DecisionType } from '@/lib/features/traces/shared';
import { exactTitle, formatCost, formatDateTime, formatDuration, formatTokens, plural, toMillis } from '@/lib/core/format';
import { sessionPageHref } from '@/lib/features/sessions/shared';
import { DECISION_LABEL, DecisionGlyph, StatusBadge, Tag } from '@/components/ui/badges';
import { CopyButton } from '@/components/ui/CopyButton';
import { RelativeTime, useNow, useTimeZone } from '@/components/ui/time';
import { JsonViewer } from '@/components/json/JsonViewer';
import { DeleteSessionButton } from '@/components/traces/delete/DeleteSessionButton';
import { DeleteTraceButton } from './DeleteTraceButton';
import { previewJson } from '@/components/json/json';
import { DownloadJsonButton } from './DownloadJsonButton';
import { AddToDataset } from '@/components/datasets/AddToDataset';
import { ScoreBar, scoresOf } from '@/components/scores/ScoreBar';
import type { Total, TraceModel } from './model';

const DERIVED_NOTE: Record<Total['source'], string> = {
  trace: '',
  spans: 'Σ spans',
  timestamps: 'end − start',
  none: '',
};

function Stat({
  label,
  children,
  note,
  title,
  wideOnly = false,
}: {
  label: string;
  children: ReactNode;
  note?: string;
  title?: string;
  /** Shown on a wide screen only (elsewhere on the page already); screen readers always have it. */
  wideOnly?: boolean;
}) {
  return (
    <div className={`flex min-w-0 items-baseline gap-1.5 ${wideOnly ? 'max-2xl:sr-only' : ''}`} title={title}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="flex min-w-0 items-baseline gap-1.5 font-medium tabular">
        <span className="truncate">{children}</span>
        {note && (
          <span className="shrink-0 rounded bg-surface-2 px-1 text-[10px] font-normal text-muted" data-testid="derived-note">
            {note}
          </span>
        )}
      </dd>
    </div>
  );
}

// Whether the header's second part (user, tags, decision types, scores, metadata) is open;
// remembered in localStorage for every trace.
const MORE_KEY = 'crossroads.trace.header-more';
const moreListeners = new Set<() => void>();

function subscribeMore(listener: () => void): () => void {
  moreListeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    moreListeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function readMore(): boolean {
  try {
    return window.localStorage.getItem(MORE_KEY) === '1';
  } catch {
    return false;
  }
}

function toggleMore(): void {
  try {
    if (readMore()) window.localStorage.removeItem(MORE_KEY);
    else window.localStorage.setItem(MORE_KEY, '1');
  } catch {
    // Storage refused (private mode): nothing remembers it.
  }
  for (const l of moreListeners) l();
}

/** The end instant; only its time of day when it falls on the start's date. */
function EndedAt({ startedAt, endedAt }: { startedAt: string; endedAt: string }) {
  const zone = useTimeZone();
  const start = formatDateTime(startedAt, zone);
  const end = formatDateTime(endedAt, zone);
  const sameDay = start.slice(0, 10) === end.slice(0, 10);
  return (
    <time dateTime={endedAt} title={exactTitle(endedAt, zone)}>
      {sameDay ? end.slice(11) : end}
    </time>
  );
}

/** How long a running trace has been going, ticking with the page clock. */
function Elapsed({ startedAt, serverNow }: { startedAt: string; serverNow: number }) {
  const now = useNow(serverNow);
  const start = toMillis(startedAt);
  if (start === null) return <>—</>;
  return <span className="italic">{formatDuration(Math.max(0, now - start))} so far</span>;
}

/** The trace's root span (the first, in start order): its input and output are the run's. */
function rootSpanId(model: TraceModel): string | null {
  const root = model.tree.roots.find((n) => n.kind === 'span');
  return root?.kind === 'span' ? root.span.id : null;
}

export function TraceHeader({
  model,
  serverNow,
  live,
  fetching,
  onDecisionType,
}: {
  model: TraceModel;
  serverNow: number;
  live: boolean;
  fetching: boolean;
  onDecisionType: (type: DecisionType) => void;
}) {
  const { trace, totals } = model;
  const [showMeta, setShowMeta] = useState(false);
  const hasMeta = trace.metadata !== null;
  const errors = model.errorKeys.length;
  const derivedTitle = (t: Total, what: string) =>
    t.source === 'spans'
      ? `The trace has no ${what} of its own: this is the sum over its spans`
      : t.source === 'timestamps'
        ? 'The trace has no total duration: this is its end time minus its start time'
        : undefined;

  const more = useSyncExternalStore(subscribeMore, readMore, () => false);
  const scoreCount = scoresOf(trace).length;
  const moreSummary = [
    plural(trace.tags.length, 'tag'),
    plural(scoreCount, 'score'),
    ...(hasMeta ? ['metadata'] : []),
  ].join(' · ');

  return (
    <header className="shrink-0 space-y-1.5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 xl:flex-nowrap">
        <nav aria-label="Breadcrumb" className="shrink-0 text-sm">
          <HoverPrefetchLink href="/traces" className="text-accent hover:underline">
            Traces
          </HoverPrefetchLink>
          <span aria-hidden="true" className="pl-1.5 text-muted">
            /
          </span>
        </nav>
        <h1 className="min-w-0 truncate text-lg font-semibold tracking-tight" title={trace.name}>
          {trace.name}
        </h1>
        <StatusBadge status={trace.status} />
        <button
          type="button"
          aria-expanded={more}
          aria-controls="trace-header-more"
          onClick={toggleMore}
          data-testid="header-more-toggle"
          title={more ? 'Hide the tags, decision types, scores and metadata' : 'Show the tags, decision types, scores and metadata'}
          className="inline-flex shrink-0 items-center gap-1 rounded border border-border px-1.5 py-px text-xs text-muted hover:bg-surface-2 hover:text-fg"
        >
          <span aria-hidden="true" className={`inline-block transition-transform ${more ? 'rotate-90' : ''}`}>
            ▸
          </span>
          {moreSummary}
          <span className="sr-only">{more ? ' (hide)' : ' (show)'}</span>
        </button>
        {live && (
          <span className="inline-flex items-center gap-1.5 text-sm text-muted" aria-live="polite">
            Live: refreshing every 5 s{fetching ? '…' : ''}
          </span>
        )}
        <span className="ml-auto flex flex-wrap items-center gap-2 text-xs text-muted xl:shrink-0 xl:flex-nowrap">
          {/* The id is one copy away; written out where there is room. */}
          <code className="max-w-64 truncate font-mono max-2xl:hidden" title={trace.id}>
            {trace.id}
          </code>
          <CopyButton text={trace.id} label="Copy ID" />
          {/* The page's address as it is now: tab and selection included (the URL holds them). */}
          <CopyButton getText={() => window.location.href} label="Copy link" />
          <HoverPrefetchLink
            href={`/traces/compare?a=${encodeURIComponent(trace.id)}`}
            className="font-medium text-accent hover:underline"
            title="Side by side with the most recent completed run of this name whose decision path shares the longest start with this one"
            data-testid="header-compare-success"
          >
            Compare with a successful run
          </HoverPrefetchLink>
          <DownloadJsonButton id={trace.id} />
          <AddToDataset traceId={trace.id} spanId={rootSpanId(model)} decisions={trace.decisionPoints} />
          <DeleteTraceButton trace={trace} />
          {trace.sessionId && <DeleteSessionButton sessionId={trace.sessionId} after="list" />}
        </span>
      </div>

      {/* The summary figures in one line (they wrap on a narrow screen), then the rest one click away. */}
      <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1 rounded-md border border-border bg-surface px-3 py-1.5 text-sm" data-testid="trace-summary">
        <dl className="contents">
          <Stat label="Started">
            <RelativeTime iso={trace.startedAt} serverNow={serverNow} />
          </Stat>
          <Stat label="Ended" wideOnly>
            {trace.endedAt ? (
              <EndedAt startedAt={trace.startedAt} endedAt={trace.endedAt} />
            ) : (
              <span className="text-muted">{trace.status === 'RUNNING' ? 'still running' : '—'}</span>
            )}
          </Stat>
          <Stat label="Duration" note={DERIVED_NOTE[totals.duration.source]} title={derivedTitle(totals.duration, 'duration')}>
            {totals.duration.source === 'none' && trace.status === 'RUNNING' ? (
              <Elapsed startedAt={trace.startedAt} serverNow={serverNow} />
            ) : (
              formatDuration(totals.duration.value)
            )}
          </Stat>
          <Stat label="Cost" note={DERIVED_NOTE[totals.cost.source]} title={derivedTitle(totals.cost, 'total cost')}>
            {formatCost(totals.cost.value)}
            {trace.unpricedCalls > 0 && (
              <span
                className="ml-1.5 text-xs font-normal text-muted"
                data-testid="unpriced-calls"
                title="Model calls whose model has no price in the catalog or MODEL_PRICES_FILE: the cost shown leaves them out"
              >
                + {trace.unpricedCalls} unpriced
              </span>
            )}
          </Stat>
          <Stat label="Tokens" note={DERIVED_NOTE[totals.tokens.source]} title={derivedTitle(totals.tokens, 'token total')}>
            {formatTokens(totals.tokens.value)}
          </Stat>
          <Stat label="Spans">
            {formatTokens(trace.spans.length)}
            {/* The separator keeps "6" and "2 failed" apart for screen readers (not "62 failed"). */}
            {errors > 0 && <span className="sr-only">, </span>}
            {errors > 0 && <span className="ml-1.5 text-xs font-medium text-red-800 dark:text-red-200">{errors} failed</span>}
          </Stat>
          {/* The tabs count them too. */}
          <Stat label="Decisions" wideOnly>
            {formatTokens(trace.decisionPoints.length)}
          </Stat>
          <Stat label="Events" wideOnly>
            {formatTokens(trace.events.length)}
          </Stat>
        </dl>
        <span className="flex min-w-0 items-baseline gap-1.5">
          <span className="text-xs text-muted">Session</span>
          {trace.sessionId ? (
            <HoverPrefetchLink href={sessionPageHref(trace.sessionId)} className="max-w-48 truncate font-mono text-xs text-accent hover:underline" title={`Show this session as a conversation: ${trace.sessionId}`}>
              {trace.sessionId}
            </HoverPrefetchLink>
          ) : (
            <span className="text-muted">none</span>
          )}
        </span>
        {trace.userId && (
          <span className="flex min-w-0 items-baseline gap-1.5">
            <span className="text-xs text-muted">User</span>
            <HoverPrefetchLink href={`/traces?userId=${encodeURIComponent(trace.userId)}`} className="max-w-40 truncate font-mono text-xs text-accent hover:underline" title={`Show this user’s traces: ${trace.userId}`}>
              {trace.userId}
            </HoverPrefetchLink>
          </span>
        )}
      </div>

      <div id="trace-header-more" hidden={!more} className="space-y-2">
      <div className="flex flex-wrap items-center gap-x-5 gap-y-2 px-1 text-sm">
        <span className="flex min-w-0 flex-wrap items-center gap-1.5">
          <span className="text-muted">Tags</span>
          {trace.tags.length === 0 ? <span className="text-muted">none</span> : trace.tags.map((t, i) => <Tag key={`${i}:${t}`}>{t}</Tag>)}
        </span>
        {model.decisionTypes.length > 0 && (
          <span className="flex flex-wrap items-center gap-1.5">
            <span className="text-muted">Decisions</span>
            {model.decisionTypes.map(([type, n]) => (
              <button
                key={type}
                type="button"
                onClick={() => onDecisionType(type)}
                title={`List the ${DECISION_LABEL[type].toLowerCase()} decisions`}
                className="inline-flex items-center gap-1 rounded-full border border-fuchsia-300 px-2 py-px text-xs text-fuchsia-900 hover:bg-fuchsia-50 dark:border-fuchsia-800 dark:text-fuchsia-200 dark:hover:bg-fuchsia-950"
              >
                <DecisionGlyph size={9} />
                {DECISION_LABEL[type]} <span className="tabular">{n}</span>
                <span className="sr-only">{n === 1 ? ' decision' : ' decisions'}</span>
              </button>
            ))}
          </span>
        )}
        <span className="flex min-w-0 items-start gap-1.5" data-testid="trace-scores">
          <span className="text-muted">Scores</span>
          <ScoreBar target={{ traceId: trace.id }} scores={scoresOf(trace)} label="this trace" />
        </span>
        <span className="flex min-w-0 max-w-full flex-1 items-center gap-1.5 overflow-hidden">
          <span className="text-muted">Metadata</span>
          {hasMeta ? (
            <button
              type="button"
              aria-expanded={showMeta}
              aria-controls="trace-metadata"
              onClick={() => setShowMeta((s) => !s)}
              className="min-w-0 truncate rounded border border-border px-1.5 font-mono text-xs hover:bg-surface-2"
            >
              {showMeta ? 'hide' : previewJson(trace.metadata, 70)}
            </button>
          ) : (
            <span className="text-muted">none</span>
          )}
        </span>
      </div>
      {hasMeta && showMeta && (
        <div id="trace-metadata">
          <JsonViewer label="Trace metadata" value={trace.metadata} openDepth={2} />
        </div>
      )}
      </div>
      <p className="sr-only">
        {plural(trace.spans.length, 'span')}, {plural(trace.decisionPoints.length, 'decision')},{' '}
        {plural(trace.events.length, 'event')}.
      </p>
    </header>
  );
}
