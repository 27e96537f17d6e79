// Aggregates over traces (SOAP run TRACE_STATS): one SQL statement, never a row load.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { isValidId, parseIsoDateTime } from '@/lib/features/ingest/shared';
import { empty, join, sql, type Sql } from '@/lib/db/sql';

export interface TraceStatsParams {
  sessionId?: string;
  /** ISO 8601; traces that started at or after it. */
  from?: string;
  /** ISO 8601; traces that started at or before it. */
  to?: string;
}

export interface TraceStats {
  traceCount: number;
  runningCount: number;
  completedCount: number;
  errorCount: number;
  /** Sum of totalCost; 0 when no trace has one. */
  totalCost: number;
  /** Sum of totalTokens; 0 when no trace has one. */
  totalTokens: number;
  /** Mean totalDuration of the traces that have one; null when none has. */
  avgDuration: number | null;
}

function dateParam(value: string, name: string): Date {
  const date = parseIsoDateTime(value.trim());
  if (!date) throw new AppError('VALIDATION', `${name} must be an ISO 8601 date-time, got "${value}"`);
  return date;
}

export async function traceStats(ctx: ServiceContext, params: TraceStatsParams = {}): Promise<TraceStats> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  const conditions: Sql[] = [];
  if (params.sessionId !== undefined) {
    if (!isValidId(params.sessionId)) throw new AppError('VALIDATION', 'Invalid sessionId');
    conditions.push(sql`"sessionId" = ${params.sessionId}`);
  }
  const from = params.from !== undefined ? dateParam(params.from, 'from') : undefined;
  const to = params.to !== undefined ? dateParam(params.to, 'to') : undefined;
  if (from && to && from > to) throw new AppError('VALIDATION', 'from must not be after to');
  if (from) conditions.push(sql`"startedAt" >= ${from}`);
  if (to) conditions.push(sql`"startedAt" <= ${to}`);
  const where = conditions.length ? sql`WHERE ${join(conditions, ' AND ')}` : empty;

  // Casts keep the driver from handing back bigint/numeric strings.
  const rows = await db.query<TraceStats>(sql`SELECT
      count(*)::int AS "traceCount",
      (count(*) FILTER (WHERE "status" = 'RUNNING'))::int AS "runningCount",
      (count(*) FILTER (WHERE "status" = 'COMPLETED'))::int AS "completedCount",
      (count(*) FILTER (WHERE "status" = 'ERROR'))::int AS "errorCount",
      coalesce(sum("totalCost"), 0)::float8 AS "totalCost",
      coalesce(sum("totalTokens"), 0)::float8 AS "totalTokens",
      avg("totalDuration")::float8 AS "avgDuration"
    FROM "Trace" ${where}`);
  return rows[0];
}
