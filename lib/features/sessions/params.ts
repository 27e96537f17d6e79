// GET /api/sessions' query parameters, read with the trace list's own rules and messages.
import 'server-only';
import { parseTraceFilters } from '@/lib/features/query';
import { parseListParams } from '@/lib/features/query';
import type { SessionListParams } from './types';

/** Strict page and limit as GET /api/traces reads them; from, to and userId as its filters. */
export function parseSessionListParams(query: URLSearchParams): SessionListParams {
  const paging = new URLSearchParams();
  for (const name of ['page', 'limit']) {
    const value = query.get(name);
    if (value !== null) paging.set(name, value);
  }
  const { page, limit } = parseListParams(paging);
  const { from, to, userId } = parseTraceFilters(query, ['userId', 'from', 'to']);
  return { page, limit, ...(from && { from }), ...(to && { to }), ...(userId !== undefined && { userId }) };
}
