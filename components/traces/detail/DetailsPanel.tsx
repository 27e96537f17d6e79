'use client';

import { useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { traceQueries } from '@/lib/client/traces';
import type { DecisionPointRecord, EventRecord, SpanSummary } from '@/lib/features/traces/shared';
import { formatCost, formatDuration, formatOffset, formatTokens, plural, toMillis } from '@/lib/core/format';
import { spanInterval } from '@/lib/features/traces/shared';
import { spanKey, type SpanNode } from '@/lib/features/traces/shared';
import {
  DECISION_LABEL,
  DecisionGlyph,
  EventTypeBadge,
  SPAN_TYPE_META,
  SpanTypeBadge,
  StatusBadge,
} from '@/components/ui/badges';
import { CopyButton } from '@/components/ui/CopyButton';
import { LongText } from '@/components/ui/LongText';
import { DateTime } from '@/components/ui/time';
import { JsonViewer } from '@/components/json/JsonViewer';
import { summarizeJson } from '@/components/json/json';
import { optionLabel } from '@/lib/features/insights/shared';
import { ChatPayload } from './chat/ChatPayload';
import { ChosenVsAlternatives, DecisionOutcome, InferredBadge } from './DecisionCard';
import { DecisionOverview } from './DecisionOverview';
import { detailLink, type Selection, type TraceModel } from './model';
import { costSourceNote, summaryModelOf } from '@/lib/features/traces/shared';
import { tokenSplitOf } from '@/lib/features/otlp/shared';
import { parameterText, requestDetails } from '@/lib/features/conversation/shared';
import { ScoreBar, scoresOf } from '@/components/scores/ScoreBar';
import { AddToDataset } from '@/components/datasets/AddToDataset';

type Go = (s: Selection) => void;

function Fields({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">{children}</dl>;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

function IdValue({ id, kind }: { id: string; kind: Selection['kind'] }) {
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-2">
      <code className="min-w-0 truncate font-mono text-xs" title={id}>
        {id}
      </code>
      <CopyButton text={id} label="Copy ID" />
      <CopyButton getText={() => detailLink({ kind, id })} label="Copy link" />
    </span>
  );
}

function At({ iso, model }: { iso: string | null; model: TraceModel }) {
  const t = toMillis(iso);
  if (t === null) return <span className="text-muted">—</span>;
  return (
    <span>
      <span className="font-medium tabular">{formatOffset(t - model.window.start)}</span>
      <span className="block text-xs text-muted">
        <DateTime iso={iso} />
      </span>
    </span>
  );
}

function SpanLink({ spanId, model, onGo }: { spanId: string | null; model: TraceModel; onGo: Go }) {
  if (!spanId) return <span className="text-muted">the trace itself</span>;
  const node = model.tree.spanById.get(spanId);
  if (!node) {
    return (
      <span className="text-amber-900 dark:text-amber-200" title="No span with this id is in the trace">
        {spanId} (not in this trace)
      </span>
    );
  }
  return (
    <button type="button" onClick={() => onGo({ kind: 'span', id: spanId })} className="max-w-full truncate text-left text-accent hover:underline">
      <SpanTypeBadge type={node.span.type} className="mr-1.5 align-middle" />
      {node.span.name}
    </button>
  );
}

/** A decision in a list: its type and the option chosen; opens the decision. */
function DecisionLink({ decision, onGo }: { decision: DecisionPointRecord; onGo: Go }) {
  return (
    <button
      type="button"
      onClick={() => onGo({ kind: 'decision', id: decision.id })}
      className="flex w-full items-center gap-2 rounded px-1 py-0.5 text-left hover:bg-surface-2"
    >
      <DecisionGlyph />
      <span className="shrink-0 text-xs text-muted">{DECISION_LABEL[decision.type]}</span>
      <span className="truncate font-medium">→ {summarizeJson(decision.chosen, 60)}</span>
    </button>
  );
}

// The panel opened over the whole width (a model call's conversation reads better wide);
// remembered in localStorage, so the next span opens the same way.
const WIDE_KEY = 'crossroads.details.wide';
const wideListeners = new Set<() => void>();

function subscribeWide(listener: () => void): () => void {
  wideListeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    wideListeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function readWide(): boolean {
  try {
    return window.localStorage.getItem(WIDE_KEY) === '1';
  } catch {
    return false;
  }
}

function useWide(): [boolean, () => void] {
  const wide = useSyncExternalStore(subscribeWide, readWide, () => false);
  const toggle = useCallback(() => {
    try {
      if (readWide()) window.localStorage.removeItem(WIDE_KEY);
      else window.localStorage.setItem(WIDE_KEY, '1');
    } catch {
      // Storage refused (private mode): the toggle has nothing to remember it by.
    }
    for (const l of wideListeners) l();
  }, []);
  return [wide, toggle];
}

const WideToggle = createContext<{ wide: boolean; toggle: () => void } | null>(null);

function WidenButton() {
  const wide = useContext(WideToggle);
  if (!wide) return null;
  return (
    <button
      type="button"
      onClick={wide.toggle}
      aria-pressed={wide.wide}
      title={wide.wide ? 'Back beside the timeline' : 'Open the details over the whole width'}
      // Below lg the details are a full-screen sheet already.
      className="shrink-0 rounded border border-border px-1.5 py-0.5 text-xs hover:bg-surface-2 max-lg:hidden"
    >
      {wide.wide ? 'Narrow' : 'Full width'}
    </button>
  );
}

function PanelHeader({
  children,
  title,
  onClose,
  onReveal,
}: {
  children: ReactNode;
  /** Under the buttons, over the panel's whole width (a long span name keeps its lines few). */
  title?: ReactNode;
  onClose: () => void;
  onReveal?: () => void;
}) {
  return (
    <div className="sticky top-0 z-10 flex flex-wrap items-start gap-2 border-b border-border bg-bg px-4 py-3">
      <div className="min-w-0 flex-1">{children}</div>
      <WidenButton />
      {onReveal && (
        <button
          type="button"
          onClick={onReveal}
          className="shrink-0 rounded border border-border px-1.5 py-0.5 text-xs hover:bg-surface-2"
        >
          Show in timeline
        </button>
      )}
      <button
        type="button"
        onClick={onClose}
        aria-label="Close details"
        className="flex h-6 w-6 shrink-0 items-center justify-center rounded text-muted hover:bg-surface-2 hover:text-fg"
      >
        <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12">
          <path d="M2 2l8 8M10 2l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      </button>
      {title && <div className="w-full min-w-0">{title}</div>}
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{title}</h3>
      {children}
    </section>
  );
}

/** A span's input, output and metadata, loaded when the span is opened (the page holds its outline only). */
function SpanPayloads({ traceId, summary }: { traceId: string; summary: SpanSummary }) {
  const query = useQuery(traceQueries.span(traceId, summary.id, summary.status === 'RUNNING'));
  const span = query.data;
  if (!span) {
    return (
      <div role="status" aria-live="polite" data-testid="span-payloads-loading" className="rounded-md border border-border bg-surface px-3 py-2 text-sm text-muted">
        {query.isError ? (
          <>
            Could not load this span&apos;s input and output: {query.error.message}{' '}
            <button type="button" onClick={() => void query.refetch()} className="font-medium text-accent hover:underline">
              Retry
            </button>
          </>
        ) : (
          'Loading input, output and metadata…'
        )}
      </div>
    );
  }
  return (
    <div className="space-y-5" data-testid="span-payloads">
      {span.statusMessage && span.statusMessage.length > (summary.statusMessage?.length ?? 0) && (
        <Section title="Full status message">
          <LongText text={span.statusMessage} limit={2000} />
        </Section>
      )}
      {span.type === 'LLM_CALL' ? (
        <>
          <ChatPayload label="Input" value={span.input} side="input" metadata={span.metadata} />
          <ChatPayload label="Output" value={span.output} side="output" />
        </>
      ) : (
        <>
          <JsonViewer label="Input" value={span.input} />
          <JsonViewer label="Output" value={span.output} />
        </>
      )}
      <JsonViewer label="Metadata" value={span.metadata} />
    </div>
  );
}

function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex min-w-0 items-baseline gap-1.5">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="min-w-0 font-medium tabular" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/**
 * A model call's figures above its conversation: model, prompt and completion tokens (from
 * its metadata, once loaded), cost, duration, and its request's parameters in one line.
 */
function ModelCallFigures({ traceId, span, duration }: { traceId: string; span: SpanSummary; duration: string }) {
  const query = useQuery(traceQueries.span(traceId, span.id, span.status === 'RUNNING'));
  const loaded = query.data;
  const split = useMemo(() => (loaded ? tokenSplitOf(loaded.metadata) : null), [loaded]);
  const parameters = useMemo(() => (loaded ? requestDetails(loaded.input, loaded.metadata).parameters : []), [loaded]);
  const spanModel = summaryModelOf(span);
  const estimated = costSourceNote(span);
  const pending = loaded === undefined ? '…' : '—';
  return (
    <div className="space-y-1.5 rounded-md border border-border bg-surface px-3 py-2 text-sm" data-testid="model-call-figures">
      <dl className="flex flex-wrap gap-x-4 gap-y-1">
        {spanModel !== null && (
          <Figure label="Model">
            <span className="font-mono text-xs break-all" data-testid="span-model">
              {spanModel}
            </span>
          </Figure>
        )}
        <Figure label="Prompt" testId="prompt-tokens">
          {split?.input !== undefined ? formatTokens(split.input) : pending}
        </Figure>
        <Figure label="Completion" testId="completion-tokens">
          {split?.output !== undefined ? formatTokens(split.output) : pending}
        </Figure>
        {split?.cacheRead !== undefined && split.cacheRead > 0 && <Figure label="Cached">{formatTokens(split.cacheRead)}</Figure>}
        <Figure label="Total">{formatTokens(span.tokenCount)}</Figure>
        <Figure label="Cost">
          <span data-testid="span-cost">
            {formatCost(span.costUsd)}
            {estimated && (
              <span className="ml-1.5 text-xs font-normal text-muted" title={estimated}>
                estimated{span.pricedModel ? ` (${span.pricedModel})` : ''}
              </span>
            )}
          </span>
        </Figure>
        <Figure label="Duration">{duration}</Figure>
      </dl>
      {parameters.length > 0 && (
        <ul aria-label="Model parameters" data-testid="model-parameters" className="flex flex-wrap gap-1 text-xs">
          {parameters.map((p) => (
            <li key={p.name} className="min-w-0 max-w-full truncate rounded border border-border bg-bg px-1.5 py-px" title={`${p.name}: ${parameterText(p.value)}`}>
              <code className="font-mono text-muted">{p.name}</code> <span className="font-mono">{parameterText(p.value)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SpanDetails({
  node,
  model,
  onGo,
  onClose,
  onReveal,
  onZoomTo,
}: {
  node: SpanNode;
  model: TraceModel;
  onGo: Go;
  onClose: () => void;
  onReveal: Go;
  onZoomTo: (spanId: string) => void;
}) {
  const span: SpanSummary = node.span;
  const iv = spanInterval(span, model.window);
  const decisions = model.decisionsBySpan.get(span.id) ?? [];
  const events = model.eventsBySpan.get(span.id) ?? [];
  const spanModel = summaryModelOf(span);
  const estimated = costSourceNote(span);
  const childSpans = node.children.filter((c) => c.kind === 'span').length;
  const modelCall = span.type === 'LLM_CALL';
  const duration =
    span.durationMs !== null
      ? formatDuration(span.durationMs)
      : iv.open
        ? span.status === 'RUNNING'
          ? 'still running'
          : 'not recorded'
        : `${formatDuration(iv.end - iv.start)} (from start and end)`;
  const fields = (
    <Fields>
      <Field label="Span ID">
        <IdValue id={span.id} kind="span" />
      </Field>
      <Field label="Parent">
        {span.parentSpanId ? (
          <SpanLink spanId={span.parentSpanId} model={model} onGo={onGo} />
        ) : (
          <span className="text-muted">none (a root span)</span>
        )}
      </Field>
      <Field label="Started">
        <At iso={span.startedAt} model={model} />
      </Field>
      <Field label="Ended">
        {span.endedAt ? (
          <At iso={span.endedAt} model={model} />
        ) : span.durationMs !== null ? (
          // Sent with a duration and no end: the end follows from the two.
          <span>
            <At iso={new Date(Date.parse(span.startedAt) + span.durationMs).toISOString()} model={model} />{' '}
            <span className="text-muted">(from start and duration)</span>
          </span>
        ) : (
          <span className="text-muted">{iv.open ? 'not recorded' : '—'}</span>
        )}
      </Field>
      <Field label="Duration">
        <span className="tabular">{duration}</span>
      </Field>
      {/* A model call shows its model, tokens and cost above its conversation. */}
      {!modelCall && spanModel !== null && (
        <Field label="Model">
          <span className="font-mono text-xs break-all" data-testid="span-model">
            {spanModel}
          </span>
        </Field>
      )}
      <Field label="Tokens">
        <span className="tabular">{formatTokens(span.tokenCount)}</span>
      </Field>
      {!modelCall && (
        <Field label="Cost">
          <span className="tabular" data-testid="span-cost">
            {formatCost(span.costUsd)}
            {estimated && (
              <span className="ml-1.5 text-xs text-muted" title={estimated}>
                estimated{span.pricedModel ? ` (${span.pricedModel})` : ''}
              </span>
            )}
          </span>
        </Field>
      )}
      <Field label="Contains">
        {plural(childSpans, 'child span')}, {plural(decisions.length, 'decision')}, {plural(events.length, 'event')}
      </Field>
    </Fields>
  );
  const lists = (
    <>
      <Section title="Scores">
        <ScoreBar target={{ traceId: model.trace.id, spanId: span.id }} scores={scoresOf(span)} label={`span ${span.name}`} />
      </Section>
      <div className="text-sm">
        <AddToDataset traceId={model.trace.id} spanId={span.id} decisions={decisions} what="span" />
      </div>
      {decisions.length > 0 && (
        <Section title={`Decisions made here (${decisions.length})`}>
          <ul className="space-y-1">
            {decisions.slice(0, 50).map((d) => (
              <li key={d.id}>
                <DecisionLink decision={d} onGo={onGo} />
              </li>
            ))}
          </ul>
        </Section>
      )}
      {events.length > 0 && (
        <Section title={`Events (${events.length})`}>
          <ul className="space-y-1">
            {events.slice(0, 50).map((e) => (
              <li key={e.id}>
                <button
                  type="button"
                  onClick={() => onGo({ kind: 'event', id: e.id })}
                  className="flex w-full items-center gap-2 rounded px-1 py-0.5 text-left hover:bg-surface-2"
                >
                  <EventTypeBadge type={e.type} />
                  <span className="truncate">{e.name}</span>
                  <span className="ml-auto shrink-0 text-xs text-muted tabular">
                    {formatOffset((toMillis(e.timestamp) ?? model.window.start) - model.window.start)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
  return (
    <>
      <PanelHeader
        onClose={onClose}
        onReveal={() => onReveal({ kind: 'span', id: span.id })}
        title={
          <h2 className="text-base font-semibold break-words" data-testid="panel-span-name">
            {span.name}
          </h2>
        }
      >
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <SpanTypeBadge type={span.type} />
          <span className="text-xs whitespace-nowrap text-muted">{SPAN_TYPE_META[span.type].label}</span>
          <StatusBadge status={span.status} />
        </div>
      </PanelHeader>
      <div className={modelCall ? 'space-y-4 p-4' : 'space-y-5 p-4'}>
        {/* The sheet covers the timeline's own button below lg: the step is one tap from here. */}
        <button
          type="button"
          onClick={() => onZoomTo(span.id)}
          className="h-7 shrink-0 rounded-md border border-border-strong px-2 text-xs hover:bg-surface-2 lg:hidden"
          title="Close the details and fit the timeline to this span"
        >
          Zoom to span
        </button>
        {span.statusMessage && (
          <div
            role={span.status === 'ERROR' ? 'alert' : undefined}
            className={`rounded-md border px-3 py-2 text-sm ${
              span.status === 'ERROR'
                ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100'
                : 'border-border bg-surface'
            }`}
          >
            <LongText text={span.statusMessage} limit={400} />
          </div>
        )}
        {modelCall ? (
          // A model call: its figures, then the conversation; the ids and instants after it, folded.
          <>
            <ModelCallFigures traceId={model.trace.id} span={span} duration={duration} />
            <SpanPayloads traceId={model.trace.id} summary={span} />
            {lists}
            <details className="group rounded-md border border-border" data-testid="span-fields">
              <summary className="cursor-pointer px-3 py-1.5 text-xs font-semibold tracking-wide text-muted uppercase marker:text-muted">
                Span fields: ids, parent, start and end
              </summary>
              <div className="border-t border-border p-3">{fields}</div>
            </details>
          </>
        ) : (
          <>
            {fields}
            {lists}
            <SpanPayloads traceId={model.trace.id} summary={span} />
          </>
        )}
      </div>
    </>
  );
}

function DecisionDetails({
  decision,
  model,
  onGo,
  onClose,
  onReveal,
}: {
  decision: DecisionPointRecord;
  model: TraceModel;
  onGo: Go;
  onClose: () => void;
  onReveal: Go;
}) {
  const chosenLabel = optionLabel(decision.chosen);
  return (
    <>
      <PanelHeader onClose={onClose} onReveal={() => onReveal({ kind: 'decision', id: decision.id })}>
        <div className="flex items-center gap-2 text-xs text-muted">
          <DecisionGlyph /> Decision point
          {decision.inferred && <InferredBadge />}
        </div>
        <h2 className="mt-1 text-base font-semibold">{DECISION_LABEL[decision.type]}</h2>
      </PanelHeader>
      <div className="space-y-5 p-4">
        <Section title="Reasoning">
          {decision.reasoning ? (
            <LongText text={decision.reasoning} limit={800} className="border-l-2 border-fuchsia-400 pl-3 dark:border-fuchsia-500" />
          ) : (
            <p className="text-muted italic">No reasoning recorded.</p>
          )}
        </Section>
        <ChosenVsAlternatives decision={decision} compact />
        <DecisionOutcome decision={decision} model={model} onOpen={onGo} />
        <Section title="Scores">
          <ScoreBar target={{ traceId: model.trace.id, decisionPointId: decision.id }} scores={scoresOf(decision)} label="this decision" />
        </Section>
        <Fields>
          <Field label="Decision ID">
            <IdValue id={decision.id} kind="decision" />
          </Field>
          <Field label="Made in">
            <SpanLink spanId={decision.parentSpanId} model={model} onGo={onGo} />
          </Field>
          <Field label="At">
            <At iso={decision.timestamp} model={model} />
          </Field>
          <Field label="Took">
            <span className="tabular">{formatDuration(decision.durationMs)}</span>
          </Field>
          <Field label="Cost">
            <span className="tabular">{formatCost(decision.costUsd)}</span>
          </Field>
        </Fields>
        <JsonViewer label="Chosen" value={decision.chosen} tone="chosen" openDepth={2} />
        <Section title={`Alternatives (${decision.alternatives.length})`}>
          {decision.alternatives.length === 0 && <p className="text-muted">None recorded.</p>}
          {decision.alternatives.slice(0, 100).map((alt, i) => (
            <JsonViewer
              key={i}
              label={`Alternative ${i + 1}${optionLabel(alt) === chosenLabel ? ' (the chosen option, listed by the client)' : ''}`}
              value={alt}
              tone="muted"
            />
          ))}
          {decision.alternatives.length > 100 && (
            <JsonViewer label="All alternatives" value={decision.alternatives} openDepth={0} />
          )}
        </Section>
        <JsonViewer label="Context snapshot" value={decision.contextSnapshot} />
      </div>
    </>
  );
}

function EventDetails({ event, model, onGo, onClose, onReveal }: { event: EventRecord; model: TraceModel; onGo: Go; onClose: () => void; onReveal: Go }) {
  const onSpan = event.spanId && model.tree.spanById.has(event.spanId);
  return (
    <>
      <PanelHeader onClose={onClose} onReveal={onSpan ? () => onReveal({ kind: 'span', id: event.spanId! }) : undefined}>
        <EventTypeBadge type={event.type} />
        <h2 className="mt-1 text-base font-semibold break-words">{event.name}</h2>
      </PanelHeader>
      <div className="space-y-5 p-4">
        <Fields>
          <Field label="Event ID">
            <IdValue id={event.id} kind="event" />
          </Field>
          <Field label="Span">
            <SpanLink spanId={event.spanId} model={model} onGo={onGo} />
          </Field>
          <Field label="At">
            <At iso={event.timestamp} model={model} />
          </Field>
        </Fields>
        <JsonViewer label="Metadata" value={event.metadata} openDepth={2} />
      </div>
    </>
  );
}

/** Top `k` of `items` by `score`, in one pass (k is small). */
function topK<T>(items: readonly T[], k: number, score: (item: T) => number | null): Array<[T, number]> {
  const top: Array<[T, number]> = [];
  for (const item of items) {
    const s = score(item);
    if (s === null || !(s > 0)) continue;
    if (top.length === k && s <= top[k - 1][1]) continue;
    let i = top.length < k ? top.length : k - 1;
    top[i] = [item, s];
    while (i > 0 && top[i - 1][1] < top[i][1]) {
      [top[i - 1], top[i]] = [top[i], top[i - 1]];
      i--;
    }
  }
  return top;
}

function Overview({ model, onGo }: { model: TraceModel; onGo: Go }) {
  const spans = model.trace.spans;
  const errors = model.errorKeys.slice(0, 8).map((k) => model.tree.byKey.get(k) as SpanNode);
  const slowest = topK(spans, 5, (s) => {
    const iv = spanInterval(s, model.window);
    return iv.open ? null : iv.end - iv.start;
  });
  const costliest = topK(spans, 5, (s) => s.costUsd);
  const item = (span: SpanSummary, right: string) => (
    <li key={span.id}>
      <button
        type="button"
        onClick={() => onGo({ kind: 'span', id: span.id })}
        className="flex w-full items-center gap-2 rounded px-1 py-0.5 text-left hover:bg-surface-2"
      >
        <SpanTypeBadge type={span.type} />
        <span className="truncate">{span.name}</span>
        <span className="ml-auto shrink-0 text-xs text-muted tabular">{right}</span>
      </button>
    </li>
  );
  return (
    <div className="space-y-6 p-4">
      <p className="text-sm text-muted">
        Select a span, a decision or an event to see all of its fields here. Use the arrow keys in the timeline and
        Enter to open one.
      </p>
      {errors.length > 0 && (
        <Section title={`Failed spans (${model.errorKeys.length})`}>
          <ul className="space-y-1">
            {errors.map((n) => (
              <li key={n.key}>
                <button
                  type="button"
                  onClick={() => onGo({ kind: 'span', id: n.span.id })}
                  className="w-full rounded px-1 py-0.5 text-left hover:bg-red-50 dark:hover:bg-red-950/50"
                >
                  <span className="font-medium text-red-800 dark:text-red-200">{n.span.name}</span>
                  {n.span.statusMessage && <span className="block truncate text-xs text-muted">{n.span.statusMessage}</span>}
                </button>
              </li>
            ))}
          </ul>
        </Section>
      )}
      <DecisionOverview model={model} onGo={onGo} />
      {slowest.length > 0 && (
        <Section title="Slowest spans">
          <ul className="space-y-1">{slowest.map(([s, ms]) => item(s, formatDuration(ms)))}</ul>
        </Section>
      )}
      {costliest.length > 0 && (
        <Section title="Most expensive spans">
          <ul className="space-y-1">{costliest.map(([s, usd]) => item(s, formatCost(usd)))}</ul>
        </Section>
      )}
    </div>
  );
}

export function DetailsPanel({
  model,
  selection,
  onGo,
  onClose,
  onReveal,
  onZoomTo,
  sheetHidden = false,
}: {
  model: TraceModel;
  selection: Selection | null;
  onGo: Go;
  onClose: () => void;
  onReveal: Go;
  /** Fits the timeline to a span (and, below lg, puts the sheet away to show it). */
  onZoomTo: (spanId: string) => void;
  /** Below lg: the sheet is put away (the timeline shown) while its item stays selected. */
  sheetHidden?: boolean;
}) {
  const [wide, toggleWide] = useWide();
  let content: ReactNode;
  if (!selection) {
    content = <Overview model={model} onGo={onGo} />;
  } else if (selection.kind === 'span') {
    const node = model.tree.byKey.get(spanKey(selection.id));
    content =
      node && node.kind === 'span' ? (
        <SpanDetails key={node.key} node={node} model={model} onGo={onGo} onClose={onClose} onReveal={onReveal} onZoomTo={onZoomTo} />
      ) : null;
  } else if (selection.kind === 'decision') {
    const d = model.decisionById.get(selection.id);
    content = d ? <DecisionDetails key={d.id} decision={d} model={model} onGo={onGo} onClose={onClose} onReveal={onReveal} /> : null;
  } else {
    const e = model.eventById.get(selection.id);
    content = e ? <EventDetails key={e.id} event={e} model={model} onGo={onGo} onClose={onClose} onReveal={onReveal} /> : null;
  }
  if (content === null) {
    content = (
      <>
        <PanelHeader onClose={onClose}>
          <h2 className="text-base font-semibold">Not in this trace</h2>
        </PanelHeader>
        <p className="p-4 text-muted">
          This trace has no {selection!.kind} with the id <code className="font-mono">{selection!.id}</code>.
        </p>
      </>
    );
  }
  const widened = wide && selection !== null;
  return (
    <aside
      aria-label="Details"
      data-testid="details-panel"
      data-wide={widened || undefined}
      data-open={(selection !== null && !sheetHidden) || undefined}
      // Below lg there is no room beside the timeline: an opened item is a full-screen sheet
      // (closed by its button or Esc), and the overview waits until something is opened.
      className={`min-h-0 overflow-auto rounded-md border border-border bg-bg ${
        selection === null || sheetHidden ? 'max-lg:hidden' : 'max-lg:fixed max-lg:inset-0 max-lg:z-40 max-lg:rounded-none max-lg:border-0'
      } ${widened ? 'fixed inset-x-4 top-14 bottom-4 z-30 shadow-2xl xl:inset-x-8' : ''}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && selection) {
          e.stopPropagation();
          // Full width covers the timeline: Escape first goes back beside it.
          if (widened) toggleWide();
          else onClose();
        }
      }}
    >
      <WideToggle.Provider value={{ wide: widened, toggle: toggleWide }}>{content}</WideToggle.Provider>
    </aside>
  );
}
