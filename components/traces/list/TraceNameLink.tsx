'use client';

import Link, { useLinkStatus } from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition, type MouseEvent } from 'react';
import { traceHref, traceMatchHref } from '@/lib/client/traces';
import type { TraceListItem } from '@/lib/features/traces/shared';
import { Spinner } from '@/components/ui/states';

/** A spinner beside a trace link while its page loads (the detail page is not streamed: its 404 must be a real one). */
function LinkPending() {
  const { pending } = useLinkStatus();
  return pending ? <Spinner className="ml-1.5 shrink-0 text-muted" label="Opening trace" /> : null;
}

/**
 * Opening a trace from the list, as the table's rows and the cards do it: where its link
 * goes (to the search's first match when there is a search), and a click anywhere on the
 * row or card but its own links and controls, with a spinner until the page is there.
 */
export function useTraceOpener(q: string | undefined) {
  const router = useRouter();
  const [opening, startOpening] = useTransition();
  const [openingId, setOpeningId] = useState<string | null>(null);
  const hrefOf = (t: TraceListItem) => (q ? traceMatchHref(t.id, q, t.matches) : traceHref(t.id));
  const open = (e: MouseEvent<HTMLElement>, t: TraceListItem) => {
    // Links, buttons and checkboxes inside do their own thing; selecting text is not a click.
    if ((e.target as HTMLElement).closest('a, button, input, select')) return;
    if (window.getSelection()?.toString()) return;
    if (e.metaKey || e.ctrlKey) {
      window.open(hrefOf(t), '_blank', 'noopener');
      return;
    }
    setOpeningId(t.id);
    startOpening(() => router.push(hrefOf(t)));
  };
  return { hrefOf, open, isOpening: (id: string) => opening && openingId === id };
}

/**
 * A trace's name as the link to it, with the spinner of its opening. `marker` is the data
 * attribute the list's Up/Down keys move between.
 */
export function TraceNameLink({
  trace,
  href,
  opening,
  marker,
  className = '',
}: {
  trace: TraceListItem;
  href: string;
  opening: boolean;
  marker: 'data-row-link' | 'data-card-link';
  className?: string;
}) {
  return (
    <>
      <Link
        href={href}
        // Twenty rows of heavy pages: prefetching each would cost more than the click saves.
        prefetch={false}
        {...{ [marker]: '' }}
        className={`flex min-w-0 items-center font-medium text-fg hover:text-accent hover:underline ${className}`}
        title={`${trace.name} (${trace.id})`}
      >
        <span className="truncate">{trace.name}</span>
        <LinkPending />
      </Link>
      {opening && <Spinner className="ml-1.5 shrink-0 text-muted" label="Opening trace" />}
    </>
  );
}

/** The runs picked to compare (at most two, in the order picked), and how a row or card picks or drops one. */
export interface CompareSelection {
  selected: string[];
  onToggle: (id: string) => void;
}

/** The checkbox that picks a run to compare; with two picked, the others wait until one is cleared. */
export function CompareCheckbox({ trace, selection, className = '' }: { trace: TraceListItem; selection: CompareSelection; className?: string }) {
  const { selected, onToggle } = selection;
  const checked = selected.includes(trace.id);
  const full = selected.length >= 2 && !checked;
  return (
    <input
      type="checkbox"
      checked={checked}
      disabled={full}
      onChange={() => onToggle(trace.id)}
      aria-label={`Select ${trace.name} (${trace.id}) to compare`}
      title={full ? 'Two runs are selected: clear one to pick another' : 'Select to compare'}
      className={`shrink-0 accent-accent ${className}`}
      data-testid="compare-select"
    />
  );
}
