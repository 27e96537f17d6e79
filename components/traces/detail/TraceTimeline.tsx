'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { formatCost, formatDuration, formatOffset, plural, toMillis } from '@/lib/format';
import { costSourceNote, spanModelOf } from '@/lib/traces/span-model';
import { ancestorKeys, collapsibleKeys, flattenTree, type TreeRow } from '@/lib/traces/tree';
import { barLayout, spanInterval, toPercent, type TimeWindow } from '@/lib/traces/timeline';
import type { DecisionPointRecord, EventRecord, SpanRecord } from '@/lib/traces/types';
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

const ROW_HEIGHT = 30;
const HEADER_HEIGHT = 52;
const INDENT_PX = 14;
// Beyond this many levels the indent stops growing and the depth is written instead:
// a 10,000-deep chain must not push its names out of the column.
const MAX_INDENT_LEVELS = 14;

export interface FocusRequest {
  key: string;
  /** Changes on every request, so asking twice for the same row scrolls twice. */
  nonce: number;
}

function rowDomId(index: number) {
  return `tree-row-${index}`;
}

function Ticks({ ticks, window }: { ticks: number[]; window: TimeWindow }) {
  return (
    <>
      {ticks.map((t) => (
        <span
          key={t}
          aria-hidden="true"
          className="absolute top-0 bottom-0 w-px bg-grid"
          style={{ left: `${toPercent(window, window.start + t)}%` }}
        />
      ))}
    </>
  );
}

function EventMarker({
  event,
  window,
  onSelect,
  selected,
}: {
  event: EventRecord;
  window: TimeWindow;
  onSelect: (s: Selection) => void;
  selected: boolean;
}) {
  const t = toMillis(event.timestamp);
  if (t === null) return null;
  const meta = EVENT_META[event.type];
  return (
    <span
      data-testid="event-marker"
      title={`${meta.label}: ${event.name} at ${formatOffset(t - window.start)}`}
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
}

const Row = memo(function Row({ row, index, active, selected, selection, model, onToggle, onActivate, onSelect }: RowProps) {
  const { node, depth } = row;
  const window = model.window;
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
    const iv = spanInterval(span, window);
    const bar = barLayout(window, iv.start, iv.end);
    const ms = iv.open ? null : iv.end - iv.start;
    duration = iv.open ? (span.status === 'RUNNING' ? 'running' : '—') : formatDuration(ms);
    const events = model.eventsBySpan.get(span.id) ?? [];
    ariaLabel = `${meta.label} ${span.name}, ${span.status.toLowerCase()}, ${duration}`;
    label = (
      <>
        <SpanTypeBadge type={span.type} />
        <span className={`truncate ${error ? 'font-medium text-red-800 dark:text-red-200' : ''}`}>{span.name}</span>
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
        <span
          className={`absolute top-1/2 h-3 -translate-y-1/2 rounded-sm ${error ? 'bg-red-600 ring-2 ring-red-300 dark:bg-red-400 dark:ring-red-800' : meta.bar} ${
            iv.open ? 'bg-[length:8px_8px] [background-image:linear-gradient(45deg,rgba(255,255,255,.35)_25%,transparent_25%,transparent_50%,rgba(255,255,255,.35)_50%,rgba(255,255,255,.35)_75%,transparent_75%)]' : ''
          }`}
          style={{ left: `${bar.left}%`, width: `max(2px, ${bar.width}%)` }}
          title={`${span.name}: ${formatOffset(iv.start - window.start)}, ${duration}`}
        />
        {events.map((e) => (
          <EventMarker
            key={e.id}
            event={e}
            window={window}
            onSelect={onSelect}
            selected={selection?.kind === 'event' && selection.id === e.id}
          />
        ))}
      </>
    );
  } else {
    const d = node.decision;
    const t = toMillis(d.timestamp) ?? window.start;
    const left = toPercent(window, t);
    const width = d.durationMs && d.durationMs > 0 ? barLayout(window, t, t + d.durationMs).width : 0;
    duration = d.durationMs !== null ? formatDuration(d.durationMs) : '';
    const chosen = summarizeJson(d.chosen, 60);
    ariaLabel = `${d.inferred ? 'Inferred decision' : 'Decision'}, ${DECISION_LABEL[d.type]}: chose ${chosen} over ${plural(d.alternatives.length, 'alternative')}`;
    // The option taken leads: it is what the reader scans for; the type follows.
    label = (
      <>
        <DecisionGlyph />
        <span className="min-w-0 truncate font-medium">{chosen}</span>
        <span className="shrink-0 text-[11px] text-fuchsia-800 dark:text-fuchsia-200">
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
    timeline = (
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
          title={`${DECISION_LABEL[d.type]} at ${formatOffset(t - window.start)}: ${chosen}`}
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
      onClick={() =>
        onActivate(
          node.key,
          node.kind === 'span' ? { kind: 'span', id: node.span.id } : { kind: 'decision', id: node.decision.id },
        )
      }
      className={`grid h-full cursor-pointer grid-cols-[var(--label-w)_4.5rem_minmax(0,1fr)] items-center text-[13px] ${
        selected ? 'bg-selected' : error ? 'bg-red-50 hover:bg-red-100 dark:bg-red-950/40 dark:hover:bg-red-950/70' : 'hover:bg-surface'
      } ${active ? 'tree-active' : ''}`}
    >
      <div
        className="flex min-w-0 items-center gap-1.5 pr-2"
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
      <div className="pr-2 text-right text-xs text-muted tabular">{duration}</div>
      <div className="relative h-full overflow-hidden">
        <Ticks ticks={model.ticks} window={window} />
        {timeline}
      </div>
    </div>
  );
});

function Axis({ model, onSelect, selection }: { model: TraceModel; onSelect: (s: Selection) => void; selection: Selection | null }) {
  const { window, trace } = model;
  // An empty trace has no time span worth an axis.
  const ticks = trace.spans.length + trace.decisionPoints.length + trace.events.length > 0 ? model.ticks : [];
  return (
    <div
      className="sticky top-0 z-20 grid grid-cols-[var(--label-w)_4.5rem_minmax(0,1fr)] border-b border-border bg-bg text-xs text-muted"
      style={{ height: HEADER_HEIGHT }}
    >
      <div className="flex items-end pb-1 pl-2 font-medium">Span</div>
      <div className="flex items-end justify-end pr-2 pb-1 font-medium">Duration</div>
      <div className="relative">
        {/* tick labels */}
        <div className="relative h-6">
          {ticks.map((t, i) => {
            const left = toPercent(window, window.start + t);
            const last = i === ticks.length - 1 && left > 90;
            return (
              <span
                key={t}
                className={`absolute top-1 whitespace-nowrap tabular ${i === 0 ? '' : last ? '-translate-x-full' : '-translate-x-1/2'}`}
                style={{ left: `${left}%` }}
              >
                {formatDuration(t)}
              </span>
            );
          })}
        </div>
        {/* Everything that happened, at a glance: decisions and events of the whole trace. */}
        <div className="relative h-6 border-t border-border" aria-hidden="true">
          <Ticks ticks={ticks} window={window} />
          {trace.decisionPoints.map((d) => {
            const t = toMillis(d.timestamp);
            if (t === null) return null;
            return (
              <span
                key={`d:${d.id}`}
                title={`Decision (${DECISION_LABEL[d.type]}): ${summarizeJson(d.chosen, 60)} at ${formatOffset(t - window.start)}`}
                onClick={() => onSelect({ kind: 'decision', id: d.id })}
                className="absolute top-1/2 z-10 -translate-x-1/2 -translate-y-1/2 cursor-pointer hover:scale-125"
                style={{ left: `${toPercent(window, t)}%` }}
              >
                <DecisionGlyph size={11} />
              </span>
            );
          })}
          {trace.events.map((e) => (
            <EventMarker
              key={`e:${e.id}`}
              event={e}
              window={window}
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
  onNextError,
}: {
  model: TraceModel;
  selection: Selection | null;
  selectedKey: string | null;
  onSelect: (s: Selection) => void;
  focusRequest: FocusRequest | null;
  onNextError?: () => void;
}) {
  const { tree } = model;
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [activeKey, setActiveKey] = useState<string | null>(null);

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

  const rows = useMemo(() => flattenTree(tree.roots, collapsed), [tree, collapsed]);
  const indexByKey = useMemo(() => {
    const m = new Map<string, number>();
    for (let i = 0; i < rows.length; i++) m.set(rows[i].node.key, i);
    return m;
  }, [rows]);

  const activeIndex = activeKey !== null ? (indexByKey.get(activeKey) ?? 0) : 0;

  const scrollRef = useRef<HTMLDivElement>(null);
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

  // Scroll once per request: later changes of the rows (the reader opening and closing
  // nodes) must not pull the view back to it.
  const scrolledNonce = useRef<number | null>(null);
  useEffect(() => {
    if (!focusRequest || scrolledNonce.current === focusRequest.nonce) return;
    const index = indexByKey.get(focusRequest.key);
    if (index === undefined) return;
    scrolledNonce.current = focusRequest.nonce;
    virtualizer.scrollToIndex(index, { align: 'center' });
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
      default:
        return;
    }
    e.preventDefault();
  };

  const items = virtualizer.getVirtualItems();
  const errorCount = model.errorKeys.length;

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex items-center gap-2 pb-2 text-sm">
        <button
          type="button"
          onClick={() => setCollapsed(new Set())}
          className="h-7 shrink-0 rounded-md border border-border-strong px-2 text-xs hover:bg-surface-2"
        >
          Expand all
        </button>
        <button
          type="button"
          onClick={() => setCollapsed(collapsibleKeys(tree))}
          className="h-7 shrink-0 rounded-md border border-border-strong px-2 text-xs hover:bg-surface-2"
        >
          Collapse all
        </button>
        {errorCount > 0 && onNextError && (
          <button
            type="button"
            onClick={onNextError}
            className="h-7 shrink-0 rounded-md border border-red-300 px-2 text-xs font-medium text-red-800 hover:bg-red-50 dark:border-red-800 dark:text-red-200 dark:hover:bg-red-950"
          >
            Next error ({errorCount})
          </button>
        )}
        <span className="min-w-0 truncate text-xs text-muted tabular">
          {plural(model.trace.spans.length, 'span')} · {plural(model.trace.decisionPoints.length, 'decision')} ·{' '}
          {plural(model.trace.events.length, 'event')}
          {tree.maxDepth > 0 && ` · ${tree.maxDepth + 1} levels`}
          {tree.orphanCount > 0 && ` · ${plural(tree.orphanCount, 'orphan')}`}
          {tree.cycleCount > 0 && ` · ${plural(tree.cycleCount, 'parent cycle')} cut`}
        </span>
        <Legend />
      </div>
      <div
        ref={scrollRef}
        role="tree"
        tabIndex={0}
        aria-label="Spans and decisions on a timeline. Arrow keys move, Right and Left open and close, Enter shows details."
        aria-activedescendant={rows.length > 0 ? rowDomId(activeIndex) : undefined}
        onKeyDown={onKeyDown}
        onFocus={() => {
          if (activeKey === null && rows.length > 0) setActiveKey(rows[0].node.key);
        }}
        className="tree-scroll relative min-h-0 flex-1 overflow-auto rounded-md border border-border [--label-w:clamp(15rem,42%,30rem)] xl:[--label-w:clamp(15rem,38%,30rem)]"
        data-testid="span-tree"
      >
        <Axis model={model} onSelect={onSelect} selection={selection} />
        {rows.length === 0 ? (
          <p className="p-6 text-muted">This trace has no spans and no decisions.</p>
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
    <span className="ml-auto hidden shrink-0 items-center gap-3 text-[11px] text-muted xl:inline-flex" aria-hidden="true">
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
function ModelAndCost({ span }: { span: SpanRecord }) {
  const model = spanModelOf(span);
  if (model === null && span.costUsd === null) return null;
  const estimated = costSourceNote(span);
  return (
    // The cost never truncates; a long model name gives way first.
    <span className="hidden min-w-0 shrink items-center gap-1 text-[11px] text-muted sm:flex" data-testid="row-model">
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
