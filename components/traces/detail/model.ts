// Everything the detail view derives from one trace, computed once per version of the
// trace (a RUNNING trace is refetched every few seconds). Pure and O(n).
import { buildTraceTree, spanKey, decisionKey, type TraceTree } from '@/lib/features/traces/shared';
import { axisTicks, computeWindow, spanEnd, type TimeWindow } from '@/lib/features/traces/shared';
import { focusWindow, type FocusWindow } from '@/lib/features/traces/shared';
import type { DecisionPointRecord, DecisionType, EventRecord, SpanSummary, TraceOutline } from '@/lib/features/traces/shared';
import { toMillis } from '@/lib/core/format';
import { indexToolSpans, type ToolSpanIndex } from '@/lib/features/traces/shared';

export type Selection = { kind: 'span' | 'decision' | 'event'; id: string };

export interface Total {
  value: number | null;
  /** Where the number comes from: the trace's own field, or derived (and so marked). */
  source: 'trace' | 'spans' | 'timestamps' | 'none';
}

export interface TraceModel {
  trace: TraceOutline;
  tree: TraceTree;
  window: TimeWindow;
  /** The axis's default range: the window less outliers (a late feedback event), until "show all". */
  focus: FocusWindow;
  ticks: number[];
  eventsBySpan: Map<string, EventRecord[]>;
  decisionsBySpan: Map<string, DecisionPointRecord[]>;
  eventById: Map<string, EventRecord>;
  decisionById: Map<string, DecisionPointRecord>;
  /** Keys of ERROR spans, in time order: "next error" walks these. */
  errorKeys: string[];
  decisionTypes: Array<[DecisionType, number]>;
  totals: { cost: Total; tokens: Total; duration: Total };
  /** Tool spans by call id and by parent: what a tool selection led to (toolSpanOf). */
  toolSpans: ToolSpanIndex<SpanSummary>;
}

function group<T>(items: readonly T[], keyOf: (item: T) => string | null): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === null) continue;
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}

/** The trace's own totals, or sums over its spans when the trace has none. */
export function traceTotals(trace: TraceOutline, window: TimeWindow): TraceModel['totals'] {
  const sum = (pick: (s: SpanSummary) => number | null): Total => {
    let total = 0;
    let seen = false;
    for (const s of trace.spans) {
      const v = pick(s);
      if (typeof v === 'number' && Number.isFinite(v)) {
        total += v;
        seen = true;
      }
    }
    return seen ? { value: total, source: 'spans' } : { value: null, source: 'none' };
  };
  const cost: Total = trace.totalCost !== null ? { value: trace.totalCost, source: 'trace' } : sum((s) => s.costUsd);
  const tokens: Total =
    trace.totalTokens !== null ? { value: trace.totalTokens, source: 'trace' } : sum((s) => s.tokenCount);

  let duration: Total;
  const start = toMillis(trace.startedAt);
  const end = toMillis(trace.endedAt);
  if (trace.totalDuration !== null) duration = { value: trace.totalDuration, source: 'trace' };
  else if (start !== null && end !== null) duration = { value: end - start, source: 'timestamps' };
  else if (trace.spans.some((s) => spanEnd(s) !== null)) duration = { value: window.end - window.start, source: 'spans' };
  else duration = { value: null, source: 'none' };
  return { cost, tokens, duration };
}

/** Every time the timeline shows: span starts and ends, decision points, events. */
function instantsOf(trace: TraceOutline): number[] {
  const out: number[] = [];
  const add = (iso: string | null) => {
    const t = toMillis(iso);
    if (t !== null) out.push(t);
  };
  for (const s of trace.spans) {
    add(s.startedAt);
    const end = spanEnd(s);
    if (end !== null) out.push(end);
  }
  for (const d of trace.decisionPoints) add(d.timestamp);
  for (const e of trace.events) add(e.timestamp);
  return out;
}

/** Each ended span's [start, end]: the axis never cuts a span from itself. */
function spanRangesOf(trace: TraceOutline): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const s of trace.spans) {
    const start = toMillis(s.startedAt);
    const end = spanEnd(s);
    if (start !== null && end !== null) out.push([start, end]);
  }
  return out;
}

export function buildModel(trace: TraceOutline): TraceModel {
  const tree = buildTraceTree(trace.spans, trace.decisionPoints);
  const window = computeWindow(trace);
  const counts = new Map<DecisionType, number>();
  for (const d of trace.decisionPoints) counts.set(d.type, (counts.get(d.type) ?? 0) + 1);
  return {
    trace,
    tree,
    window,
    focus: focusWindow(instantsOf(trace), window, spanRangesOf(trace)),
    ticks: axisTicks(window.duration, 5),
    eventsBySpan: group(trace.events, (e) => e.spanId),
    decisionsBySpan: group(trace.decisionPoints, (d) => d.parentSpanId),
    eventById: new Map(trace.events.map((e) => [e.id, e])),
    decisionById: new Map(trace.decisionPoints.map((d) => [d.id, d])),
    errorKeys: trace.spans.filter((s) => s.status === 'ERROR').map((s) => spanKey(s.id)),
    decisionTypes: [...counts.entries()].sort((a, b) => b[1] - a[1]),
    totals: traceTotals(trace, window),
    toolSpans: indexToolSpans(trace.spans),
  };
}

/** The tree row a selection lives on: an event shows on its span's row. */
export function selectionKey(model: TraceModel, selection: Selection | null): string | null {
  if (!selection) return null;
  if (selection.kind === 'span') return spanKey(selection.id);
  if (selection.kind === 'decision') return decisionKey(selection.id);
  const event = model.eventById.get(selection.id);
  return event?.spanId && model.tree.spanById.has(event.spanId) ? spanKey(event.spanId) : null;
}

/** Reads the selection from the page's URL (`?span=…`, `?decision=…`, `?event=…`). */
export function readSelection(query: Pick<URLSearchParams, 'get'>): Selection | null {
  for (const kind of ['span', 'decision', 'event'] as const) {
    const id = query.get(kind);
    if (id) return { kind, id };
  }
  return null;
}

export type DetailTab = 'timeline' | 'decisions' | 'path' | 'events';

export function readTab(query: Pick<URLSearchParams, 'get'>): DetailTab {
  const tab = query.get('tab');
  return tab === 'decisions' || tab === 'path' || tab === 'events' ? tab : 'timeline';
}

/** The detail URL's query for a tab and a selection, leaving defaults out. */
export function detailQuery(tab: DetailTab, selection: Selection | null): string {
  const q = new URLSearchParams();
  if (tab !== 'timeline') q.set('tab', tab);
  if (selection) q.set(selection.kind, selection.id);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The address of this trace page with `selection` open, on the tab shown now (for "Copy link"; browser only). */
export function detailLink(selection: Selection): string {
  const tab = readTab(new URLSearchParams(window.location.search));
  return `${window.location.origin}${window.location.pathname}${detailQuery(tab, selection)}`;
}
