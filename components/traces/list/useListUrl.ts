'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';
import { withoutListFilter } from '@/lib/queries/list-filters';
import { listQueryString, readListState, type ListUrlState } from '@/lib/queries/traces';
import type { ListParams } from '@/lib/traces/types';

/**
 * The list's state lives in the URL only. Changes go through the History API, which
 * Next wires into useSearchParams: no server round trip, React Query fetches the
 * rows, and Back/Forward, reload and shared links all give the same view.
 */
export function useListUrl(): ListUrlState & {
  navigate: (next: ListParams, mode?: 'push' | 'replace') => void;
  hrefFor: (next: ListParams) => string;
} {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const state = readListState(searchParams);

  const hrefFor = useCallback((next: ListParams) => `${pathname}${listQueryString(next)}`, [pathname]);
  const navigate = useCallback(
    (next: ListParams, mode: 'push' | 'replace' = 'push') => {
      const url = hrefFor(next);
      if (url === `${window.location.pathname}${window.location.search}`) return;
      if (mode === 'push') window.history.pushState(null, '', url);
      else window.history.replaceState(null, '', url);
    },
    [hrefFor],
  );

  return { ...state, navigate, hrefFor };
}

/** Params with the filters changed and paging back on page 1. */
export function withFilters(params: ListParams, change: Partial<Omit<ListParams, 'page' | 'limit'>>): ListParams {
  return withoutListFilter({ ...params, ...change, page: 1 });
}
