'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';
import { insightsQueryString, readInsightsState, type InsightsUrlState } from '@/lib/client/insights';

type State = Omit<InsightsUrlState, 'problem'>;

/**
 * The page's state lives in the URL only, changed through the History API (which Next
 * wires into useSearchParams), as the trace list does: no server round trip, React Query
 * fetches the figures, and Back/Forward, reload and shared links all give the same view.
 */
export function useInsightsUrl(): InsightsUrlState & { navigate: (next: State) => void } {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const state = readInsightsState(searchParams);
  const hrefFor = useCallback((next: State) => `${pathname}${insightsQueryString(next)}`, [pathname]);
  const navigate = useCallback(
    (next: State) => {
      const url = hrefFor(next);
      if (url !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, '', url);
    },
    [hrefFor],
  );
  return { ...state, navigate };
}
