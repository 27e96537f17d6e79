// Plain domain types shared by the JSON API, the SOAP adapter and the UI.
// Safe to import from client components: no server code, no Prisma runtime.
import type { ScoreRecord } from '@/lib/features/scores/shared';

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

/** Where a span's cost came from (lib/pricing). */
export const COST_SOURCES = ['client', 'catalog', 'custom'] as const;
export type CostSource = (typeof COST_SOURCES)[number];

export type RunStatus = (typeof RUN_STATUSES)[number];
export type DecisionType = (typeof DECISION_TYPES)[number];
export type SpanType = (typeof SPAN_TYPES)[number];
export type EventType = (typeof EVENT_TYPES)[number];

import type { JsonValue } from '@/lib/core/json';
export type { JsonValue };

/** A trace as the API returns it: dates are ISO 8601 UTC strings, absent optionals are null. */
export interface TraceRecord {
  id: string;
  name: string;
  sessionId: string | null;
  /** The end user the agent worked for. */
  userId: string | null;
  status: RunStatus;
  tags: string[];
  metadata: JsonValue;
  totalCost: number | null;
  totalTokens: number | null;
  totalDuration: number | null;
  /** Model calls that had no cost and found no price: totalCost leaves them out (0: every call priced). */
  unpricedCalls: number;
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
  /** Where costUsd came from: the client, or computed from the tokens (catalog, or MODEL_PRICES_FILE's custom prices); null without a cost. */
  costSource: CostSource | null;
  /** The model entry a computed cost was priced as (the catalog's model id, or the custom entry's model or pattern). */
  pricedModel: string | null;
  durationMs: number | null;
  status: RunStatus;
  statusMessage: string | null;
  startedAt: string;
  endedAt: string | null;
  metadata: JsonValue;
}

/**
 * A span as the viewer's tree needs it: no payloads (input, output, metadata), and its
 * status message cut short (the outline, lib/features/traces/outline.ts). A SpanRecord is one too.
 */
export interface SpanSummary extends Omit<SpanRecord, 'traceId' | 'input' | 'output' | 'metadata'>, Scored {
  /** The model an LLM call used (span-model.ts); the outline always sets it. */
  model?: string | null;
  /** The tool call a tool span ran (decision-outcome.ts, spanCallId); the outline always sets it. */
  toolCallId?: string | null;
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
  /** With `q` only: up to 3 places the text was found. */
  matches?: SearchMatch[];
  /** The run's first input as one line of text (the root span's, else the first model call's); GET /api/traces only. */
  inputPreview?: string | null;
  /** The run's last output as one line of text (the root span's, else the last model call's); GET /api/traces only. */
  outputPreview?: string | null;
  /** The models its model calls named, sorted (at most 5); GET /api/traces only. */
  models?: string[];
  /** Its scores per name and data type (on the trace, its spans and decisions), by name; GET /api/traces only. */
  scoreSummary?: TraceScoreSummary[];
}

/** A trace's scores of one name and data type, as the list's score columns show them. */
export interface TraceScoreSummary {
  name: string;
  dataType: 'NUMERIC' | 'CATEGORICAL' | 'BOOLEAN';
  count: number;
  /** NUMERIC: the mean; BOOLEAN: the share of true; CATEGORICAL: null. */
  average: number | null;
  /** CATEGORICAL: its most frequent values (at most 3), by count descending, then value; otherwise none. */
  values: Array<{ value: string; count: number }>;
}

/** Present on a trace, span or decision point that has scores (lib/scores), absent otherwise. */
export interface Scored {
  scores?: ScoreRecord[];
}

export interface TraceDetail extends TraceRecord, Scored {
  decisionPoints: Array<DecisionPointRecord & Scored>;
  spans: Array<SpanRecord & Scored>;
  events: EventRecord[];
}

/** A trace with its spans' summaries: what the detail page loads first (GET /api/traces/{id}/outline). */
export interface TraceOutline extends TraceRecord, Scored {
  decisionPoints: Array<DecisionPointRecord & Scored>;
  spans: SpanSummary[];
  events: EventRecord[];
}

/**
 * Filters on traces, shared by the list, insights and export (parsed and turned into SQL
 * by lib/features/query/filters.ts). Every filter present must hold.
 */
export interface TraceFilterParams {
  status?: RunStatus;
  /** Case-insensitive substring of the name. */
  search?: string;
  sessionId?: string;
  /** The exact user id. */
  userId?: string;
  /** The exact name. */
  name?: string;
  /** Traces with a model call (LLM_CALL span) that named exactly this model (spanModelOf's rule). */
  model?: string;
  /** Tags the trace carries, all of them (`tag` repeated in a query). */
  tag?: string[];
  /** ISO 8601 UTC: traces that started at or after it. */
  from?: string;
  /** ISO 8601 UTC: traces that started before it (the window is half-open, so adjacent windows never share a trace). */
  to?: string;
  /**
   * A window ending now (`range=1h`: traces that started in the last hour), resolved when
   * each request is served, so a saved link keeps meaning "the last hour". Not with from or to.
   */
  range?: TimeRange;
  /** Traces with at least one decision point of this type (and, with `chosen`, whose chosen option has that label). */
  decisionType?: DecisionType;
  /** Traces with at least one decision point whose chosen option has this label (lib/features/insights/labels.ts). */
  chosen?: string;
  /** Full-text search: a case-insensitive substring of any searchable field (lib/features/search/search.ts). */
  q?: string;
  /** Bounds on `totalDuration` in milliseconds, inclusive. */
  minDurationMs?: number;
  maxDurationMs?: number;
  /** Bounds on `totalCost` in USD, inclusive. */
  minCost?: number;
  maxCost?: number;
  /** Only traces where something failed: the trace, or any of its spans or events (ERROR). */
  hasErrors?: boolean;
  /** Top-level metadata entries the trace must have (`metadata.<key>=<value>`), each exactly. */
  metadata?: Record<string, string>;
  /** Traces whose decision path has this id (lib/paths). */
  path?: string;
  /** Traces through this fork (lib/paths); with `chosen`, those that took that option there. */
  fork?: string;
  /**
   * Traces with a decision point that has (true) or has no (false) `decision.correct` review;
   * with `decisionType` / `chosen`, that same decision point must match them.
   */
  reviewed?: boolean;
  /** Traces with a decision point (matching `decisionType` / `chosen`) reviewed right (`decision.correct` true) or wrong. */
  judged?: Judged;
  /** Traces with a decision point (matching `decisionType` / `chosen`) whose `decision.better_option` is this label. */
  better?: string;
  /** `score.<name>=<condition>` filters, by score name (lib/features/scores/condition.ts); each must hold. */
  score?: Record<string, string>;
}

/** The relative time ranges, by key, in milliseconds. */
export const TIME_RANGES = { '15m': 15 * 60_000, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type TimeRange = keyof typeof TIME_RANGES;
export const TIME_RANGE_KEYS = Object.keys(TIME_RANGES) as TimeRange[];

/** The fields whose stored values GET /api/traces/suggest offers, as the list's filters name them. */
export const SUGGEST_FIELDS = ['name', 'tag', 'sessionId', 'userId', 'model'] as const;
export type SuggestField = (typeof SUGGEST_FIELDS)[number];

export const JUDGED_VALUES = ['right', 'wrong'] as const;
export type Judged = (typeof JUDGED_VALUES)[number];

export const SORT_FIELDS = ['startedAt', 'duration', 'cost'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
/** Sorting by the trace's average of a score name (`sort=score.<name>`). */
export type ScoreSort = `score.${string}`;
export type ListSort = SortField | ScoreSort;
export const SCORE_SORT_PREFIX = 'score.';
/** The score name a sort is by, or null for a column's sort. */
export function scoreSortName(sort: string | undefined): string | null {
  return sort?.startsWith(SCORE_SORT_PREFIX) ? sort.slice(SCORE_SORT_PREFIX.length) : null;
}
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export interface ListParams extends TraceFilterParams {
  page: number;
  limit: number;
  /** Absent: startedAt, as the spec orders the list. */
  sort?: ListSort;
  /** Absent: desc. */
  order?: SortOrder;
}

/** Where a full-text search (`q`) found its text in a trace. */
export interface SearchMatch {
  kind: 'trace' | 'span' | 'decision' | 'event';
  /** The trace's, span's, decision point's or event's id. */
  id: string;
  /** The field the text is in: name, metadata, input, output, statusMessage, reasoning, chosen, alternatives. */
  field: string;
  /** The text around the match, JSON as stored for JSON fields; "…" marks a cut. */
  snippet: string;
}

/** Where a text occurs inside one trace (GET /api/traces/{id}/search). */
export interface TraceSearchResult {
  q: string;
  /** In the trace's order: its own fields, then spans by start, decision points and events by time. */
  matches: SearchMatch[];
  /** More places hold the text than the answer lists (lib/features/search/search-trace.ts, MAX_TRACE_MATCHES). */
  truncated: boolean;
}

export interface TraceList {
  traces: TraceListItem[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  /**
   * With `q` only. False when a search term is so common that counting every match would
   * take seconds: `total` is then an estimate from the traces scanned for the page.
   */
  totalExact?: boolean;
}
