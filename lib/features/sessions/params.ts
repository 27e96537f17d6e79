// GET /api/sessions' query parameters, read with the trace list's own rules and messages.
import 'server-only';
import { enumParam, invalidParam, parseListParams, parseTraceFilters, textParam } from '@/lib/features/query';
import { RUN_STATUSES, type RunStatus } from '@/lib/features/traces/shared';
import type { SessionListParams } from './types';

/** A session id is at most this long, so a longer search could match nothing. */
const MAX_SEARCH_CHARS = 200;

/**
 * Strict page and limit as GET /api/traces reads them; from, to, range and userId as its
 * filters; search (a substring of the session id) and status (the session's).
 */
export function parseSessionListParams(query: URLSearchParams): SessionListParams {
  const paging = new URLSearchParams();
  for (const name of ['page', 'limit']) {
    const value = query.get(name);
    if (value !== null) paging.set(name, value);
  }
  const { page, limit } = parseListParams(paging);
  const { from, to, range, userId } = parseTraceFilters(query, ['userId', 'from', 'to', 'range']);
  const search = textParam(query, 'search');
  if (search !== undefined && Array.from(search).length > MAX_SEARCH_CHARS) throw invalidParam('search', `must be at most ${MAX_SEARCH_CHARS} characters`);
  const status = enumParam<RunStatus>(query, 'status', RUN_STATUSES);
  return {
    page,
    limit,
    ...(from && { from }),
    ...(to && { to }),
    ...(range && { range }),
    ...(userId !== undefined && { userId }),
    ...(search !== undefined && { search }),
    ...(status && { status }),
  };
}
