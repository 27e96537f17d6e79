import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { pageContext } from '@/lib/transports/pages/context';
import { decisionInsights } from '@/lib/features/insights';
import { overviewInsights } from '@/lib/features/insights';
import { insightsQueries, readInsightsState, resolveInsightsRequest } from '@/lib/client/insights';
import { InsightsView } from '@/components/insights/InsightsView';
import { requestTime, toSearchParams } from '../traces/_lib/request';

export const metadata: Metadata = { title: 'Insights' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// GET /insights - what agents decide and how the fleet is doing; its state is all in the URL
export default async function InsightsPage({ searchParams }: { searchParams: SearchParams }) {
  // Never prerendered: the build must not open the database.
  await connection();
  const { ctx } = await pageContext();
  const now = requestTime();
  const state = readInsightsState(toSearchParams(await searchParams));
  const queryClient = new QueryClient();
  // The browser resolves the same window from the same clock (serverNow), so the seeded
  // entries are exactly the ones it asks for: no second fetch, no skeleton.
  const req = state.problem ? null : resolveInsightsRequest(state, now);
  if (req && !('problem' in req)) {
    const [overview, decisions] = await Promise.all([overviewInsights(ctx, req), decisionInsights(ctx, req)]);
    queryClient.setQueryData(insightsQueries.overview(req).queryKey, overview);
    queryClient.setQueryData(insightsQueries.decisions(req).queryKey, decisions);
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <InsightsView serverNow={now} />
    </HydrationBoundary>
  );
}
