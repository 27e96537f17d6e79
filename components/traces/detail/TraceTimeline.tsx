'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useSearchParams } from 'next/navigation';
import { memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent, type PointerEvent } from 'react';
import { formatCost, formatDuration, formatOffset, formatTick, formatTickOffset, plural, toMillis } from '@/lib/core/format';
import { costSourceNote, summaryModelOf } from '@/lib/features/traces/shared';
import { ancestorKeys, collapsibleKeys, filteredKeys, flattenTree, spanKey, type TreeRow } from '@/lib/features/traces/shared';
import { barLayout, spanInterval, toPercent, type TimeWindow } from '@/lib/features/traces/shared';
import { panBy, rangeAround, viewTicks, viewWindow, zoomAt, type ViewRange } from '@/lib/features/traces/shared';
import type { DecisionPointRecord, EventRecord, SpanSummary } from '@/lib/features/traces/shared';
import {
  DECISION_LABEL,
  DecisionGlyph,
  EVENT_META,
  SPAN_TYPE_META,
  SpanTypeBadge,
  StatusIcon,
} from '@/components/ui/badges';
import { summarizeJson } from '@/components/json/json';
import type { Selection, TraceModel } from './model';
import { SpanFilters, readSpanFilters, spanFilterActive, spanFilterAccepts } from './SpanFilters';
import { Minimap, RangeDrag } from './TimelineNavigation';
import { clampNameWidth, NAME_WIDTH_KEY, parseNameWidth, stickyPath } from './tree-view';
import { isTyping } from './useEscapeToClose';

const ROW_HEIGHT = 30;
const TREE_BUTTON = 'h-6 shrink-0 rounded border border-border-strong bg-bg px-1.5 text-[11px] text-fg hover:bg-surface-2';
const HEADER_HEIGHT = 72;
const INDENT_PX = 12;
// Beyond this many levels the indent stops growing and the depth is written instead:
// a 10,000-deep chain must not push its names out of the column.
const MAX_INDENT_LEVELS = 10;
/** One wheel notch (deltaY 100) zooms by about this factor. */
const WHEEL_ZOOM_PER_100 = 1.25;
/** The height of the path of ancestors kept at the top of the tree while scrolling. */
const STICKY_PATH_HEIGHT = 24;
/** Arrow keys move the name column's edge this far; with Shift, four times as far. */
const NAME_KEY_STEP_PX = 16;

// The name column's width, dragged by the reader: remembered in localStorage for every trace.
const nameWidthListeners = new Set<() => void>();

function subscribeNameWidth(listener: () => void): () => void {
  nameWidthListeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    nameWidthListeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function readNameWidth(): number | null {
  try {
    return parseNameWidth(window.localStorage.getItem(NAME_WIDTH_KEY));
  } catch {
    return null;
  }
}

function storeNameWidth(px: number | null): void {
  try {
    if (px === null) window.localStorage.removeItem(NAME_WIDTH_KEY);
    else window.localStorage.setItem(NAME_WIDTH_KEY, String(px));
  } catch {
    // Storage refused (private mode): the width is not remembered.
  }
  for (const l of nameWidthListeners) l();
}

/**
 * The name column's right edge: drag it, or focus it and use the arrow keys; a double-click
 * (or Home) goes back to the default width.
 */
function NameColumnHandle({ treeRef }: { treeRef: React.RefObject<HTMLDivElement | null> }) {
  const dragging = useRef(false);
  const [now, setNow] = useState<number | null>(null);
  const cellWidth = (el: HTMLElement) => el.parentElement?.getBoundingClientRect().width ?? 0;
  const set = (px: number) => {
    const tree = treeRef.current;
    if (!tree) return;
    const width = clampNameWidth(px, tree.clientWidth);
    setNow(width);
    storeNameWidth(width);
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    dragging.current = true;
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const tree = treeRef.current;
    if (!dragging.current || !tree) return;
    set(e.clientX - tree.getBoundingClientRect().left);
  };
  const onPointerUp = () => {
    dragging.current = false;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? NAME_KEY_STEP_PX * 4 : NAME_KEY_STEP_PX;
    const width = cellWidth(e.currentTarget);
    if (e.key === 'ArrowRight') set(width + step);
    else if (e.key === 'ArrowLeft') set(width - step);
    else if (e.key === 'Home') {
      setNow(null);
      storeNameWidth(null);
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the span name column"
      aria-valuenow={now ?? undefined}
      aria-valuetext={now === null ? 'Default width' : `Name column ${now} pixels wide`}
      tabIndex={0}
      title="Drag to widen the names (double-click: default width)"
      data-testid="name-column-handle"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onDoubleClick={() => {
        setNow(null);
        storeNameWidth(null);
      }}
      onKeyDown={onKeyDown}
      className="group absolute top-0 -right-1.5 bottom-0 z-10 flex w-3 cursor-col-resize touch-none justify-center focus-visible:outline-none"
    >
      <span className="h-full w-px bg-border group-hover:w-0.5 group-hover:bg-accent group-focus-visible:w-1 group-focus-visible:bg-accent" />
    </div>
  );
}

export interface FocusRequest {
  key: string;
  /** Changes on every request, so asking twice for the same row scrolls twice. */
  nonce: number;
}

function rowDomId(index: number) {
  return `tree-row-${index}`;
}

type Tick = { at: number; offset: number };

function Ticks({ ticks, window }: { ticks: Tick[]; window: TimeWindow }) {
  return (
    <>
      {ticks.map((t) => (
        <span key={t.offset} aria-hidden="true" className="absolute top-0 bottom-0 w-px bg-grid" style={{ left: `${toPercent(window, t.at)}%` }} />
      ))}
    </>
  );
}

/** Whether the instant lies on the visible range (markers off it are not drawn). */
function inView(window: TimeWindow, t: number): boolean {
  return t >= window.start && t <= window.end;
}

function EventMarker({
  event,
  window,
  origin,
  onSelect,
  selected,
}: {
  event: EventRecord;
  window: TimeWindow;
  /** The trace's start: offsets are written from it. */
  origin: number;
  onSelect: (s: Selection) => void;
  selected: boolean;
}) {
  const t = toMillis(event.timestamp);
  if (t === null || !inView(window, t)) return null;
  const meta = EVENT_META[event.type];
  return (
    <span
      data-testid="event-marker"
      title={`${meta.label}: ${event.name} at ${formatOffset(t - origin)}`}
      onClick={(e) => {
        e.stopPropagation();
        onSelect({ kind: 'event', id: event.id });
      }}
      className={`absolute top-1/2 z-10 h-2.5 w-2.5 -translate-x-1/2 -translate-y-1/2 cursor-pointer rounded-full ring-2 ${meta.marker} ${
        selected ? 'ring-fg' : 'ring-bg'
      } hover:scale-125`}
      style={{ left: `${toPercent(window, t)}%` }}
    />
  );
}

/** The whole decision in one hover: what was taken, what was not, and why. */
function decisionTooltip(d: DecisionPointRecord): string {
  const alternatives = d.alternatives.map((a) => summarizeJson(a, 40)).join(', ');
  const lines = [`${DECISION_LABEL[d.type]}${d.inferred ? ' (inferred)' : ''}: chose ${summarizeJson(d.chosen, 60)}`];
  if (alternatives) lines.push(`over ${alternatives}`);
  if (d.reasoning) lines.push(d.reasoning.length > 300 ? `${d.reasoning.slice(0, 300)}…` : d.reasoning);
  return lines.join('\n');
}

interface RowProps {
  row: TreeRow;
  index: number;
  active: boolean;
  selected: boolean;
  selection: Selection | null;
  model: TraceModel;
  onToggle: (key: string) => void;
  onActivate: (key: string, select: Selection | null) => void;
  onSelect: (s: Selection) => void;
  /** The row holds an in-trace search match. */
  matched: boolean;
  /** The visible time range (zoomed, or the whole trace less outliers). */
  view: TimeWindow;
  ticks: Tick[];
  onZoomTo: (key: string) => void;
}

const Row = memo(function Row({ row, index, active, selected, selection, model, onToggle, onActivate, onSelect, matched, view, ticks, onZoomTo }: RowProps) {
  const { node, depth } = row;
  const window = view;
  const origin = model.window.start;
  const indentLevels = Math.min(depth, MAX_INDENT_LEVELS);
  const isSpan = node.kind === 'span';
  const error = isSpan && node.span.status === 'ERROR';

  let label;
  let duration = '';
  let timeline;
  let ariaLabel: string;

  if (node.kind === 'span') {
    const span = node.span;
    const meta = SPAN_TYPE_META[span.type];
    const iv = spanInterval(span, model.window);
    const bar = barLayout(window, iv.start, iv.end);
    const barShown = iv.end >= window.start && iv.start <= window.end;
    const ms = iv.open ? null : iv.end - iv.start;
    duration = iv.open ? (span.status === 'RUNNING' ? 'running' : '—') : formatDuration(ms);
    const events = model.eventsBySpan.get(span.id) ?? [];
    ariaLabel = `${meta.label} ${span.name}, ${span.status.toLowerCase()}, ${duration}`;
    label = (
      <>
        <SpanTypeBadge type={span.type} />
        {/* A floor of width: model, cost and badges give way before the name is cut to "ch…". */}
        <span className={`min-w-[3.5rem] shrink-[0.3] truncate sm:min-w-[5rem] ${error ? 'font-medium text-red-800 dark:text-red-200' : ''}`} title={span.name}>
          {span.name}
        </span>
        {span.type === 'LLM_CALL' && <ModelAndCost span={span} />}
        {span.status !== 'COMPLETED' && (
          <span className="inline-flex shrink-0 items-center gap-1 text-[11px] font-medium">
            <StatusIcon status={span.status} />
            {/* The word where there is room; the row's accessible name always says it. */}
            <span className={`hidden xl:inline ${span.status === 'ERROR' ? 'text-red-800 dark:text-red-200' : 'text-blue-800 dark:text-blue-200'}`}>
              {span.status === 'ERROR' ? 'Error' : 'Running'}
            </span>
          </span>
        )}
        {node.orphan && (
          <span className="shrink-0 rounded bg-amber-100 px-1 text-[10px] font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100" title={`Parent span “${span.parentSpanId}” is not in this trace`}>
            orphan
          </span>
        )}
        {node.cycle && (
          <span className="shrink-0 rounded bg-amber-100 px-1 text-[10px] font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100" title="Its parent chain loops back to it; shown at the root">
            cycle
          </span>
        )}
        {row.hasChildren && !row.expanded && (
          <span className="shrink-0 text-[11px] text-muted">
            +{node.descendantCount}
            {node.errorBelow && (
              <span className="ml-1 inline-block h-1.5 w-1.5 rounded-full bg-red-600 align-middle dark:bg-red-400" title="Errors inside" />
            )}
          </span>
        )}
      </>
    );
    timeline = (
      <>
        {barShown && <span
          className={`absolute top-1/2 h-3 -translate-y-1/2 rounded-sm ${error ? 'bg-red-600 ring-2 ring-red-300 dark:bg-red-400 dark:ring-red-800' : meta.bar} ${
            iv.open ? 'bg-[length:8px_8px] [background-image:linear-gradient(45deg,rgba(255,255,255,.35)_25%,transparent_25%,transparent_50%,rgba(255,255,255,.35)_50%,rgba(255,255,255,.35)_75%,transparent_75%)]' : ''
          }`}
          style={{ left: `${bar.left}%`, width: `max(2px, ${bar.width}%)` }}
          title={`${span.name}: ${formatOffset(iv.start - origin)}, ${duration}`}
        />}
        {events.map((e) => (
          <EventMarker
            key={e.id}
            event={e}
            window={window}
            origin={origin}
            onSelect={onSelect}
            selected={selection?.kind === 'event' && selection.id === e.id}
          />
        ))}
      </>
    );
  } else {
    const d = node.decision;
    const t = toMillis(d.timestamp) ?? origin;
    const left = toPercent(window, t);
    const shown = inView(window, t);
    const width = d.durationMs && d.durationMs > 0 ? barLayout(window, t, t + d.durationMs).width : 0;
    duration = d.durationMs !== null ? formatDuration(d.durationMs) : '';
    const chosen = summarizeJson(d.chosen, 60);
    ariaLabel = `${d.inferred ? 'Inferred decision' : 'Decision'}, ${DECISION_LABEL[d.type]}: chose ${chosen} over ${plural(d.alternatives.length, 'alternative')}`;
    // The option taken leads: it is what the reader scans for; the type follows.
    label = (
      <>
        <DecisionGlyph />
        {/* The chosen option keeps its room: the type and counts give way (and hide on a phone). */}
        <span className="min-w-[3rem] shrink-[0.25] truncate font-medium" data-testid="row-chosen">
          {chosen}
        </span>
        <span className="min-w-0 truncate text-[11px] text-fuchsia-800 max-sm:hidden dark:text-fuchsia-200">
          {DECISION_LABEL[d.type].toLowerCase()}
          {d.alternatives.length > 0 && <span className="text-muted"> · over {d.alternatives.length}</span>}
          {d.inferred && <span className="text-muted"> · inferred</span>}
        </span>
        {node.orphan && (
          <span className="shrink-0 rounded bg-amber-100 px-1 text-[10px] font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100" title={`Span “${d.parentSpanId}” is not in this trace`}>
            orphan
          </span>
        )}
      </>
    );
    timeline = shown && (
      <>
        {width > 0 && (
          <span
            className="absolute top-1/2 h-1 -translate-y-1/2 rounded-full bg-fuchsia-600/60 dark:bg-fuchsia-400/60"
            style={{ left: `${left}%`, width: `${width}%` }}
          />
        )}
        <span
          className="absolute top-1/2 -translate-x-1/2 -translate-y-1/2"
          style={{ left: `${left}%` }}
          title={`${DECISION_LABEL[d.type]} at ${formatOffset(t - origin)}: ${chosen}`}
        >
          <DecisionGlyph size={14} />
        </span>
      </>
    );
  }

  return (
    <div
      id={rowDomId(index)}
      role="treeitem"
      aria-level={depth + 1}
      aria-setsize={row.setSize}
      aria-posinset={row.posInSet}
      aria-expanded={row.hasChildren ? row.expanded : undefined}
      aria-selected={selected}
      aria-label={ariaLabel}
      data-active={active || undefined}
      data-key={node.key}
      data-match={matched || undefined}
      onClick={() =>
        onActivate(
          node.key,
          node.kind === 'span' ? { kind: 'span', id: node.span.id } : { kind: 'decision', id: node.decision.id },
        )
      }
      onDoubleClick={() => onZoomTo(node.key)}
      className={`grid h-full cursor-pointer grid-cols-[var(--label-w)_4.5rem_minmax(0,1fr)] items-center text-[13px] ${
        selected ? 'bg-selected' : error ? 'bg-red-50 hover:bg-red-100 dark:bg-red-950/40 dark:hover:bg-red-950/70' : 'hover:bg-surface'
      } ${active ? 'tree-active' : ''} ${matched ? 'shadow-[inset_3px_0_0] shadow-yellow-500' : ''}`}
    >
      <div
        className="flex min-w-0 items-center gap-1.5 overflow-hidden pr-2"
        style={{ paddingLeft: 6 + indentLevels * INDENT_PX }}
        title={node.kind === 'decision' ? decisionTooltip(node.decision) : undefined}
      >
        {row.hasChildren ? (
          <button
            type="button"
            tabIndex={-1}
            aria-hidden="true"
            onClick={(e) => {
              e.stopPropagation();
              onToggle(node.key);
            }}
            className="flex h-5 w-5 shrink-0 items-center justify-center rounded text-muted hover:bg-surface-2 hover:text-fg"
          >
            <span className={`inline-block transition-transform ${row.expanded ? 'rotate-90' : ''}`}>▸</span>
          </button>
        ) : (
          <span className="w-5 shrink-0" />
        )}
        {depth > MAX_INDENT_LEVELS && (
          <span className="shrink-0 rounded bg-surface-2 px-1 text-[10px] text-muted tabular" title={`Depth ${depth}`}>
            L{depth}
          </span>
        )}
        {label}
      </div>
      <div className="truncate pr-2 pl-1 text-right text-xs text-muted tabular">{duration}</div>
      <div className="relative h-full overflow-hidden" title={isSpan ? 'Double-click to zoom to this span' : undefined}>
        <Ticks ticks={ticks} window={window} />
        {timeline}
      </div>
    </div>
  );
});

/** The distance between the axis's ticks: how precise its labels must be. */
function tickStep(ticks: Tick[], view: TimeWindow): number {
  return ticks.length > 1 ? ticks[1].offset - ticks[0].offset : view.end - view.start;
}

function Axis({
  model,
  onSelect,
  selection,
  view,
  ticks,
  onView,
  timelineRef,
  treeRef,
  onExpandAll,
  onCollapseAll,
}: {
  model: TraceModel;
  onSelect: (s: Selection) => void;
  selection: Selection | null;
  view: TimeWindow;
  ticks: Tick[];
  onView: (range: ViewRange) => void;
  timelineRef: React.RefObject<HTMLDivElement | null>;
  treeRef: React.RefObject<HTMLDivElement | null>;
  onExpandAll: () => void;
  onCollapseAll: () => void;
}) {
  const { trace } = model;
  const origin = model.window.start;
  // An empty trace has no time span worth an axis.
  const empty = trace.spans.length + trace.decisionPoints.length + trace.events.length === 0;
  const shownTicks = empty ? [] : ticks;
  const step = tickStep(ticks, view);
  return (
    <div
      className="sticky top-0 z-20 grid grid-cols-[var(--label-w)_4.5rem_minmax(0,1fr)] border-b border-border bg-bg text-xs text-muted"
      style={{ height: HEADER_HEIGHT }}
    >
      <div className="relative flex flex-col items-start justify-between pt-1.5 pb-1 pl-2">
        {/* The tree's own controls, in the room above the column's name. */}
        {/* Their keys are their own, not the tree's (Enter there would open the active row). */}
        <span className="flex gap-1" onKeyDown={(e) => e.stopPropagation()}>
          <button type="button" onClick={onExpandAll} className={TREE_BUTTON} title="Open every node (*)">
            Expand all
          </button>
          <button type="button" onClick={onCollapseAll} className={TREE_BUTTON} title="Close every node">
            Collapse all
          </button>
        </span>
        <span className="font-medium">Span</span>
        <NameColumnHandle treeRef={treeRef} />
      </div>
      <div className="flex items-end justify-end pr-2 pb-1 font-medium">Duration</div>
      <div className="relative" ref={timelineRef}>
        {!empty && <Minimap model={model} view={view} onView={onView} />}
        {/* tick labels; dragging across them zooms to the range */}
        <RangeDrag view={view} onView={onView} className="relative h-6">
          {shownTicks.map((t, i) => {
            const left = toPercent(view, t.at);
            const last = i === shownTicks.length - 1 && left > 90;
            return (
              <span
                key={t.offset}
                // A phone's timeline column has room for its first and last labels only.
                className={`pointer-events-none absolute top-1 whitespace-nowrap tabular ${left < 4 ? '' : last ? '-translate-x-full' : '-translate-x-1/2'} ${
                  i > 0 && i < shownTicks.length - 1 ? 'max-sm:hidden' : ''
                }`}
                style={{ left: `${left}%` }}
              >
                {formatTick(t.offset, step)}
              </span>
            );
          })}
        </RangeDrag>
        {/* Everything that happened, at a glance: decisions and events of the whole trace. */}
        <div className="relative h-6 border-t border-border" aria-hidden="true">
          <Ticks ticks={shownTicks} window={view} />
          {trace.decisionPoints.map((d) => {
            const t = toMillis(d.timestamp);
            if (t === null || !inView(view, t)) return null;
            return (
              <span
                key={`d:${d.id}`}
                title={`Decision (${DECISION_LABEL[d.type]}): ${summarizeJson(d.chosen, 60)} at ${formatOffset(t - origin)}`}
                onClick={() => onSelect({ kind: 'decision', id: d.id })}
                className="absolute top-1/2 z-10 -translate-x-1/2 -translate-y-1/2 cursor-pointer hover:scale-125"
                style={{ left: `${toPercent(view, t)}%` }}
              >
                <DecisionGlyph size={11} />
              </span>
            );
          })}
          {trace.events.map((e) => (
            <EventMarker
              key={`e:${e.id}`}
              event={e}
              window={view}
              origin={origin}
              onSelect={onSelect}
              selected={selection?.kind === 'event' && selection.id === e.id}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

export function TraceTimeline({
  model,
  selection,
  selectedKey,
  onSelect,
  focusRequest,
  zoomRequest = null,
  onNextError,
  matchKeys,
}: {
  model: TraceModel;
  selection: Selection | null;
  selectedKey: string | null;
  onSelect: (s: Selection) => void;
  focusRequest: FocusRequest | null;
  /** A request to fit the axis to a span's row (from the details sheet on a phone). */
  zoomRequest?: FocusRequest | null;
  onNextError?: () => void;
  /** Rows holding an in-trace search match, marked. */
  matchKeys?: ReadonlySet<string>;
}) {
  const { tree } = model;
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [activeKey, setActiveKey] = useState<string | null>(null);

  // Filters (in the URL): the spans they accept and their ancestors, in place.
  const filters = readSpanFilters(useSearchParams());
  const filtering = spanFilterActive(filters);
  const filtered = useMemo(() => {
    if (!filtering) return null;
    let matching = 0;
    const keys = filteredKeys(tree, (n) => {
      const accepted = spanFilterAccepts(filters, n.span, model.window);
      if (accepted) matching++;
      return accepted;
    });
    return { keys, matching };
    // The filter's fields are its identity (readSpanFilters makes a new object per render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tree, model.window, filtering, filters.type, filters.status, filters.minDurationMs]);
  const include = filtered?.keys;

  // The visible time range: the whole trace less outliers, or all of it, or a zoom.
  const [showAll, setShowAll] = useState(false);
  const [zoom, setZoom] = useState<ViewRange | null>(null);
  const bounds = useMemo<ViewRange>(() => ({ start: model.window.start, end: model.window.end }), [model.window]);
  const base = showAll ? model.window : model.focus.window;
  const view = useMemo(() => viewWindow(zoom ?? { start: base.start, end: base.end }), [zoom, base.start, base.end]);
  const ticks = useMemo(() => viewTicks(model.window.start, view, 5), [model.window.start, view]);
  const outliers = model.focus.before + model.focus.after;
  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  }, [view]);
  const timelineRef = useRef<HTMLDivElement>(null);
  const setView = useCallback((range: ViewRange | null) => setZoom(range), []);
  const zoomToKey = useCallback(
    (key: string) => {
      const node = tree.byKey.get(key);
      if (node?.kind !== 'span') return;
      const iv = spanInterval(node.span, model.window);
      setZoom(rangeAround(iv.start, iv.end, bounds));
    },
    [tree, model.window, bounds],
  );

  // A request to fit the axis to a span, handled in render like a focus request.
  const [handledZoom, setHandledZoom] = useState<number | null>(null);
  if (zoomRequest && zoomRequest.nonce !== handledZoom) {
    setHandledZoom(zoomRequest.nonce);
    const node = tree.byKey.get(zoomRequest.key);
    if (node?.kind === 'span') {
      const iv = spanInterval(node.span, model.window);
      setZoom(rangeAround(iv.start, iv.end, bounds));
    }
  }

  // A request to show a row (from the decision list, "next error", the side panel):
  // open its ancestors now, in render, so the row exists when the effect scrolls to it.
  const [handledNonce, setHandledNonce] = useState<number | null>(null);
  if (focusRequest && focusRequest.nonce !== handledNonce) {
    setHandledNonce(focusRequest.nonce);
    const hidden = ancestorKeys(tree, focusRequest.key).filter((k) => collapsed.has(k));
    if (hidden.length > 0) {
      const next = new Set(collapsed);
      for (const k of hidden) next.delete(k);
      setCollapsed(next);
    }
    setActiveKey(focusRequest.key);
  }

  const rows = useMemo(() => flattenTree(tree.roots, collapsed, include), [tree, collapsed, include]);
  const indexByKey = useMemo(() => {
    const m = new Map<string, number>();
    for (let i = 0; i < rows.length; i++) m.set(rows[i].node.key, i);
    return m;
  }, [rows]);

  const activeIndex = activeKey !== null ? (indexByKey.get(activeKey) ?? 0) : 0;

  const scrollRef = useRef<HTMLDivElement>(null);
  const nameWidth = useSyncExternalStore(subscribeNameWidth, readNameWidth, () => null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the app does not run the React Compiler; the virtualizer re-renders this component itself.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    // Server render and hydration show the first screenful at this assumed size.
    initialRect: { width: 800, height: 640 },
    getItemKey: (i) => rows[i].node.key,
  });

  // Ctrl/⌘ + wheel and pinch (Chromium sends a pinch as a ctrl wheel) zoom around the
  // pointer; Shift + wheel and sideways scrolling pan a zoomed timeline. A plain wheel
  // scrolls the tree. Non-passive, so the page itself does not zoom.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const column = timelineRef.current?.getBoundingClientRect();
      if (!column || column.width <= 0) return;
      const current = { start: viewRef.current.start, end: viewRef.current.end };
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        const factor = WHEEL_ZOOM_PER_100 ** (e.deltaY / 100);
        setZoom(zoomAt(current, factor, (e.clientX - column.left) / column.width, bounds));
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        const delta = e.shiftKey && e.deltaX === 0 ? e.deltaY : e.deltaX;
        if (delta === 0) return;
        e.preventDefault();
        setZoom(panBy(current, delta / column.width, bounds));
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [bounds]);

  // Scroll once per request: later changes of the rows (the reader opening and closing
  // nodes) must not pull the view back to it.
  const scrolledNonce = useRef<number | null>(null);
  useEffect(() => {
    if (!focusRequest || scrolledNonce.current === focusRequest.nonce) return;
    const index = indexByKey.get(focusRequest.key);
    if (index === undefined) return;
    scrolledNonce.current = focusRequest.nonce;
    virtualizer.scrollToIndex(index, { align: 'center' });
    // Below lg the page itself scrolls too: bring the row (drawn by then) onto the screen.
    requestAnimationFrame(() => document.getElementById(rowDomId(index))?.scrollIntoView({ block: 'nearest' }));
  }, [focusRequest, indexByKey, virtualizer]);

  const toggle = useCallback((key: string) => {
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  // Stable, so that memoised rows re-render only when their own props change.
  const activate = useCallback(
    (key: string, select: Selection | null) => {
      setActiveKey(key);
      if (select) onSelect(select);
    },
    [onSelect],
  );

  const selectRow = (index: number) => {
    const node = rows[index]?.node;
    if (!node) return;
    activate(node.key, node.kind === 'span' ? { kind: 'span', id: node.span.id } : { kind: 'decision', id: node.decision.id });
  };

  const moveTo = (index: number) => {
    const clamped = Math.max(0, Math.min(rows.length - 1, index));
    setActiveKey(rows[clamped]?.node.key ?? null);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  };

  // j and k: the next and previous row, as on the list; an opened item follows along.
  const step = (by: 1 | -1) => {
    if (rows.length === 0) return;
    const next = activeKey === null ? (by === 1 ? 0 : rows.length - 1) : Math.max(0, Math.min(rows.length - 1, activeIndex + by));
    moveTo(next);
    if (selection !== null) selectRow(next);
  };
  const stepRef = useRef(step);
  useEffect(() => {
    stepRef.current = step;
  });
  // Anywhere on the page but in a field, while the timeline is shown.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.key !== 'j' && e.key !== 'k') || e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || isTyping(e.target)) return;
      const tree = scrollRef.current;
      if (!tree || tree.getClientRects().length === 0) return;
      e.preventDefault();
      if (!tree.closest('[inert]')) tree.focus({ preventScroll: true });
      stepRef.current(e.key === 'j' ? 1 : -1);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0) return;
    const row = rows[activeIndex];
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 600) / ROW_HEIGHT) - 2);
    switch (e.key) {
      case 'ArrowDown':
        moveTo(activeIndex + 1);
        break;
      case 'ArrowUp':
        moveTo(activeIndex - 1);
        break;
      case 'j':
        step(1);
        break;
      case 'k':
        step(-1);
        break;
      case 'PageDown':
        moveTo(activeIndex + page);
        break;
      case 'PageUp':
        moveTo(activeIndex - page);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(rows.length - 1);
        break;
      case 'ArrowRight':
        if (row.hasChildren && !row.expanded) toggle(row.node.key);
        else if (row.expanded) moveTo(activeIndex + 1);
        break;
      case 'ArrowLeft':
        if (row.expanded) toggle(row.node.key);
        else if (row.parentIndex >= 0) moveTo(row.parentIndex);
        break;
      case 'Enter':
      case ' ':
        selectRow(activeIndex);
        break;
      case '*':
        setCollapsed(new Set());
        break;
      case '+':
      case '=':
        setZoom(zoomAt(view, 0.5, 0.5, bounds));
        break;
      case '-':
        setZoom(zoomAt(view, 2, 0.5, bounds));
        break;
      case 'z':
        zoomToKey(row.node.key);
        break;
      case '0':
        setZoom(null);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const items = virtualizer.getVirtualItems();
  // The path of ancestors of the first row in view (at least half of it below the bar), once scrolled.
  const scrollTop = virtualizer.scrollOffset ?? 0;
  const path =
    scrollTop > 0 && rows.length > 0
      ? stickyPath(rows, Math.min(rows.length - 1, Math.floor((scrollTop + STICKY_PATH_HEIGHT + ROW_HEIGHT / 2) / ROW_HEIGHT)))
      : { indices: [], hidden: 0 };
  const errorCount = model.errorKeys.length;
  const selectedSpanKey = selection?.kind === 'span' && tree.spanById.has(selection.id) ? spanKey(selection.id) : null;
  const origin = model.window.start;
  const button = 'h-7 shrink-0 rounded-md border border-border-strong px-2 text-xs hover:bg-surface-2 disabled:opacity-50 disabled:hover:bg-transparent';

  return (
    <div className="flex h-full min-h-0 flex-col">
      {/* One toolbar (it wraps on a narrow screen): the rows get the height. */}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 pb-1.5 text-sm">
      <SpanFilters filters={filters} matching={filtered?.matching ?? null} total={model.trace.spans.length} />
      <div className="flex flex-wrap items-center gap-1.5 text-sm" role="group" aria-label="Timeline zoom">
        <button type="button" className={button} disabled={!selectedSpanKey} onClick={() => selectedSpanKey && zoomToKey(selectedSpanKey)} title="Fit the timeline to the selected span (Z in the tree; double-click a row)">
          Zoom to span
        </button>
        <button type="button" className={button} onClick={() => setZoom(zoomAt(view, 0.5, 0.5, bounds))} aria-label="Zoom in" title="Zoom in (+; Ctrl or ⌘ + wheel, pinch)">
          +
        </button>
        <button type="button" className={button} onClick={() => setZoom(zoomAt(view, 2, 0.5, bounds))} aria-label="Zoom out" title="Zoom out (−)">
          −
        </button>
        <button type="button" className={button} disabled={zoom === null} onClick={() => setZoom(null)} title="Back to the whole trace (0)">
          Reset zoom
        </button>
        {outliers > 0 && (
          <button
            type="button"
            className={button}
            aria-pressed={showAll}
            onClick={() => {
              setShowAll(!showAll);
              setZoom(null);
            }}
            title={showAll ? 'Fit the axis to the run again' : 'The axis leaves out instants far from the rest of the run'}
          >
            {showAll ? 'Fit to the run' : `Show all (${plural(outliers, 'outlier')} left out)`}
          </button>
        )}
        <span className="min-w-0 truncate text-xs text-muted tabular" data-testid="view-range">
          {zoom || (!showAll && outliers > 0)
            ? `Showing ${formatTickOffset(view.start - origin, tickStep(ticks, view))} to ${formatTickOffset(view.end - origin, tickStep(ticks, view))} of ${formatDuration(model.window.duration)}`
            : ''}
        </span>
      </div>
      {errorCount > 0 && onNextError && (
        <button
          type="button"
          onClick={onNextError}
          className="h-7 shrink-0 rounded-md border border-red-300 px-2 text-xs font-medium text-red-800 hover:bg-red-50 dark:border-red-800 dark:text-red-200 dark:hover:bg-red-950"
        >
          Next error ({errorCount})
        </button>
      )}
      <p className="sr-only">
        {plural(model.trace.spans.length, 'span')} · {plural(model.trace.decisionPoints.length, 'decision')} ·{' '}
        {plural(model.trace.events.length, 'event')}
        {tree.maxDepth > 0 && ` · ${tree.maxDepth + 1} levels`}
        {tree.orphanCount > 0 && ` · ${plural(tree.orphanCount, 'orphan')}`}
        {tree.cycleCount > 0 && ` · ${plural(tree.cycleCount, 'parent cycle')} cut`}
      </p>
        <Legend />
      </div>
      <div
        ref={scrollRef}
        role="tree"
        tabIndex={0}
        aria-label="Spans and decisions on a timeline. Arrow keys (or J and K) move, Right and Left open and close, Enter shows details; plus and minus zoom the timeline, Z zooms to the row, 0 resets the zoom."
        aria-keyshortcuts="j k"
        style={nameWidth === null ? undefined : { ['--label-w' as string]: `min(${nameWidth}px, calc(100% - 10rem))` }}
        aria-activedescendant={rows.length > 0 ? rowDomId(activeIndex) : undefined}
        onKeyDown={onKeyDown}
        onFocus={() => {
          if (activeKey === null && rows.length > 0) setActiveKey(rows[0].node.key);
        }}
        className="tree-scroll relative min-h-0 flex-1 overflow-auto rounded-md border border-border [--label-w:clamp(15rem,42%,30rem)] max-sm:[--label-w:clamp(9rem,50%,15rem)] xl:[--label-w:clamp(15rem,38%,30rem)]"
        data-testid="span-tree"
      >
        <Axis
          model={model}
          onSelect={onSelect}
          selection={selection}
          view={view}
          ticks={ticks}
          onView={setView}
          timelineRef={timelineRef}
          treeRef={scrollRef}
          onExpandAll={() => setCollapsed(new Set())}
          onCollapseAll={() => setCollapsed(collapsibleKeys(tree))}
        />
        {path.indices.length > 0 && (
          // Zero height in the flow (the rows do not move); its bar lies over the top rows.
          <div className="sticky z-10 h-0" style={{ top: HEADER_HEIGHT }}>
            <nav
              aria-label="Ancestors of the first row in view"
              data-testid="tree-sticky-path"
              className="absolute inset-x-0 top-0 flex items-center gap-1 overflow-hidden border-b border-border bg-surface px-2 text-xs whitespace-nowrap shadow-sm"
              style={{ height: STICKY_PATH_HEIGHT }}
            >
              {path.hidden > 0 && (
                <span className="shrink-0 text-muted" title={`${plural(path.hidden, 'level')} further out`}>
                  …›
                </span>
              )}
              {path.indices.map((i, n) => {
                const node = rows[i].node;
                const name = node.kind === 'span' ? node.span.name : DECISION_LABEL[node.decision.type];
                return (
                  <span key={node.key} className="flex min-w-0 items-center gap-1">
                    {n > 0 && (
                      <span aria-hidden="true" className="text-muted">
                        ›
                      </span>
                    )}
                    <button
                      type="button"
                      tabIndex={-1}
                      onClick={() => {
                        setActiveKey(node.key);
                        virtualizer.scrollToIndex(i, { align: 'start' });
                      }}
                      className="min-w-0 truncate rounded px-1 text-fg hover:bg-surface-2"
                      title={name}
                    >
                      {name}
                    </button>
                  </span>
                );
              })}
            </nav>
          </div>
        )}
        {rows.length === 0 ? (
          <p className="p-6 text-muted">{filtering ? 'No span matches these filters.' : 'This trace has no spans and no decisions.'}</p>
        ) : (
          <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => (
              <div
                key={item.key}
                role="presentation"
                className="absolute inset-x-0 top-0"
                style={{ height: ROW_HEIGHT, transform: `translateY(${item.start - HEADER_HEIGHT}px)` }}
              >
                <Row
                  row={rows[item.index]}
                  index={item.index}
                  active={item.index === activeIndex}
                  selected={rows[item.index].node.key === selectedKey}
                  selection={selection}
                  model={model}
                  onToggle={toggle}
                  onActivate={activate}
                  onSelect={onSelect}
                  matched={matchKeys?.has(rows[item.index].node.key) ?? false}
                  view={view}
                  ticks={ticks}
                  onZoomTo={zoomToKey}
                />
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

function Legend() {
  return (
    <span className="ml-auto hidden shrink-0 items-center gap-3 text-[11px] text-muted 2xl:inline-flex" aria-hidden="true">
      <span className="inline-flex items-center gap-1">
        <DecisionGlyph size={10} /> decision
      </span>
      <span className="inline-flex items-center gap-1">
        <span className="inline-block h-2 w-2 rounded-full bg-slate-600 dark:bg-slate-300" /> event
      </span>
      <span className="inline-flex items-center gap-1">
        <span className="inline-block h-2 w-3 rounded-sm bg-red-600 dark:bg-red-400" /> error
      </span>
    </span>
  );
}

/** An LLM row's model and cost, after its name: what a reader scans a run for. */
function ModelAndCost({ span }: { span: SpanSummary }) {
  const model = summaryModelOf(span);
  if (model === null && span.costUsd === null) return null;
  const estimated = costSourceNote(span);
  return (
    // The cost never truncates; a long model name gives way first.
    <span className="hidden min-w-0 shrink-[4] items-center gap-1 overflow-hidden text-[11px] text-muted sm:flex" data-testid="row-model">
      {model !== null && <span className="min-w-0 truncate">{model}</span>}
      {span.costUsd !== null && (
        <span className="shrink-0 tabular" title={estimated ?? 'Cost sent by the client'}>
          {model !== null && '· '}
          {estimated ? '≈' : ''}
          {formatCost(span.costUsd)}
        </span>
      )}
    </span>
  );
}
