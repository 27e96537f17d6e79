'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRef, useState } from 'react';
import { hasListFilters } from '@/lib/client/list-filters';
import { scoreQueries } from '@/lib/client/scores';
import { LIVE_REFRESH_MS, traceQueries } from '@/lib/client/traces';
import { formatTokens } from '@/lib/core/format';
import { ErrorState, Spinner } from '@/components/ui/states';
import { DeleteSessionButton } from '@/components/traces/delete/DeleteSessionButton';
import { useHydrationMarker } from '@/components/ui/time';
import { ActiveFilters } from './ActiveFilters';
import { DemoDataBanner } from './DemoData';
import { EmptyTraces } from './EmptyTraces';
import { ExportMenu } from './ExportMenu';
import { Pagination } from './Pagination';
import { TraceFilters } from './TraceFilters';
import { TraceCards } from './TraceCards';
import { TraceTable } from './TraceTable';
import { ColumnChooser } from './ColumnChooser';
import { SavedViews } from './SavedViews';
import { useListColumns } from './columns';
import { useColumnWidths, useCompactRows } from './tablePrefs';
import { useListKeys } from './useListKeys';
import { clearFilters, useListUrl, withFilters } from './useListUrl';

export function TraceListView({ serverNow, origin }: { serverNow: number; origin: string }) {
  const { params, problem, navigate, hrefFor } = useListUrl();
  const query = useQuery({ ...traceQueries.list(params), enabled: problem === null });
  const tableTop = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useListColumns();
  const [widths, setWidth] = useColumnWidths();
  const [compact, setCompact] = useCompactRows();
  // Runs picked to compare, in the order picked (a, then b); kept across pages and filters.
  const [selected, setSelected] = useState<string[]>([]);
  const toggleSelected = (id: string) =>
    setSelected((now) => (now.includes(id) ? now.filter((x) => x !== id) : now.length >= 2 ? now : [...now, id]));
  const compare = { selected, onToggle: toggleSelected };
  // Score columns to offer: the configured names and those on the rows shown.
  const configs = useQuery(scoreQueries.configs());
  const scoreNames = [...new Set([...(configs.data ?? []).map((c) => c.name), ...(query.data?.traces ?? []).flatMap((t) => (t.scoreSummary ?? []).map((s) => s.name))])];
  useListKeys();
  useHydrationMarker('list');

  const data = query.data;
  const hasFilters = hasListFilters(params);
  const running = data?.traces.filter((t) => t.status === 'RUNNING').length ?? 0;
  // Placeholder rows are the previous page's, kept on screen while the next ones load.
  const busy = query.isPlaceholderData && query.isFetching;

  const scrollToTable = () => {
    const el = tableTop.current;
    if (el && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: 'start' });
  };

  let body;
  if (problem) {
    body = (
      <ErrorState title="This link has filters the list cannot use" message={problem}>
        <Link href="/traces" className="mt-3 inline-block font-medium text-red-900 underline dark:text-red-100">
          Show all traces
        </Link>
      </ErrorState>
    );
  } else if (!data && query.isError) {
    body = (
      <ErrorState
        title="Could not load traces"
        message={query.error.message}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (!data) {
    body = <TableSkeleton rows={Math.min(params.limit, 12)} />;
  } else if (data.total === 0 && !hasFilters) {
    body = <EmptyTraces origin={origin} />;
  } else if (data.total === 0) {
    body = (
      <div className="rounded-lg border border-dashed border-border-strong bg-surface p-8 text-center">
        <h2 className="text-base font-semibold">No traces match these filters</h2>
        <p className="mt-1 text-muted">Try a shorter name, another status, or clear the filters.</p>
        <button
          type="button"
          onClick={() => navigate(clearFilters)}
          className="mt-3 font-medium text-accent hover:underline"
        >
          Clear filters
        </button>
      </div>
    );
  } else if (data.traces.length === 0) {
    body = (
      <div className="rounded-lg border border-dashed border-border-strong bg-surface p-8 text-center">
        <h2 className="text-base font-semibold">Page {params.page} is past the end</h2>
        <p className="mt-1 text-muted">
          There {data.totalPages === 1 ? 'is 1 page' : `are ${formatTokens(data.totalPages)} pages`} of traces.
        </p>
        <button
          type="button"
          onClick={() => navigate({ ...params, page: Math.max(1, data.totalPages) })}
          className="mt-3 font-medium text-accent hover:underline"
        >
          Go to the last page
        </button>
      </div>
    );
  } else {
    const rowProps = {
      traces: data.traces,
      serverNow,
      busy,
      onSession: (sessionId: string) => navigate((current) => ({ page: 1, limit: current.limit, sessionId })),
      onTag: (tag: string) => navigate((current) => withFilters(current, { tag: [...new Set([...(current.tag ?? []), tag])] })),
      columns,
      q: params.q,
    };
    body = (
      <>
        {/* The table from lg up; below, the same rows as cards (the table's columns leave a narrower screen no room for names). */}
        <div className="max-lg:hidden">
          <TraceTable
            {...rowProps}
            sort={params.sort}
            order={params.order}
            onSort={(sort, order) => navigate((current) => ({ ...current, sort, order, page: 1 }))}
            compare={compare}
            widths={widths}
            onResize={setWidth}
            compact={compact}
          />
        </div>
        <TraceCards {...rowProps} compare={compare} className="lg:hidden" />
        <Pagination
          params={params}
          total={data.total}
          totalPages={data.totalPages}
          navigate={navigate}
          hrefFor={hrefFor}
          onPaged={scrollToTable}
        />
      </>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h1 className="text-xl font-semibold tracking-tight">Traces</h1>
        {data && data.total > 0 && (
          <span className="text-sm text-muted tabular" title={data.totalExact === false ? 'Estimated: the term is too common to count every match quickly' : undefined}>
            {data.totalExact === false ? 'about ' : ''}
            {formatTokens(data.total)} total
          </span>
        )}
        {/* A fixed slot: the indicator comes and goes without moving anything. */}
        <div className="ml-auto flex h-6 min-w-0 items-center justify-end gap-2 text-sm text-muted sm:min-w-64" aria-live="polite">
          {query.isError && data && <span className="text-red-700 dark:text-red-300">Refresh failed; retrying</span>}
          {running > 0 && (
            <span className="inline-flex items-center gap-2" title={`Refreshing every ${LIVE_REFRESH_MS / 1000} s`}>
              <span aria-hidden="true" className="relative inline-flex h-2 w-2">
                <span className="absolute inline-flex h-full w-full rounded-full bg-blue-500 opacity-60 motion-safe:animate-ping" />
                <span className="relative inline-flex h-2 w-2 rounded-full bg-blue-600 dark:bg-blue-400" />
              </span>
              Live: {running} running, refreshing every {LIVE_REFRESH_MS / 1000} s
            </span>
          )}
          {query.isFetching && <Spinner label="Loading traces" />}
        </div>
        <div className="flex items-center gap-2">
          <SavedViews params={params} columns={columns} navigate={navigate} setColumns={setColumns} />
          <ColumnChooser columns={columns} onChange={setColumns} scoreNames={scoreNames} />
          {/* The table's option: the cards below lg keep their size. */}
          <button
            type="button"
            aria-pressed={compact}
            onClick={() => setCompact(!compact)}
            title="Shorter rows, so more fit on the screen (remembered in this browser)"
            className={`inline-flex h-8 items-center rounded-md border px-2.5 text-sm font-medium text-fg max-lg:hidden ${compact ? 'border-accent bg-accent-soft' : 'border-border-strong bg-bg hover:bg-surface-2'}`}
          >
            Compact rows
          </button>
          <ExportMenu />
        </div>
      </div>

      <DemoDataBanner />
      <TraceFilters params={params} navigate={navigate} />
      <ActiveFilters params={params} navigate={navigate} />
      {params.sessionId && (
        <p className="-mt-1 text-sm text-muted">
          Showing the traces of session <code className="font-mono text-fg">{params.sessionId}</code>.{' '}
          <DeleteSessionButton sessionId={params.sessionId} after="refresh" />
        </p>
      )}

      {selected.length > 0 && <CompareBar selected={selected} onClear={() => setSelected([])} />}

      <div ref={tableTop} className="relative scroll-mt-4">
        {busy && (
          <div
            aria-hidden="true"
            className="absolute inset-x-0 -top-1 z-10 h-0.5 overflow-hidden rounded bg-accent/20"
          >
            <div className="h-full w-1/3 bg-accent motion-safe:animate-[progress_1s_ease-in-out_infinite]" />
          </div>
        )}
        {body}
      </div>
    </div>
  );
}

/** The runs picked in the list: with two, a link to compare them (the first picked is A). */
function CompareBar({ selected, onClear }: { selected: string[]; onClear: () => void }) {
  const [a, b] = selected;
  return (
    <div
      role="region"
      aria-label="Compare runs"
      className="-mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-accent/40 bg-accent-soft px-3 py-2 text-sm"
      data-testid="compare-bar"
    >
      <span aria-live="polite">
        {b ? 'Two runs selected.' : 'One run selected: select another to compare them.'}
      </span>
      {b && (
        <Link
          href={`/traces/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`}
          className="font-medium text-accent hover:underline"
          data-testid="compare-selected"
        >
          Compare the two selected
        </Link>
      )}
      <button type="button" onClick={onClear} className="text-muted hover:text-fg hover:underline">
        Clear selection
      </button>
    </div>
  );
}

export function TableSkeleton({ rows }: { rows: number }) {
  return (
    <div className="overflow-hidden rounded-lg border border-border" aria-busy="true" aria-label="Loading traces">
      <div className="h-9 bg-surface" />
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex h-10 items-center gap-4 border-t border-border px-4">
          <span className="block h-3 w-1/4 animate-pulse rounded bg-surface-2" />
          <span className="block h-3 w-16 animate-pulse rounded bg-surface-2" />
          <span className="block h-3 w-20 animate-pulse rounded bg-surface-2" />
          <span className="ml-auto block h-3 w-1/3 animate-pulse rounded bg-surface-2" />
        </div>
      ))}
    </div>
  );
}
