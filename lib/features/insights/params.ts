// The parameters every insights call shares: the window and the trace filters.
import type { FilterQuery } from '@/lib/features/query';
import { AppError } from '@/lib/core/errors';
import { parseTraceFilters } from '@/lib/features/query';
import type { InsightsParams } from './types';

/** The window when the caller gives neither end: the last 24 hours. */
export const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;

// PostgreSQL has no year 0: a default start never goes before year 1.
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');

/**
 * `from` and `to` (ISO 8601, as ingest reads dates; `to` defaults to now, `from` to 24
 * hours before `to`) and the trace filters name (exact), tag, sessionId and status.
 * Invalid values are a VALIDATION error naming the parameter.
 */
export function parseInsightsParams(query: FilterQuery, now: Date = new Date()): InsightsParams {
  const { from, to, ...filters } = parseTraceFilters(query, ['from', 'to', 'name', 'tag', 'sessionId', 'status']);
  const end = to ?? now.toISOString();
  const start = from ?? new Date(Math.max(EARLIEST, Date.parse(end) - DEFAULT_WINDOW_MS)).toISOString();
  // Both given were compared already; a default end can still precede a given start.
  if (Date.parse(start) > Date.parse(end)) throw new AppError('VALIDATION', 'Invalid from parameter: must not be after to');
  return { from: start, to: end, ...filters };
}
