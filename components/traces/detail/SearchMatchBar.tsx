'use client';

import { useMemo, useState } from 'react';
import type { TraceDetail } from '@/lib/traces/types';
import { Highlight } from '@/components/ui/Highlight';
import type { Selection } from './model';
import { findSearchMatches, snippetAround, type FoundMatch } from './search-matches';

const KIND: Record<FoundMatch['kind'], string> = { trace: 'Trace', span: 'Span', decision: 'Decision', event: 'Event' };

/**
 * The detail page opened from a full-text search (`?q=`): where the term is in this
 * trace, the current place's text with the term marked, and Previous/Next to step
 * through the places (each selects its span, decision point or event and shows it).
 */
export function SearchMatchBar({
  trace,
  q,
  selection,
  onShow,
}: {
  trace: TraceDetail;
  q: string;
  selection: Selection | null;
  onShow: (match: FoundMatch) => void;
}) {
  const matches = useMemo(() => findSearchMatches(trace, q), [trace, q]);
  // The place shown: the selected row's first match when the URL selects one (a link
  // from the list selects the first matching row), else the first place.
  const selectedIndex = selection ? matches.findIndex((m) => m.kind === selection.kind && m.id === selection.id) : -1;
  const [cursor, setCursor] = useState<number | null>(null);
  const index = cursor ?? Math.max(0, selectedIndex);
  const current = matches[index];

  const step = (by: number) => {
    const next = (index + by + matches.length) % matches.length;
    setCursor(next);
    onShow(matches[next]);
  };

  return (
    <section
      aria-label="Search matches"
      className="flex min-w-0 items-center gap-3 rounded-md border border-yellow-300 bg-yellow-50 px-3 py-1.5 text-sm dark:border-yellow-700/60 dark:bg-yellow-950/40"
    >
      <span className="shrink-0 font-medium">
        “{q}”: {matches.length === 0 ? 'not found in this trace' : `${index + 1} of ${matches.length}`}
      </span>
      {current && (
        <span className="min-w-0 flex-1 truncate" data-search-match={`${current.kind}:${current.id}`} title={current.text}>
          <span className="text-muted">
            {KIND[current.kind]} {current.kind === 'trace' ? '' : `“${current.label}” `}· {current.field}:
          </span>{' '}
          <Highlight text={snippetAround(current.text, q)} term={q} />
        </span>
      )}
      {matches.length > 1 && (
        <span className="ml-auto flex shrink-0 gap-1">
          <button type="button" onClick={() => step(-1)} className="rounded border border-border-strong bg-bg px-2 py-0.5 text-xs hover:bg-surface-2">
            Previous
          </button>
          <button type="button" onClick={() => step(1)} className="rounded border border-border-strong bg-bg px-2 py-0.5 text-xs hover:bg-surface-2">
            Next match
          </button>
        </span>
      )}
    </section>
  );
}
