import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { connection } from 'next/server';
import { pageContext } from '@/lib/transports/pages/context';
import { readListState, traceQueries } from '@/lib/client/traces';
import { listTraces } from '@/lib/features/traces';
import { pathFilterLabels } from '@/lib/features/paths';
import { PathLabelsProvider, type PathLabels } from '@/components/traces/list/PathLabels';
import { TraceListView } from '@/components/traces/list/TraceListView';
import { requestOrigin, requestTime, toSearchParams } from '../_lib/request';

export const metadata: Metadata = { title: 'Traces' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// GET /traces - the list; its state is all in the URL
export default async function TracesPage({ searchParams }: { searchParams: SearchParams }) {
  // Never prerendered: the build must not open the database.
  await connection();
  const { ctx } = await pageContext();
  const query = toSearchParams(await searchParams);
  // The browser reads the URL with the same function, so the seeded cache entry is
  // exactly the one the list asks for: no second fetch, no flash of a skeleton.
  const state = readListState(query);
  const queryClient = new QueryClient();
  if (state.problem === null) {
    queryClient.setQueryData(traceQueries.list(state.params).queryKey, await listTraces(ctx, state.params, { previews: true }));
  }
  // A drill-down's path or fork id, in words for its chip.
  const { path, fork } = state.problem === null ? state.params : {};
  const words = await pathFilterLabels(ctx, { path, fork });
  const labels: PathLabels = {};
  if (path && words.path) labels[path] = words.path;
  if (fork && words.fork) labels[fork] = words.fork;
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <PathLabelsProvider labels={labels}>
        <TraceListView serverNow={requestTime()} origin={requestOrigin(await headers())} />
      </PathLabelsProvider>
    </HydrationBoundary>
  );
}
