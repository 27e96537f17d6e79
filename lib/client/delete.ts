// The viewer's deletes (issue 13): requests to DELETE /api/traces, and the session's
// trace count the confirmation names. Safe for client components.
import { queryOptions } from '@tanstack/react-query';
import type { TraceList } from '@/lib/features/traces/shared';
import { fetchJson } from './traces';

export interface DeleteAnswer {
  success: true;
  count: number;
}

export const deleteRequests = {
  trace: (id: string) => fetchJson<DeleteAnswer>(`/api/traces/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  session: (sessionId: string) => fetchJson<DeleteAnswer>(`/api/traces?${new URLSearchParams({ sessionId })}`, { method: 'DELETE' }),
};

export const sessionQueries = {
  /** How many traces a session holds now (the list's exact total, one row read). */
  traceCount: (sessionId: string) =>
    queryOptions({
      queryKey: ['traces', 'session-count', sessionId] as const,
      queryFn: async ({ signal }) =>
        (await fetchJson<TraceList>(`/api/traces?${new URLSearchParams({ sessionId, limit: '1' })}`, { signal })).total,
      staleTime: 0,
    }),
};
