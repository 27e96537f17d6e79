'use client';

import type { KeyboardEvent, PointerEvent as ReactPointerEvent } from 'react';
import type { SearchMatch, ListSort, SortOrder, TraceListItem } from '@/lib/features/traces/shared';
import { Highlight } from '@/components/ui/Highlight';
import { columnsOf, PREVIEW_COLUMN, type CellContext, type ListColumn } from './columns';
import { CompareCheckbox, TraceNameLink, useTraceOpener, type CompareSelection } from './TraceNameLink';
import { MAX_COLUMN_PX, MIN_COLUMN_PX, type ColumnWidths } from './tablePrefs';

const MATCH_KIND: Record<SearchMatch['kind'], string> = { trace: 'Trace', span: 'Span', decision: 'Decision', event: 'Event' };

/** Where a full-text search found its term in the trace: the first place, and how many more. */
export function MatchLine({ matches, q, marker = 'data-match' }: { matches: SearchMatch[]; q: string; marker?: string }) {
  const [first, ...more] = matches;
  if (!first) return null;
  return (
    <span {...{ [marker]: `${first.kind}:${first.id}` }} className="block truncate text-xs text-muted" title={first.snippet}>
      <span className="font-medium">
        {MATCH_KIND[first.kind]} {first.field}:
      </span>{' '}
      <Highlight text={first.snippet} term={q} />
      {more.length > 0 && <span className="ml-1">(+{more.length} more)</span>}
    </span>
  );
}

/** The run's first input and last output, each on its half of one line. */
export function Previews({ trace, marker = 'data-previews', compact = false }: { trace: TraceListItem; marker?: string; compact?: boolean }) {
  const { inputPreview: input, outputPreview: output } = trace;
  const size = compact ? 'text-[11px] leading-4' : 'text-xs';
  if (!input && !output) {
    return (
      <span className={`block ${size} text-muted italic`} {...{ [marker]: '' }}>
        No input or output recorded
      </span>
    );
  }
  return (
    <span className={`flex min-w-0 gap-3 ${size} text-muted`} {...{ [marker]: '' }}>
      <span className="min-w-0 flex-1 truncate" title={input ?? undefined}>
        <span aria-hidden="true" className="mr-1 font-medium">In</span>
        <span className="sr-only">Input: </span>
        {input ?? '—'}
      </span>
      <span className="min-w-0 flex-1 truncate" title={output ?? undefined}>
        <span aria-hidden="true" className="mr-1 font-medium">Out</span>
        <span className="sr-only">Output: </span>
        {output ?? '—'}
      </span>
    </span>
  );
}

/** The name column's least width, beside the fixed ones. */
const NAME_MIN_PX = 200;

/** A column's own width in px (its first `w-[Npx]`), or 0 for the name's. */
function ownWidth(c: ListColumn): number {
  return Number(/(?:^|\s)w-\[(\d+)px\]/.exec(c.width)?.[1] ?? 0);
}

/** The columns' fixed widths (as dragged, else their own) and the name's least, in px. */
function tableMinWidth(columns: ListColumn[], widths: ColumnWidths): number {
  return columns.reduce((sum, c) => sum + (c.width ? (widths[c.key] ?? ownWidth(c)) : 0), NAME_MIN_PX);
}

const RESIZE_STEP_PX = 16;

/**
 * The right edge of a column's header: dragged (or moved with the arrow keys) it sets the
 * column's width, which the table remembers; a double click or Home gives back its own.
 */
function ResizeHandle({ column, width, onResize }: { column: ListColumn; width: number; onResize: (key: string, px: number | null) => void }) {
  const start = (e: ReactPointerEvent<HTMLSpanElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    const handle = e.currentTarget;
    const from = handle.parentElement?.getBoundingClientRect().width ?? width;
    const x0 = e.clientX;
    handle.setPointerCapture(e.pointerId);
    const move = (ev: PointerEvent) => onResize(column.key, from + ev.clientX - x0);
    const end = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  };
  const keys = (e: KeyboardEvent<HTMLSpanElement>) => {
    const step = e.key === 'ArrowRight' ? RESIZE_STEP_PX : e.key === 'ArrowLeft' ? -RESIZE_STEP_PX : 0;
    if (step) onResize(column.key, width + step);
    else if (e.key === 'Home') onResize(column.key, null);
    else return;
    e.preventDefault();
  };
  return (
    <span
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize column ${column.label}`}
      aria-valuenow={width}
      aria-valuemin={MIN_COLUMN_PX}
      aria-valuemax={MAX_COLUMN_PX}
      title="Drag to resize; double-click for its own width"
      tabIndex={0}
      data-resize={column.key}
      onPointerDown={start}
      onDoubleClick={() => onResize(column.key, null)}
      onClick={(e) => e.stopPropagation()}
      onKeyDown={keys}
      className="absolute inset-y-1 right-0 z-10 w-2 cursor-col-resize touch-none rounded after:absolute after:inset-y-1 after:left-[3px] after:w-0.5 after:rounded after:bg-border-strong hover:after:bg-accent focus-visible:outline-2 focus-visible:outline-accent"
    />
  );
}

export function TraceTable({
  traces,
  serverNow,
  busy,
  onSession,
  onTag,
  columns,
  q,
  sort = 'startedAt',
  order = 'desc',
  onSort,
  compare,
  widths = {},
  onResize,
  compact = false,
}: {
  traces: TraceListItem[];
  serverNow: number;
  busy: boolean;
  onSession: (sessionId: string) => void;
  onTag: (tag: string) => void;
  /** The visible columns' keys (useListColumns). */
  columns: string[];
  /** The full-text search the rows answer: rows then show where it matched, and open there. */
  q?: string;
  sort?: ListSort;
  order?: SortOrder;
  /** Sorts by a column: a new column starts descending, the current one flips. */
  onSort?: (sort: ListSort, order: SortOrder) => void;
  /** The runs picked to compare; without it, rows have no checkboxes. */
  compare?: CompareSelection;
  /** Widths set by hand, by column key (useColumnWidths); with onResize, the headers have resize handles. */
  widths?: ColumnWidths;
  onResize?: (key: string, px: number | null) => void;
  /** Shorter rows (useCompactRows). */
  compact?: boolean;
}) {
  const { hrefOf, open, isOpening } = useTraceOpener(q);

  // Up/Down move between the rows' name links: the list reads like a menu.
  const moveFocus = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const target = e.target as HTMLElement;
    if (!target.matches('a[data-row-link]')) return;
    const links = Array.from(e.currentTarget.querySelectorAll<HTMLAnchorElement>('a[data-row-link]'));
    const index = links.indexOf(target as HTMLAnchorElement);
    const next = links[index + (e.key === 'ArrowDown' ? 1 : -1)];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };

  const shown = new Set(columns);
  const visible = columnsOf(columns).filter((c) => c.key !== PREVIEW_COLUMN);
  const previews = shown.has(PREVIEW_COLUMN);
  const cellContext: CellContext = { serverNow, onSession, onTag };
  const tall = (t: TraceListItem) => previews || (q && t.matches?.length);
  const rowHeight = (t: TraceListItem) => (tall(t) ? (compact ? 'h-10' : 'h-14') : compact ? 'h-8' : 'h-10');

  return (
    // Positioned, so the clipped cells' screen-reader text (absolutely placed) is clipped too and never widens the page.
    // Narrower than its columns (a phone), the table scrolls sideways inside this box, the name keeping its room.
    <div className="relative overflow-x-auto overflow-y-hidden rounded-lg border border-border">
      <table className="w-full table-fixed border-collapse text-sm" aria-busy={busy} style={{ minWidth: tableMinWidth(visible, widths) }}>
        <caption className="sr-only">Traces. Use j and k or the arrow keys to move between traces, Enter to open one, and / to search.</caption>
        <colgroup>
          {visible.map((c) =>
            c.width && widths[c.key] ? <col key={c.key} style={{ width: widths[c.key] }} /> : <col key={c.key} className={c.width || undefined} />,
          )}
        </colgroup>
        <thead className="bg-surface text-xs text-muted">
          <tr>
            {visible.map((c) => (
              <th
                key={c.key}
                scope="col"
                title={c.title}
                aria-sort={c.sort && c.sort === sort ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                className={`relative h-9 px-2 font-medium first:pl-4 last:pr-3 ${c.numeric ? 'text-right' : 'text-left'}`}
              >
                {c.sort && onSort ? (
                  <button
                    type="button"
                    onClick={() => onSort(c.sort!, c.sort === sort && order === 'desc' ? 'asc' : 'desc')}
                    className={`inline-flex max-w-full items-center gap-0.5 hover:text-fg ${c.sort === sort ? 'text-fg' : ''}`}
                    aria-label={`Sort by ${c.sort?.startsWith('score.') ? `score ${c.label}` : c.label.toLowerCase()}${c.sort === sort ? (order === 'desc' ? ', now highest first' : ', now lowest first') : ''}`}
                  >
                    <span className="min-w-0 truncate">{c.label}</span>
                    <span aria-hidden="true" className={`shrink-0 ${c.sort === sort ? '' : 'invisible'}`}>
                      {order === 'asc' ? '▲' : '▼'}
                    </span>
                  </button>
                ) : (
                  c.label
                )}
                {onResize && c.width && <ResizeHandle column={c} width={widths[c.key] ?? ownWidth(c)} onResize={onResize} />}
              </th>
            ))}
          </tr>
        </thead>
        <tbody onKeyDown={moveFocus} className={`whitespace-nowrap ${busy ? 'opacity-60' : ''} transition-opacity`}>
          {traces.map((t) => (
            <tr
              key={t.id}
              onClick={(e) => open(e, t)}
              className={`${rowHeight(t)} cursor-pointer border-t border-border hover:bg-surface has-[a[data-row-link]:focus-visible]:bg-accent-soft ${
                t.status === 'ERROR' ? 'shadow-[inset_3px_0_0_0] shadow-red-600 dark:shadow-red-400' : ''
              }`}
            >
              <td className={`truncate pr-2 pl-4 ${compact ? 'py-0' : 'py-1'}`}>
                <span className="flex min-w-0 items-center">
                  {compare && <CompareCheckbox trace={t} selection={compare} className="mr-2 h-4 w-4" />}
                  <TraceNameLink trace={t} href={hrefOf(t)} opening={isOpening(t.id)} marker="data-row-link" />
                </span>
                {q && t.matches?.length ? <MatchLine matches={t.matches} q={q} /> : previews && <Previews trace={t} compact={compact} />}
              </td>
              {visible.slice(1).map((c) => (
                <td key={c.key} className={`px-2 last:pr-3 ${c.numeric ? 'text-right tabular' : ''} ${c.cellClass ?? ''}`}>
                  {c.cell?.(t, cellContext)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
