'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { preload } from 'react-dom';
import { outlineApiUrl, traceQueries } from '@/lib/client/traces';
import type { DecisionType } from '@/lib/features/traces/shared';
import { ErrorState, Spinner } from '@/components/ui/states';
import { useHydrationMarker } from '@/components/ui/time';
import { DecisionList } from './DecisionList';
import { DetailsPanel } from './DetailsPanel';
import { EventList } from './EventList';
import { spanKey } from '@/lib/features/traces/shared';
import { buildModel, readSelection, readTab, selectionKey, type DetailTab, type Selection } from './model';
import { PathView } from './PathView';
import { SearchMatchBar, TRACE_SEARCH_ID } from './SearchMatchBar';
import { matchRowKeys, type FoundMatch } from './search-matches';
import { ResizableSplit } from './ResizableSplit';
import { TraceHeader } from './TraceHeader';
import { TraceTimeline, type FocusRequest } from './TraceTimeline';
import { isTyping, useEscapeToClose } from './useEscapeToClose';

const TABS: DetailTab[] = ['timeline', 'decisions', 'path', 'events'];

/** Writes tab and selection into the URL in place (no history entry per click). */
function writeUrl(change: { tab?: DetailTab; selection?: Selection | null; q?: string }) {
  const q = new URLSearchParams(window.location.search);
  if (change.q !== undefined) {
    if (change.q) q.set('q', change.q);
    else q.delete('q');
  }
  if (change.tab !== undefined) {
    if (change.tab === 'timeline') q.delete('tab');
    else q.set('tab', change.tab);
  }
  if (change.selection !== undefined) {
    q.delete('span');
    q.delete('decision');
    q.delete('event');
    if (change.selection) q.set(change.selection.kind, change.selection.id);
  }
  const qs = q.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${qs ? `?${qs}` : ''}`);
}

// Below Tailwind's lg breakpoint the details are a full-screen sheet over the page.
const NARROW_QUERY = '(width < 64rem)';

function subscribeNarrow(listener: () => void): () => void {
  const media = window.matchMedia(NARROW_QUERY);
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

/** True where the details open as a sheet; false on the server and in wide windows. */
function useNarrow(): boolean {
  return useSyncExternalStore(subscribeNarrow, () => window.matchMedia(NARROW_QUERY).matches, () => false);
}

const itemId = (s: Selection) => `${s.kind}:${s.id}`;

/** `/` anywhere on the page but in a field focuses the in-trace search, as on the list. */
function useTraceKeys(): void {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== '/' || e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || isTyping(e.target)) return;
      const search = document.getElementById(TRACE_SEARCH_ID);
      if (!(search instanceof HTMLInputElement) || search.getClientRects().length === 0) return;
      e.preventDefault();
      search.focus();
      search.setSelectionRange(search.value.length, search.value.length);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

export function TraceDetailView({ id, serverNow }: { id: string; serverNow: number }) {
  const query = useQuery(traceQueries.detail(id));
  // A large trace's outline is not in the page: ask for it from the document itself, so the
  // request runs while the code loads and hydrates. Called while the server renders the HTML
  // (a server component's preload() only reaches the browser in the flight data, read at
  // hydration). Same URL, CORS mode and credentials as the query's fetch(), so Chromium,
  // Firefox and Safari hand that fetch the preloaded answer.
  if (query.data === undefined) preload(outlineApiUrl(id), { as: 'fetch', crossOrigin: 'anonymous' });
  const searchParams = useSearchParams();
  const tab = readTab(searchParams);
  const selection = readSelection(searchParams);
  const trace = query.data;
  const model = useMemo(() => (trace ? buildModel(trace) : null), [trace]);
  useHydrationMarker('detail');

  const [decisionType, setDecisionType] = useState<DecisionType | null>(null);
  const nonce = useRef(0);
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  // A link to a selected row opens with that row in view, once the trace is there (a
  // large trace's outline arrives after the page).
  const [linkSelection] = useState(selection);
  const linkFocus = useMemo<FocusRequest | null>(() => {
    const key = model && linkSelection ? selectionKey(model, linkSelection) : null;
    return key ? { key, nonce: 0 } : null;
  }, [model, linkSelection]);

  // Below lg, "Show in timeline" and "Zoom to span" put the sheet away to show the
  // timeline, keeping the item selected; opening an item brings the sheet back.
  const [sheetHiddenFor, setSheetHiddenFor] = useState<string | null>(null);
  const [zoomRequest, setZoomRequest] = useState<FocusRequest | null>(null);
  const narrow = useNarrow();
  const sheetOpen = narrow && selection !== null && sheetHiddenFor !== itemId(selection);

  // A span's payloads are asked for in the click itself, not after the re-render it causes
  // (the details panel's query would only start once a 10,000-row tree has rendered again).
  const queryClient = useQueryClient();
  const loadPayloads = useCallback(
    (s: Selection | null) => {
      if (s?.kind !== 'span' || !model) return;
      const node = model.tree.byKey.get(spanKey(s.id));
      if (node?.kind === 'span') void queryClient.prefetchQuery(traceQueries.span(id, s.id, node.span.status === 'RUNNING'));
    },
    [id, model, queryClient],
  );
  const select = useCallback(
    (s: Selection | null) => {
      loadPayloads(s);
      setSheetHiddenFor(null);
      writeUrl({ selection: s });
    },
    [loadPayloads],
  );
  const close = useCallback(() => writeUrl({ selection: null }), []);
  useEscapeToClose(selection !== null, close, '[data-testid="details-panel"]');
  const requestFocus = useCallback(
    (s: Selection) => {
      const key = model ? selectionKey(model, s) : null;
      nonce.current += 1;
      if (key) setFocusRequest({ key, nonce: nonce.current });
    },
    [model],
  );
  // "Show in timeline": switch to the timeline, open the row's ancestors, scroll to it.
  const reveal = useCallback(
    (s: Selection) => {
      setSheetHiddenFor(itemId(s));
      writeUrl({ tab: 'timeline', selection: s });
      requestFocus(s);
    },
    [requestFocus],
  );
  const zoomTo = useCallback(
    (spanId: string) => {
      reveal({ kind: 'span', id: spanId });
      setZoomRequest({ key: spanKey(spanId), nonce: nonce.current });
    },
    [reveal],
  );
  // Links inside the side panel select in place, and follow along in the timeline.
  const goTo = useCallback(
    (s: Selection) => {
      loadPayloads(s);
      setSheetHiddenFor(null);
      writeUrl({ selection: s });
      if (readTab(new URLSearchParams(window.location.search)) === 'timeline') requestFocus(s);
    },
    [loadPayloads, requestFocus],
  );

  // From a search: show a match's row in the view that lists it.
  const showMatch = useCallback(
    (m: FoundMatch) => {
      if (m.kind === 'trace') writeUrl({ selection: null });
      else if (m.kind === 'span') reveal({ kind: 'span', id: m.id });
      else writeUrl({ tab: m.kind === 'decision' ? 'decisions' : 'events', selection: { kind: m.kind, id: m.id } });
    },
    [reveal],
  );
  const searchTerm = searchParams.get('q') ?? '';
  const [found, setFound] = useState<FoundMatch[]>([]);
  const matchKeys = useMemo(() => (model ? matchRowKeys(model, found) : new Set<string>()), [model, found]);
  const setQuery = useCallback((q: string) => writeUrl({ q }), []);

  // Walks the failed spans in time order, one per press, wrapping around.
  const errorCursor = useRef(-1);
  const nextError = useCallback(() => {
    if (!model || model.errorKeys.length === 0) return;
    errorCursor.current = (errorCursor.current + 1) % model.errorKeys.length;
    const node = model.tree.byKey.get(model.errorKeys[errorCursor.current]);
    if (node?.kind === 'span') reveal({ kind: 'span', id: node.span.id });
  }, [model, reveal]);

  useTraceKeys();

  if (!model && query.isPending) {
    // A large trace's outline is fetched after the page loads (see the page).
    return (
      <div role="status" className="flex items-center gap-2 py-16 text-muted">
        <Spinner /> Loading the trace…
      </div>
    );
  }
  if (!model) {
    return (
      <ErrorState
        title="Could not load this trace"
        message={query.error?.message}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }

  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = TABS.indexOf(tab);
    let next: number | null = null;
    if (e.key === 'ArrowRight') next = (i + 1) % TABS.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + TABS.length) % TABS.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = TABS.length - 1;
    if (next === null) return;
    e.preventDefault();
    writeUrl({ tab: TABS[next] });
    document.getElementById(`tab-${TABS[next]}`)?.focus();
  };

  const counts: Record<DetailTab, number | null> = {
    timeline: null,
    decisions: model.trace.decisionPoints.length,
    path: null,
    events: model.trace.events.length,
  };
  const labels: Record<DetailTab, string> = { timeline: 'Timeline', decisions: 'Decisions', path: 'Path', events: 'Events' };

  // The sheet covers the page: what is under it is out of reach, for the keyboard and screen readers too.
  const behindSheet = sheetOpen ? { inert: true, 'aria-hidden': true } : {};

  return (
    <div className="flex min-h-[40rem] flex-col gap-2 lg:h-[calc(100dvh-5.5rem)]">
      <div className="contents" {...behindSheet}>
      <TraceHeader
        model={model}
        serverNow={serverNow}
        live={model.trace.status === 'RUNNING'}
        fetching={query.isFetching}
        onDecisionType={(type) => {
          setDecisionType(type);
          writeUrl({ tab: 'decisions' });
        }}
      />
      </div>
      {query.isError && (
        <p role="status" className="text-sm text-red-800 dark:text-red-200">
          Refreshing this trace failed ({query.error.message}); showing the last version received.
        </p>
      )}
      <ResizableSplit
        side={
          <DetailsPanel
            model={model}
            selection={selection}
            onGo={goTo}
            onClose={close}
            onReveal={reveal}
            onZoomTo={zoomTo}
            sheetHidden={selection !== null && sheetHiddenFor === itemId(selection)}
          />
        }
        main={
        <div className="flex min-h-0 flex-col" {...behindSheet}>
          {/* The views' tabs and the in-trace search share a row: the tree gets the height. */}
          <div className="mb-1.5 flex flex-wrap items-end gap-x-3 gap-y-1.5">
          <div role="tablist" aria-label="Trace views" className="flex shrink-0 gap-1 border-b border-border" onKeyDown={onTabKey}>
            {TABS.map((t) => (
              <button
                key={t}
                id={`tab-${t}`}
                type="button"
                role="tab"
                aria-selected={tab === t}
                aria-controls={`panel-${t}`}
                // The badge would run into the label ("Events2"): the name says it apart.
                aria-label={counts[t] === null ? undefined : `${labels[t]} (${counts[t]})`}
                tabIndex={tab === t ? 0 : -1}
                onClick={() => writeUrl({ tab: t })}
                className={`-mb-px shrink-0 border-b-2 px-2 py-1.5 text-sm font-medium sm:px-3 ${
                  tab === t ? 'border-accent text-fg' : 'border-transparent text-muted hover:text-fg'
                }`}
              >
                {labels[t]}
                {counts[t] !== null && (
                  <span aria-hidden="true" className="ml-1.5 rounded-full bg-surface-2 px-1.5 text-xs text-muted tabular">
                    {counts[t]}
                  </span>
                )}
              </button>
            ))}
          </div>
          <div className="min-w-0 flex-1 basis-72">
            <SearchMatchBar model={model} q={searchTerm} selection={selection} onQuery={setQuery} onShow={showMatch} onMatches={setFound} />
          </div>
          </div>
          {/* The timeline stays mounted (hidden) so that its open/closed nodes and scroll survive tab changes. */}
          <div id="panel-timeline" role="tabpanel" aria-labelledby="tab-timeline" hidden={tab !== 'timeline'} className="min-h-0 flex-1">
            <TraceTimeline
              model={model}
              selection={selection}
              selectedKey={selectionKey(model, selection)}
              onSelect={select}
              focusRequest={focusRequest ?? linkFocus}
              zoomRequest={zoomRequest}
              onNextError={nextError}
              matchKeys={matchKeys}
            />
          </div>
          {tab === 'decisions' && (
            <div id="panel-decisions" role="tabpanel" aria-labelledby="tab-decisions" className="min-h-0 flex-1">
              <DecisionList
                model={model}
                selection={selection}
                typeFilter={decisionType}
                onTypeFilter={setDecisionType}
                onSelect={select}
                onReveal={reveal}
              />
            </div>
          )}
          {tab === 'path' && (
            <div id="panel-path" role="tabpanel" aria-labelledby="tab-path" className="min-h-0 flex-1">
              <PathView model={model} onSelect={select} />
            </div>
          )}
          {tab === 'events' && (
            <div id="panel-events" role="tabpanel" aria-labelledby="tab-events" className="min-h-0 flex-1">
              <EventList model={model} selection={selection} onSelect={select} onReveal={reveal} />
            </div>
          )}
        </div>
        }
      />
    </div>
  );
}
