import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { pageContext } from '@/lib/transports/pages/context';
import { pathInsights } from '@/lib/features/paths';
import { insightsQueries, readInsightsState, resolveInsightsRequest } from '@/lib/client/insights';
import { PathsView } from '@/components/insights/paths/PathsView';
import { requestTime, toSearchParams } from '../../traces/_lib/request';

export const metadata: Metadata = { title: 'Decision paths' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// GET /insights/paths - the fleet's decision paths from the first fork to the outcomes; its state is all in the URL
export default async function PathsPage({ searchParams }: { searchParams: SearchParams }) {
  // Never prerendered: the build must not open the database.
  await connection();
  const { ctx } = await pageContext();
  const now = requestTime();
  const state = readInsightsState(toSearchParams(await searchParams));
  const queryClient = new QueryClient();
  const req = state.problem ? null : resolveInsightsRequest(state, now);
  if (req && !('problem' in req)) {
    queryClient.setQueryData(insightsQueries.paths(req).queryKey, await pathInsights(ctx, req));
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <PathsView serverNow={now} />
    </HydrationBoundary>
  );
}
