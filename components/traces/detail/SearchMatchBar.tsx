'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { traceQueries } from '@/lib/client/traces';
import { Highlight } from '@/components/ui/Highlight';
import type { Selection, TraceModel } from './model';
import { labelMatches, type FoundMatch } from './search-matches';

/** The search field's id, for the `/` key. */
export const TRACE_SEARCH_ID = 'trace-search';

const KIND: Record<FoundMatch['kind'], string> = { trace: 'Trace', span: 'Span', decision: 'Decision', event: 'Event' };
/** Typing pauses this long before the term goes to the URL and the server. */
const TYPING_PAUSE_MS = 250;

/**
 * Find in this trace: names, inputs, outputs, metadata, reasoning (the server searches,
 * as the page holds no payloads). The term lives in the URL (`?q=`, also how the list's
 * search opens a trace); the bar counts the places, shows the current one's text with
 * the term marked, and steps through them with Previous/Next (Enter, Shift+Enter), each
 * selecting its span, decision point or event and showing it.
 */
export function SearchMatchBar({
  model,
  q,
  selection,
  onQuery,
  onShow,
  onMatches,
}: {
  model: TraceModel;
  q: string;
  selection: Selection | null;
  onQuery: (q: string) => void;
  onShow: (match: FoundMatch) => void;
  /** The places found for the current term (empty while none), for the tree to mark. */
  onMatches?: (matches: FoundMatch[]) => void;
}) {
  const [text, setText] = useState(q);
  const [typedFor, setTypedFor] = useState(q);
  // The URL changed from outside (a link, back): show its term.
  if (q !== typedFor) {
    setTypedFor(q);
    setText(q);
  }
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  const send = (value: string) => {
    clearTimeout(pending.current ?? undefined);
    setTypedFor(value);
    onQuery(value);
  };
  const type = (value: string) => {
    setText(value);
    clearTimeout(pending.current ?? undefined);
    pending.current = setTimeout(() => send(value), TYPING_PAUSE_MS);
  };

  const query = useQuery({ ...traceQueries.search(model.trace.id, q), enabled: q !== '' });
  // Only the answer for the term on screen counts: a slower answer for an earlier term is never shown.
  const answer = q !== '' && query.data?.q === q ? query.data : null;
  const matches = useMemo(() => (answer ? labelMatches(model, answer.matches) : []), [answer, model]);
  useEffect(() => onMatches?.(matches), [matches, onMatches]);

  // The place shown: the selected row's first match when the URL selects one (a link
  // from the list selects the first matching row), else the first place.
  const selectedIndex = selection ? matches.findIndex((m) => m.kind === selection.kind && m.id === selection.id) : -1;
  const [cursor, setCursor] = useState<{ q: string; index: number } | null>(null);
  const index = cursor && cursor.q === q && cursor.index < matches.length ? cursor.index : Math.max(0, selectedIndex);
  const current = matches[index];

  // A new term's first place is shown as soon as it is found, unless the URL already
  // selects one of its places (a link from the list's search).
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    if (!answer || shownFor.current === answer.q) return;
    shownFor.current = answer.q;
    if (matches.length > 0 && selectedIndex === -1) onShow(matches[0]);
  }, [answer, matches, selectedIndex, onShow]);

  const step = (by: number) => {
    if (matches.length === 0) return;
    const next = (index + by + matches.length) % matches.length;
    setCursor({ q, index: next });
    onShow(matches[next]);
  };

  let status = '';
  if (q !== '') {
    if (query.isError && !answer) status = `search failed: ${query.error.message}`;
    else if (!answer) status = 'searching…';
    else if (matches.length === 0) status = 'not found in this trace';
    else status = `${index + 1} of ${matches.length}${answer.truncated ? '+' : ''}`;
  }

  return (
    <section
      aria-label="Search matches"
      className={`flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 rounded-md border px-2 py-1 text-sm ${
        q ? 'border-yellow-300 bg-yellow-50 dark:border-yellow-700/60 dark:bg-yellow-950/40' : 'border-border'
      }`}
    >
      <input
        id={TRACE_SEARCH_ID}
        type="search"
        value={text}
        onChange={(e) => type(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          if (text !== q) send(text);
          else step(e.shiftKey ? -1 : 1);
        }}
        placeholder="Find in this trace… (/)"
        aria-keyshortcuts="/"
        aria-label="Find in this trace"
        maxLength={200}
        className="h-7 w-48 min-w-0 shrink rounded border border-border-strong bg-bg px-2 text-sm sm:w-64"
      />
      {q && (
        <span className="shrink-0 font-medium" aria-live="polite">
          “{q}”: {status}
        </span>
      )}
      {current && (
        <span className="min-w-0 flex-1 basis-48 truncate" data-search-match={`${current.kind}:${current.id}`} title={current.snippet}>
          <span className="text-muted">
            {KIND[current.kind]} {current.kind === 'trace' ? '' : `“${current.label}” `}· {current.field}:
          </span>{' '}
          <Highlight text={current.snippet} term={q} />
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
