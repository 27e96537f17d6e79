// One decision point, span or event by its trace and id, and filtered lists of them
// for one trace, ordered as on the detail route (timestamp or startedAt ascending,
// id breaking ties). Used by the SOAP adapter's SPAN, DECISION and EVENT objects.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { join, sql, type Sql } from '@/lib/db/sql';
import type { DecisionPoint, Event } from '@/lib/generated/prisma/client';
import { toDecisionPointRecord, toEventRecord } from './serialize';
import { SPAN_JSON_SQL } from './detail';
import {
  DECISION_TYPES,
  EVENT_TYPES,
  RUN_STATUSES,
  SPAN_TYPES,
  type DecisionPointRecord,
  type DecisionType,
  type EventRecord,
  type EventType,
  type RunStatus,
  type SpanRecord,
  type SpanType,
} from './types';
import { isValidId } from '@/lib/features/ingest/shared';
import { requireScope, type ServiceContext } from '@/lib/core/context';

/** Upper bound of one child query, whatever the caller asks for. */
export const MAX_CHILD_QUERY = 1000;

function checkIds(traceId: string, id?: string): void {
  if (!isValidId(traceId)) throw new AppError('VALIDATION', 'Invalid trace ID');
  if (id !== undefined && !isValidId(id)) throw new AppError('VALIDATION', 'Invalid ID');
}

function checkEnum<T extends string>(value: string | undefined, allowed: readonly T[], what: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new AppError('VALIDATION', `Invalid ${what}: "${value}"; must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new AppError('VALIDATION', 'Invalid limit');
  return Math.min(limit, MAX_CHILD_QUERY);
}

export async function getSpanOrThrow(ctx: ServiceContext, traceId: string, id: string): Promise<SpanRecord> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  checkIds(traceId, id);
  const [row] = await db.query<{ span: SpanRecord }>(sql`SELECT ${SPAN_JSON_SQL} AS span FROM "Span" c WHERE c."traceId" = ${traceId} AND c."id" = ${id}`);
  if (!row) throw new AppError('NOT_FOUND', 'Span not found');
  return row.span;
}

export async function getDecisionPointOrThrow(ctx: ServiceContext, traceId: string, id: string): Promise<DecisionPointRecord> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  checkIds(traceId, id);
  const [row] = await db.query<DecisionPoint>(sql`SELECT * FROM "DecisionPoint" WHERE "traceId" = ${traceId} AND "id" = ${id}`);
  if (!row) throw new AppError('NOT_FOUND', 'Decision point not found');
  return toDecisionPointRecord(row);
}

export async function getEventOrThrow(ctx: ServiceContext, traceId: string, id: string): Promise<EventRecord> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  checkIds(traceId, id);
  const [row] = await db.query<Event>(sql`SELECT * FROM "Event" WHERE "traceId" = ${traceId} AND "id" = ${id}`);
  if (!row) throw new AppError('NOT_FOUND', 'Event not found');
  return toEventRecord(row);
}

export interface SpanQuery {
  traceId: string;
  type?: string;
  status?: string;
  parentSpanId?: string;
  limit: number;
}

export async function querySpans(ctx: ServiceContext, q: SpanQuery): Promise<SpanRecord[]> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  checkIds(q.traceId);
  const where: Sql[] = [sql`"traceId" = ${q.traceId}`];
  const type = checkEnum<SpanType>(q.type, SPAN_TYPES, 'span type');
  const status = checkEnum<RunStatus>(q.status, RUN_STATUSES, 'span status');
  if (type) where.push(sql`"type" = CAST(${type} AS "SpanType")`);
  if (status) where.push(sql`"status" = CAST(${status} AS "RunStatus")`);
  if (q.parentSpanId !== undefined) where.push(sql`"parentSpanId" = ${q.parentSpanId}`);
  const rows = await db.query<{ span: SpanRecord }>(
    sql`SELECT ${SPAN_JSON_SQL} AS span FROM "Span" c WHERE ${join(where, ' AND ')} ORDER BY "startedAt" ASC, "id" ASC LIMIT ${checkLimit(q.limit)}`,
  );
  return rows.map((row) => row.span);
}

export interface DecisionPointQuery {
  traceId: string;
  type?: string;
  limit: number;
}

export async function queryDecisionPoints(ctx: ServiceContext, q: DecisionPointQuery): Promise<DecisionPointRecord[]> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  checkIds(q.traceId);
  const where: Sql[] = [sql`"traceId" = ${q.traceId}`];
  const type = checkEnum<DecisionType>(q.type, DECISION_TYPES, 'decision type');
  if (type) where.push(sql`"type" = CAST(${type} AS "DecisionType")`);
  const rows = await db.query<DecisionPoint>(
    sql`SELECT * FROM "DecisionPoint" WHERE ${join(where, ' AND ')} ORDER BY "timestamp" ASC, "id" ASC LIMIT ${checkLimit(q.limit)}`,
  );
  return rows.map(toDecisionPointRecord);
}

export interface EventQuery {
  traceId: string;
  type?: string;
  spanId?: string;
  limit: number;
}

export async function queryEvents(ctx: ServiceContext, q: EventQuery): Promise<EventRecord[]> {
  requireScope(ctx, 'read');
  const db = ctx.db.sql;
  checkIds(q.traceId);
  const where: Sql[] = [sql`"traceId" = ${q.traceId}`];
  const type = checkEnum<EventType>(q.type, EVENT_TYPES, 'event type');
  if (type) where.push(sql`"type" = CAST(${type} AS "EventType")`);
  if (q.spanId !== undefined) where.push(sql`"spanId" = ${q.spanId}`);
  const rows = await db.query<Event>(
    sql`SELECT * FROM "Event" WHERE ${join(where, ' AND ')} ORDER BY "timestamp" ASC, "id" ASC LIMIT ${checkLimit(q.limit)}`,
  );
  return rows.map(toEventRecord);
}
