'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { SpanTypeBadge } from '@/components/ui/badges';
import { useHydrationMarker } from '@/components/ui/time';
import type { SpanRow } from './align';

/** Every row is one line high (names are cut with an ellipsis), so the window is exact. */
const ROW_HEIGHT = 33;
/** The box shows about this many rows before it scrolls; shorter tables take their own height. */
const VISIBLE_ROWS = 18;

const mark = (differs: boolean) => (differs ? 'font-semibold text-amber-900 dark:text-amber-200' : '');
// Fixed column widths: the columns keep their place while rows scroll in and out.
const COLUMNS = 'grid grid-cols-[minmax(11rem,1fr)_12.5rem_9rem_9rem_9rem]';

/**
 * Both runs' spans side by side, drawn only as far as they are in view (a comparison of
 * two 10,000-span runs is as many rows): the rows scroll in their own box, as the trace
 * page's tree does, and the page stays short.
 */
export function CompareSpanTable({ rows }: { rows: SpanRow[] }) {
  useHydrationMarker('compare');
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the app does not run the React Compiler; the virtualizer re-renders this component itself.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // Server render and hydration show the first screenful at this assumed size.
    initialRect: { width: 900, height: ROW_HEIGHT * VISIBLE_ROWS },
  });
  const items = virtualizer.getVirtualItems();
  if (rows.length === 0) return <p className="text-sm text-muted">Neither run has spans.</p>;
  return (
    <div
      ref={scrollRef}
      tabIndex={0}
      role="region"
      aria-label={`Spans of both runs, ${rows.length.toLocaleString('en-US')} rows`}
      data-testid="compare-spans-scroll"
      className="overflow-auto rounded-lg border border-border focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
      style={{ maxHeight: ROW_HEIGHT * (VISIBLE_ROWS + 1) + 2 }}
    >
      <div role="table" aria-rowcount={rows.length + 1} className="min-w-[51rem] text-sm" data-testid="compare-spans">
        <div role="rowgroup" className="sticky top-0 z-10 bg-surface text-left text-xs text-muted">
          <div role="row" aria-rowindex={1} className={`${COLUMNS} items-center`} style={{ height: ROW_HEIGHT }}>
            <span role="columnheader" className="px-2 font-medium">Span</span>
            <span role="columnheader" className="px-2 font-medium">Status A / B</span>
            <span role="columnheader" className="px-2 text-right font-medium">Duration A / B</span>
            <span role="columnheader" className="px-2 text-right font-medium">Tokens A / B</span>
            <span role="columnheader" className="px-2 text-right font-medium">Cost A / B</span>
          </div>
        </div>
        <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const [name, occurrence, type, only, differs, status, duration, tokens, cost] = rows[item.index];
            const diff = new Set(differs.split(' '));
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                data-testid="compare-span"
                data-index={item.index}
                data-last={item.index === rows.length - 1 || undefined}
                data-differs={differs || undefined}
                className={`${COLUMNS} absolute inset-x-0 top-0 items-center border-t border-border`}
                style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <span role="cell" className="flex min-w-0 items-center gap-1.5 px-2">
                  <SpanTypeBadge type={type} />
                  <span className="truncate" title={name}>
                    {name}
                  </span>
                  {occurrence > 0 && <span className="text-xs text-muted">#{occurrence + 1}</span>}
                  {only && <span className="shrink-0 text-xs text-muted">(only in {only})</span>}
                </span>
                <span role="cell" className={`truncate px-2 ${mark(diff.has('status'))}`}>
                  {status}
                </span>
                <span role="cell" className={`truncate px-2 text-right tabular ${mark(diff.has('duration'))}`}>
                  {duration}
                </span>
                <span role="cell" className={`truncate px-2 text-right tabular ${mark(diff.has('tokens'))}`}>
                  {tokens}
                </span>
                <span role="cell" className={`truncate px-2 text-right tabular ${mark(diff.has('cost'))}`}>
                  {cost}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
