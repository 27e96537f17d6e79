'use client';

import type { KeyboardEvent } from 'react';
import type { TraceListItem } from '@/lib/features/traces/shared';
import { LIST_COLUMNS, PREVIEW_COLUMN, type CellContext } from './columns';
import { CompareCheckbox, TraceNameLink, useTraceOpener, type CompareSelection } from './TraceNameLink';
import { MatchLine, Previews } from './TraceTable';

/**
 * The list below 1024 px, where the table's fixed columns leave its names no room: one card per trace, the same columns as the table (the
 * chooser's choice) as labelled fields that wrap, so a phone never scrolls sideways.
 */
export function TraceCards({
  traces,
  serverNow,
  busy,
  onSession,
  onTag,
  columns,
  q,
  compare,
  className = '',
}: {
  traces: TraceListItem[];
  serverNow: number;
  busy: boolean;
  onSession: (sessionId: string) => void;
  onTag: (tag: string) => void;
  columns: string[];
  q?: string;
  /** The runs picked to compare, as in the table; without it, cards have no checkboxes. */
  compare?: CompareSelection;
  className?: string;
}) {
  // A tap anywhere on the card opens the trace, but on its own links and controls.
  const { hrefOf, open, isOpening } = useTraceOpener(q);

  // Up/Down move between the cards' name links, as in the table.
  const moveFocus = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const target = e.target as HTMLElement;
    if (!target.matches('a[data-card-link]')) return;
    const links = Array.from(e.currentTarget.querySelectorAll<HTMLAnchorElement>('a[data-card-link]'));
    const next = links[links.indexOf(target as HTMLAnchorElement) + (e.key === 'ArrowDown' ? 1 : -1)];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };

  const shown = new Set(columns);
  const status = LIST_COLUMNS.find((c) => c.key === 'status');
  const fields = LIST_COLUMNS.filter((c) => c.cell && c.key !== 'status' && shown.has(c.key));
  const previews = shown.has(PREVIEW_COLUMN);
  const cellContext: CellContext = { serverNow, onSession, onTag };

  return (
    <ul
      aria-label="Traces"
      aria-busy={busy}
      onKeyDown={moveFocus}
      data-testid="trace-cards"
      className={`flex flex-col gap-2 ${busy ? 'opacity-60' : ''} transition-opacity ${className}`}
    >
      {traces.map((t) => (
        <li
          key={t.id}
          onClick={(e) => open(e, t)}
          data-trace-card={t.id}
          className={`min-w-0 cursor-pointer rounded-lg border border-border bg-bg px-3 py-2.5 hover:bg-surface has-[a[data-card-link]:focus-visible]:bg-accent-soft ${
            t.status === 'ERROR' ? 'shadow-[inset_3px_0_0_0] shadow-red-600 dark:shadow-red-400' : ''
          }`}
        >
          <div className="flex min-w-0 items-center gap-2">
            {/* A finger-sized box: a tap beside it would open the trace. */}
            {compare && <CompareCheckbox trace={t} selection={compare} className="h-5 w-5" />}
            <TraceNameLink trace={t} href={hrefOf(t)} opening={isOpening(t.id)} marker="data-card-link" className="flex-1" />
            {status && shown.has('status') && <span className="shrink-0">{status.cell?.(t, cellContext)}</span>}
          </div>
          {q && t.matches?.length ? (
            <div className="mt-1">
              <MatchLine matches={t.matches} q={q} marker="data-card-match" />
            </div>
          ) : (
            previews && (
              <div className="mt-1">
                <Previews trace={t} marker="data-card-previews" />
              </div>
            )
          )}
          {fields.length > 0 && (
            <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs">
              {fields.map((c) => (
                <div key={c.key} className="flex min-w-0 max-w-full items-center gap-1">
                  <dt className="shrink-0 text-muted">{c.label}</dt>
                  <dd className={`min-w-0 truncate ${c.numeric ? 'tabular' : ''}`}>{c.cell!(t, cellContext)}</dd>
                </div>
              ))}
            </dl>
          )}
        </li>
      ))}
    </ul>
  );
}
