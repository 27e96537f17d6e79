'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { insightsQueries, insightsQueryString, resolveInsightsRequest } from '@/lib/client/insights';
import { plural } from '@/lib/core/format';
import { ErrorState, Skeleton, Spinner } from '@/components/ui/states';
import { useHydrationMarker, useNow, useTimeZone } from '@/components/ui/time';
import { InsightsFilters } from '../InsightsFilters';
import { RangePicker } from '../RangePicker';
import { windowTitle } from '../theme';
import { useInsightsUrl } from '../useInsightsUrl';
import { FlowDiagram } from './FlowDiagram';
import { ForksTable, PathsTable } from './PathTables';
import { AGENT_NAMES_SHOWN } from '@/lib/features/paths/shared';

export function PathsView({ serverNow }: { serverNow: number }) {
  const { navigate, ...state } = useInsightsUrl();
  const now = useNow(serverNow);
  const resolved = state.problem ? { problem: state.problem } : resolveInsightsRequest(state, now);
  const req = 'problem' in resolved ? null : resolved;
  const asked = req ?? { from: '', to: '', bucket: 'hour' as const };
  const query = useQuery({ ...insightsQueries.paths(asked), enabled: req !== null });
  useHydrationMarker('paths');
  const zone = useTimeZone();
  const data = query.data;
  const busy = query.isPlaceholderData && query.isFetching;
  // Drill-downs use the window the figures were computed for (placeholder data answers the previous request).
  const shownReq = data && req ? { ...req, from: data.from, to: data.to } : req;

  let body;
  if ('problem' in resolved) {
    body = (
      <ErrorState title="This link has settings the page cannot use" message={resolved.problem}>
        <Link href="/insights/paths" className="mt-3 inline-block font-medium text-red-900 underline dark:text-red-100">
          Show the last 24 hours
        </Link>
      </ErrorState>
    );
  } else if (query.isError && (!data || query.isPlaceholderData)) {
    body = (
      <ErrorState title="Could not load the paths" message={query.error?.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );
  } else if (!data || !shownReq) {
    body = <Skeleton className="h-[420px] w-full" />;
  } else if (data.totals.traces === 0) {
    body = (
      <div className="rounded-lg border border-dashed border-border-strong bg-surface p-8 text-center" data-testid="paths-empty">
        <h2 className="text-base font-semibold">No traces in this window</h2>
        <p className="mt-1 text-muted">Try a longer range{Object.values(state.filters).some(Boolean) ? ' or clear the filters' : ''}.</p>
      </div>
    );
  } else {
    body = (
      <div className="flex flex-col gap-6">
        <p className="text-sm text-muted" data-testid="paths-totals">
          {plural(data.totals.traces, 'trace')}, {data.totals.withDecisions} with decisions, along {plural(data.paths.length, 'path')};{' '}
          {plural(new Set(data.forks.map((f) => f.id)).size, 'fork')} where runs chose differently.
        </p>
        {data.agents && data.agents.length > 1 && (
          <div role="note" data-testid="paths-agents" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
            <p>
              These paths mix {data.agents.length > AGENT_NAMES_SHOWN ? `more than ${AGENT_NAMES_SHOWN}` : data.agents.length} agents (trace
              names): a fork compares the runs that reached it with the same steps so far, whichever agent made them, so the first
              decision sets different agents&apos; choices side by side. Pick one agent for its own forks:
            </p>
            <ul className="mt-2 flex flex-wrap gap-2">
              {data.agents.slice(0, AGENT_NAMES_SHOWN).map((name) => (
                <li key={name}>
                  <Link
                    href={`/insights/paths${insightsQueryString({ ...state, filters: { ...state.filters, name } })}`}
                    className="inline-block max-w-[16rem] truncate rounded-full border border-amber-400 bg-bg px-2.5 py-0.5 font-medium text-fg hover:underline dark:border-amber-600"
                    title={name}
                  >
                    {name}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        )}
        <FlowDiagram data={data} req={shownReq} />
        <PathsTable data={data} req={shownReq} />
        <ForksTable data={data} req={shownReq} />
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold tracking-tight">Decision paths</h1>
        {data && (
          <span className="text-sm text-muted tabular" data-testid="paths-window">
            {windowTitle(data.from, data.to, zone)}
          </span>
        )}
        <Link href={`/insights${insightsQueryString(state)}`} className="text-sm text-accent hover:underline">
          Back to insights
        </Link>
        <div className="ml-auto flex h-6 items-center gap-2 text-sm text-muted" aria-live="polite">
          {busy && <Spinner label="Updating the paths" />}
        </div>
      </div>
      <div className="flex flex-col gap-3">
        <RangePicker state={state} shown={data ? { from: data.from, to: data.to } : null} navigate={navigate} />
        <InsightsFilters state={state} navigate={navigate} />
      </div>
      <div className={busy ? 'opacity-60 transition-opacity' : undefined} aria-busy={busy || undefined}>
        {body}
      </div>
    </div>
  );
}
