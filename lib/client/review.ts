// React Query options for the review queue (POST /api/review/next: each answer holds its
// item for this reviewer, hence a POST). The filters live in the URL of /review; the items
// skipped in this sitting are sent along so they stay skipped. Only types come from
// lib/reviews (a server module).
import { queryOptions } from '@tanstack/react-query';
import type { ReviewItem, ReviewKey, ReviewNext } from '@/lib/features/reviews';
import { fetchJson } from './traces';

export type { ReviewItem, ReviewKey, ReviewNext };

/** The queue's filters, as the URL of /review and POST /api/review/next name them. */
export const REVIEW_FILTER_KEYS = ['type', 'option', 'name', 'status', 'from', 'to'] as const;
export type ReviewUrlFilters = Partial<Record<(typeof REVIEW_FILTER_KEYS)[number], string>>;

/** The filters of a URL's query, each once, empty ones dropped. */
export function readReviewFilters(query: Pick<URLSearchParams, 'get'>): ReviewUrlFilters {
  const out: ReviewUrlFilters = {};
  for (const key of REVIEW_FILTER_KEYS) {
    const value = query.get(key)?.trim();
    if (value) out[key] = value;
  }
  return out;
}

export const reviewQueries = {
  all: () => ['review'] as const,
  next: (filters: ReviewUrlFilters, skipped: readonly ReviewKey[]) =>
    queryOptions({
      queryKey: [...reviewQueries.all(), 'next', filters, skipped] as const,
      queryFn: ({ signal }) => {
        const q = new URLSearchParams();
        for (const key of REVIEW_FILTER_KEYS) if (filters[key]) q.set(key, filters[key]);
        return fetchJson<ReviewNext>(`/api/review/next?${q}`, {
          method: 'POST',
          signal,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ skip: skipped }),
        });
      },
      // Each answer holds an item for this reviewer: always ask again, never reuse an old one.
      staleTime: 0,
      gcTime: 0,
    }),
};
