// React Query options and requests for saved views of the trace list (/api/views). Safe
// for client components: only types come from lib/views.
import { queryOptions } from '@tanstack/react-query';
import type { SavedView, SaveViewInput } from '@/lib/features/views/shared';
import { fetchJson } from './traces';

export type { SavedView, SaveViewInput };

export const viewQueries = {
  all: () => ['views'] as const,
  list: () =>
    queryOptions({
      queryKey: [...viewQueries.all(), 'list'] as const,
      queryFn: async ({ signal }) => (await fetchJson<{ views: SavedView[] }>('/api/views', { signal })).views,
    }),
};

export const viewRequests = {
  save: (input: SaveViewInput) =>
    fetchJson<{ view: SavedView }>('/api/views', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) }),
  remove: (id: string) => fetchJson<{ success: true }>(`/api/views/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};
