'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';
import { withoutListFilter } from '@/lib/client/list-filters';
import { listQueryString, readListState, type ListUrlState } from '@/lib/client/traces';
import type { ListParams } from '@/lib/features/traces/shared';

/** The next list state, or how to make it from the URL's state at the moment of the change. */
export type ListChange = ListParams | ((current: ListParams) => ListParams);
export type ListNavigate = (next: ListChange, mode?: 'push' | 'replace') => void;

/** The params the address bar holds right now (useSearchParams lags until React renders it). */
function paramsInAddressBar(): ListParams {
  return readListState(new URLSearchParams(window.location.search)).params;
}

/**
 * The list's state lives in the URL only. Changes go through the History API, which
 * Next wires into useSearchParams: no server round trip, React Query fetches the
 * rows, and Back/Forward, reload and shared links all give the same view.
 *
 * A change given as a function is applied to the address bar's state, not to the params
 * of the last render: Next renders a pushed URL in a transition, so two changes made
 * before it renders (two debounced fields firing together) must not undo each other.
 */
export function useListUrl(): ListUrlState & {
  navigate: ListNavigate;
  hrefFor: (next: ListParams) => string;
} {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const state = readListState(searchParams);

  const hrefFor = useCallback((next: ListParams) => `${pathname}${listQueryString(next)}`, [pathname]);
  const navigate = useCallback(
    (next: ListChange, mode: 'push' | 'replace' = 'push') => {
      const url = hrefFor(typeof next === 'function' ? next(paramsInAddressBar()) : next);
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

/** The change that sets these filters on whatever the URL holds when it is applied. */
export function changeFilters(change: Partial<Omit<ListParams, 'page' | 'limit'>>): (current: ListParams) => ListParams {
  return (current) => withFilters(current, change);
}

/** The change that clears every filter, keeping the page size. */
export function clearFilters(current: ListParams): ListParams {
  return { page: 1, limit: current.limit };
}
