'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { insightsQueries, insightsQueryString, resolveInsightsRequest } from '@/lib/client/insights';
import { ErrorState, Skeleton, Spinner } from '@/components/ui/states';
import { DateTime, useHydrationMarker, useNow, useTimeZone } from '@/components/ui/time';
import { DecisionsSection } from './DecisionsSection';
import { InsightsFilters } from './InsightsFilters';
import { OptionsRanking } from './OptionsRanking';
import { OverviewSection } from './OverviewSection';
import { RangePicker } from './RangePicker';
import { RatesByName } from './RatesByName';
import { ScoresSection } from './ScoresSection';
import { CHART_COLOR_VARS, windowTitle } from './theme';
import { useInsightsUrl } from './useInsightsUrl';

export function InsightsView({ serverNow }: { serverNow: number }) {
  const { navigate, ...state } = useInsightsUrl();
  // The shared clock: a preset window moves on each minute (lib/client/insights.ts).
  const now = useNow(serverNow);
  const resolved = state.problem ? { problem: state.problem } : resolveInsightsRequest(state, now);
  const req = 'problem' in resolved ? null : resolved;
  // Queries need a request even when disabled (a link the page cannot use).
  const asked = req ?? { from: '', to: '', bucket: 'hour' as const };
  const overview = useQuery({ ...insightsQueries.overview(asked), enabled: req !== null });
  const decisions = useQuery({ ...insightsQueries.decisions(asked), enabled: req !== null });
  // Scores over time are their own call: the page shows the rest without waiting for them.
  const scores = useQuery({ ...insightsQueries.scores(asked), enabled: req !== null });
  useHydrationMarker('insights');
  const zone = useTimeZone();

  // Placeholder figures answer the previous request: when this one fails, say so rather than show them.
  const failed = [overview, decisions].find((q) => q.isError && (!q.data || q.isPlaceholderData));
  const busy = (overview.isPlaceholderData || decisions.isPlaceholderData) && (overview.isFetching || decisions.isFetching);
  const o = overview.data;
  const d = decisions.data;
  // Placeholder figures belong to the previous request: drill-downs use the window they were computed for.
  const shownReq = o && req ? { ...req, from: o.from, to: o.to, bucket: o.bucket } : req;

  let body;
  if ('problem' in resolved) {
    body = (
      <ErrorState title="This link has settings the page cannot use" message={resolved.problem}>
        <Link href="/insights" className="mt-3 inline-block font-medium text-red-900 underline dark:text-red-100">
          Show the last 24 hours
        </Link>
      </ErrorState>
    );
  } else if (failed) {
    body = (
      <ErrorState
        title="Could not load the insights"
        message={failed.error?.message}
        onRetry={() => {
          void overview.refetch();
          void decisions.refetch();
        }}
        retrying={overview.isFetching || decisions.isFetching}
      />
    );
  } else if (!o || !d || !shownReq) {
    body = <InsightsSkeleton />;
  } else if (o.totals.traces === 0) {
    const filtered = Object.values(state.filters).some(Boolean);
    body = (
      <div className="rounded-lg border border-dashed border-border-strong bg-surface p-8 text-center" data-testid="insights-empty">
        <h2 className="text-base font-semibold">No traces in this window</h2>
        <p className="mt-1 text-muted">
          No trace{filtered ? ' matching these filters' : ''} started between <DateTime iso={o.from} /> and <DateTime iso={o.to} />.
          Try a longer range{filtered ? ' or clear the filters' : ''}.
        </p>
        <div className="mt-3 flex justify-center gap-4">
          {state.range !== '30d' && (
            <button type="button" onClick={() => navigate({ range: '30d', filters: state.filters })} className="font-medium text-accent hover:underline">
              Show the last 30 days
            </button>
          )}
          {filtered && (
            <button type="button" onClick={() => navigate({ ...state, filters: {} })} className="font-medium text-accent hover:underline">
              Clear filters
            </button>
          )}
        </div>
      </div>
    );
  } else {
    body = (
      <div className="flex flex-col gap-6">
        <OverviewSection data={o} req={shownReq} />
        <DecisionsSection data={d} req={shownReq} />
        <OptionsRanking data={d} req={shownReq} />
        {scores.data && <ScoresSection data={scores.data} req={{ ...shownReq, from: scores.data.from, to: scores.data.to }} />}
        <RatesByName data={d} req={shownReq} />
      </div>
    );
  }

  return (
    <div className={`insights-root flex flex-col gap-4 ${CHART_COLOR_VARS}`}>
      <div className="flex items-center gap-3">
        <h1 className="text-xl font-semibold tracking-tight">Insights</h1>
        {o && (
          <span className="text-sm text-muted tabular" data-testid="insights-window">
            {windowTitle(o.from, o.to, zone)}
          </span>
        )}
        <Link href={`/insights/paths${insightsQueryString(state)}`} className="text-sm font-medium text-accent hover:underline">
          Decision paths
        </Link>
        <div className="ml-auto flex h-6 items-center gap-2 text-sm text-muted" aria-live="polite">
          {busy && <Spinner label="Updating the figures" />}
          {busy && <span aria-hidden="true">Updating…</span>}
        </div>
      </div>
      <div className="flex flex-col gap-3">
        <RangePicker state={state} shown={o ? { from: o.from, to: o.to } : null} navigate={navigate} />
        <InsightsFilters state={state} navigate={navigate} />
      </div>
      <div className="relative" aria-busy={busy || undefined}>
        {busy && (
          <div aria-hidden="true" className="absolute inset-x-0 -top-2 z-10 h-0.5 overflow-hidden rounded bg-accent/20">
            <div className="h-full w-1/3 bg-accent motion-safe:animate-[progress_1s_ease-in-out_infinite]" />
          </div>
        )}
        <div className={busy ? 'opacity-60 transition-opacity' : undefined}>{body}</div>
      </div>
    </div>
  );
}

/** Shaped like the page, so nothing jumps when the figures arrive. */
export function InsightsSkeleton() {
  return (
    <div className="flex flex-col gap-6" aria-busy="true" aria-label="Loading the insights">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="rounded-lg border border-border bg-surface px-4 py-3">
            <Skeleton className="h-3 w-16" />
            <Skeleton className="mt-2 h-7 w-24" />
          </div>
        ))}
      </div>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="rounded-lg border border-border bg-surface p-4">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="mt-4 h-[180px] w-full" />
          </div>
        ))}
      </div>
    </div>
  );
}
