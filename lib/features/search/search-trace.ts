// GET /api/traces/{id}/search?q=: every place a term occurs inside one trace, for the
// viewer's in-trace search. The viewer holds only the trace's outline (outline.ts), not
// its payloads, so the database answers, with the list's search rule and field order
// (search.ts, findMatches): the trace's own fields, then spans by start time, decision
// points and events by time.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';
import { findMatches } from './search';
import { MAX_QUERY_CHARS } from '@/lib/features/query';
import type { TraceSearchResult } from '@/lib/features/traces/shared';
import { isValidId } from '@/lib/features/ingest/shared';

/** Places reported per search; `truncated` says when there were more. Below 10,000 (findMatches ranks kinds 10^6 apart, rows 100 apart). */
export const MAX_TRACE_MATCHES = 1000;

export async function searchTraceOrThrow(ctx: ServiceContext, traceId: string, q: string | null): Promise<TraceSearchResult> {
  requireScope(ctx, 'read');
  if (!isValidId(traceId)) throw new AppError('VALIDATION', 'Invalid trace ID');
  if (q === null || q === '') throw new AppError('VALIDATION', 'Invalid q parameter: required (the text to find)');
  if (q.includes('\u0000')) throw new AppError('VALIDATION', 'Invalid q parameter: must not contain a NUL character');
  if (Array.from(q).length > MAX_QUERY_CHARS) throw new AppError('VALIDATION', `Invalid q parameter: must be at most ${MAX_QUERY_CHARS} characters`);
  const db = ctx.db.sql;
  const [exists] = await db.query<{ id: string }>(sql`SELECT "id" FROM "Trace" WHERE "id" = ${traceId}`);
  if (!exists) throw new AppError('NOT_FOUND', 'Trace not found');
  // One more than reported tells whether the list was cut.
  const found = (await findMatches(db, [traceId], q, MAX_TRACE_MATCHES + 1)).get(traceId) ?? [];
  return { q, matches: found.slice(0, MAX_TRACE_MATCHES), truncated: found.length > MAX_TRACE_MATCHES };
}
