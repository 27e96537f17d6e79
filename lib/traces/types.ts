// Plain domain types shared by the JSON API, the SOAP adapter and the UI.
// Safe to import from client components: no server code, no Prisma runtime.

export const RUN_STATUSES = ['RUNNING', 'COMPLETED', 'ERROR'] as const;
export const DECISION_TYPES = [
  'TOOL_SELECTION',
  'ROUTING',
  'RETRY',
  'ESCALATION',
  'MEMORY_RETRIEVAL',
  'PLANNING',
  'CUSTOM',
] as const;
export const SPAN_TYPES = ['LLM_CALL', 'TOOL_CALL', 'MEMORY_OP', 'CHAIN', 'AGENT', 'CUSTOM'] as const;
export const EVENT_TYPES = [
  'ERROR',
  'RETRY',
  'FALLBACK',
  'CONTEXT_OVERFLOW',
  'USER_FEEDBACK',
  'CUSTOM',
] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];
export type DecisionType = (typeof DECISION_TYPES)[number];
export type SpanType = (typeof SPAN_TYPES)[number];
export type EventType = (typeof EVENT_TYPES)[number];

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A trace as the API returns it: dates are ISO 8601 UTC strings, absent optionals are null. */
export interface TraceRecord {
  id: string;
  name: string;
  sessionId: string | null;
  status: RunStatus;
  tags: string[];
  metadata: JsonValue;
  totalCost: number | null;
  totalTokens: number | null;
  totalDuration: number | null;
  startedAt: string;
  endedAt: string | null;
  createdAt: string;
}

export interface DecisionPointRecord {
  id: string;
  traceId: string;
  type: DecisionType;
  reasoning: string | null;
  chosen: JsonValue;
  alternatives: JsonValue[];
  contextSnapshot: JsonValue;
  durationMs: number | null;
  costUsd: number | null;
  parentSpanId: string | null;
  timestamp: string;
  /** Deduced by Crossroads (e.g. from an LLM span's tool calls, OTLP) rather than recorded by the agent. */
  inferred: boolean;
}

export interface SpanRecord {
  id: string;
  traceId: string;
  parentSpanId: string | null;
  name: string;
  type: SpanType;
  input: JsonValue;
  output: JsonValue;
  tokenCount: number | null;
  costUsd: number | null;
  durationMs: number | null;
  status: RunStatus;
  statusMessage: string | null;
  startedAt: string;
  endedAt: string | null;
  metadata: JsonValue;
}

export interface EventRecord {
  id: string;
  traceId: string;
  spanId: string | null;
  type: EventType;
  name: string;
  metadata: JsonValue;
  timestamp: string;
}

export interface TraceCounts {
  decisionPoints: number;
  spans: number;
  events: number;
}

export interface TraceListItem extends TraceRecord {
  _count: TraceCounts;
}

export interface TraceDetail extends TraceRecord {
  decisionPoints: DecisionPointRecord[];
  spans: SpanRecord[];
  events: EventRecord[];
}

/**
 * Filters on traces, shared by the list, insights and export (parsed and turned into SQL
 * by lib/traces/filters.ts). Every filter present must hold.
 */
export interface TraceFilterParams {
  status?: RunStatus;
  /** Case-insensitive substring of the name. */
  search?: string;
  sessionId?: string;
  /** The exact name. */
  name?: string;
  /** A tag the trace carries. */
  tag?: string;
  /** ISO 8601 UTC: traces that started at or after it. */
  from?: string;
  /** ISO 8601 UTC: traces that started before it (the window is half-open, so adjacent windows never share a trace). */
  to?: string;
  /** Traces with at least one decision point of this type (and, with `chosen`, whose chosen option has that label). */
  decisionType?: DecisionType;
  /** Traces with at least one decision point whose chosen option has this label (lib/insights/labels.ts). */
  chosen?: string;
}

export interface ListParams extends TraceFilterParams {
  page: number;
  limit: number;
}

export interface TraceList {
  traces: TraceListItem[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}
