// Database rows -> the records the API returns: ISO 8601 UTC strings for dates, null for
// every absent optional, JSON values as stored.
import type { DecisionPoint, Event, Trace } from '@/lib/generated/prisma/client';
import type {
  DecisionPointRecord,
  EventRecord,
  JsonValue,
  TraceRecord,
} from './types';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
const json = (v: unknown) => (v ?? null) as JsonValue;

// Bookkeeping columns of the OTLP path (source, lastSpanAt) are not part of the record.
type TraceRow = Omit<Trace, 'source' | 'lastSpanAt'>;

export function toTraceRecord(row: TraceRow): TraceRecord {
  return {
    id: row.id,
    name: row.name,
    sessionId: row.sessionId,
    userId: row.userId,
    status: row.status,
    tags: row.tags,
    metadata: json(row.metadata),
    totalCost: row.totalCost,
    totalTokens: row.totalTokens,
    totalDuration: row.totalDuration,
    unpricedCalls: row.unpricedCalls,
    startedAt: iso(row.startedAt),
    endedAt: isoOrNull(row.endedAt),
    createdAt: iso(row.createdAt),
  };
}

export function toDecisionPointRecord(row: DecisionPoint): DecisionPointRecord {
  return {
    id: row.id,
    traceId: row.traceId,
    type: row.type,
    reasoning: row.reasoning,
    chosen: json(row.chosen),
    alternatives: (row.alternatives ?? []) as JsonValue[],
    contextSnapshot: json(row.contextSnapshot),
    durationMs: row.durationMs,
    costUsd: row.costUsd,
    parentSpanId: row.parentSpanId,
    timestamp: iso(row.timestamp),
    inferred: row.inferred,
  };
}

export function toEventRecord(row: Event): EventRecord {
  return {
    id: row.id,
    traceId: row.traceId,
    spanId: row.spanId,
    type: row.type,
    name: row.name,
    metadata: json(row.metadata),
    timestamp: iso(row.timestamp),
  };
}
