// React Query options and requests for the demo data (/api/demo). Safe for client components.
import { queryOptions } from '@tanstack/react-query';
import { fetchJson } from './traces';

/** Who asks: an admin's session, or a browser in open mode, which has no key of its own. */
export type DemoCaller = 'session' | 'open';

// Open mode takes any non-empty key for writes (docs/access-control.md); the browser has
// none, so it names one. A session needs nothing: its cookie goes along.
const headersFor = (caller: DemoCaller): Record<string, string> => (caller === 'open' ? { authorization: 'Bearer open-mode' } : {});

export const demoQueries = {
  all: () => ['demo'] as const,
  status: () =>
    queryOptions({
      queryKey: [...demoQueries.all(), 'status'] as const,
      queryFn: ({ signal }) => fetchJson<{ traces: number }>('/api/demo', { signal }),
    }),
};

export function loadDemo(caller: DemoCaller): Promise<{ traces: number; replaced: number }> {
  return fetchJson('/api/demo', { method: 'POST', headers: headersFor(caller) });
}

export function removeDemo(caller: DemoCaller): Promise<{ removed: number }> {
  return fetchJson('/api/demo', { method: 'DELETE', headers: headersFor(caller) });
}
