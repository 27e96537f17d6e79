'use client';

import type { KeyboardEvent } from 'react';
import type { SearchMatch, ListSort, SortOrder, TraceListItem } from '@/lib/features/traces/shared';
import { Highlight } from '@/components/ui/Highlight';
import { columnsOf, PREVIEW_COLUMN, type CellContext, type ListColumn } from './columns';
import { CompareCheckbox, TraceNameLink, useTraceOpener, type CompareSelection } from './TraceNameLink';

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
export function Previews({ trace, marker = 'data-previews' }: { trace: TraceListItem; marker?: string }) {
  const { inputPreview: input, outputPreview: output } = trace;
  if (!input && !output) {
    return (
      <span className="block text-xs text-muted italic" {...{ [marker]: '' }}>
        No input or output recorded
      </span>
    );
  }
  return (
    <span className="flex min-w-0 gap-3 text-xs text-muted" {...{ [marker]: '' }}>
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

/** The columns' fixed widths (their first `w-[Npx]`) and the name's least, in px. */
function tableMinWidth(columns: ListColumn[]): number {
  return columns.reduce((sum, c) => sum + Number(/(?:^|\s)w-\[(\d+)px\]/.exec(c.width)?.[1] ?? 0), NAME_MIN_PX);
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

  return (
    // Positioned, so the clipped cells' screen-reader text (absolutely placed) is clipped too and never widens the page.
    // Narrower than its columns (a phone), the table scrolls sideways inside this box, the name keeping its room.
    <div className="relative overflow-x-auto overflow-y-hidden rounded-lg border border-border">
      <table className="w-full table-fixed border-collapse text-sm" aria-busy={busy} style={{ minWidth: tableMinWidth(visible) }}>
        <caption className="sr-only">Traces. Use j and k or the arrow keys to move between traces, Enter to open one, and / to search.</caption>
        <colgroup>
          {visible.map((c) => (
            <col key={c.key} className={c.width || undefined} />
          ))}
        </colgroup>
        <thead className="bg-surface text-xs text-muted">
          <tr>
            {visible.map((c) => (
              <th
                key={c.key}
                scope="col"
                title={c.title}
                aria-sort={c.sort && c.sort === sort ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                className={`h-9 px-2 font-medium first:pl-4 last:pr-3 ${c.numeric ? 'text-right' : 'text-left'}`}
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
              </th>
            ))}
          </tr>
        </thead>
        <tbody onKeyDown={moveFocus} className={`whitespace-nowrap ${busy ? 'opacity-60' : ''} transition-opacity`}>
          {traces.map((t) => (
            <tr
              key={t.id}
              onClick={(e) => open(e, t)}
              className={`${tall(t) ? 'h-14' : 'h-10'} cursor-pointer border-t border-border hover:bg-surface has-[a[data-row-link]:focus-visible]:bg-accent-soft ${
                t.status === 'ERROR' ? 'shadow-[inset_3px_0_0_0] shadow-red-600 dark:shadow-red-400' : ''
              }`}
            >
              <td className="truncate py-1 pr-2 pl-4">
                <span className="flex min-w-0 items-center">
                  {compare && <CompareCheckbox trace={t} selection={compare} className="mr-2 h-4 w-4" />}
                  <TraceNameLink trace={t} href={hrefOf(t)} opening={isOpening(t.id)} marker="data-row-link" />
                </span>
                {q && t.matches?.length ? <MatchLine matches={t.matches} q={q} /> : previews && <Previews trace={t} />}
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
