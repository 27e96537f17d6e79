// React Query options for the review queue (GET /api/review/next). The filters live in the
// URL of /review; the items skipped in this sitting are sent along so they stay skipped.
import { queryOptions } from '@tanstack/react-query';
import { REVIEW_FILTER_KEYS, SKIP_SEPARATOR, type ReviewFilterKey, type ReviewNext } from '@/lib/scores/review-types';
import { fetchJson } from './traces';

export type { ReviewNext };
export type ReviewUrlFilters = Partial<Record<ReviewFilterKey, string>>;
export interface SkippedItem {
  traceId: string;
  decisionPointId: string;
}

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
  next: (filters: ReviewUrlFilters, skipped: readonly SkippedItem[]) =>
    queryOptions({
      queryKey: [...reviewQueries.all(), 'next', filters, skipped] as const,
      queryFn: ({ signal }) => {
        const q = new URLSearchParams();
        for (const key of REVIEW_FILTER_KEYS) if (filters[key]) q.set(key, filters[key]);
        for (const s of skipped) q.append('skip', `${s.traceId}${SKIP_SEPARATOR}${s.decisionPointId}`);
        return fetchJson<ReviewNext>(`/api/review/next?${q}`, { signal });
      },
      // Each answer holds an item for this reviewer: always ask again, never reuse an old one.
      staleTime: 0,
      gcTime: 0,
    }),
};
