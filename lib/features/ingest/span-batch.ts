// What a span-by-span transport (OTLP) hands the domain to store: the records of one
// trace that arrived in one request. Unlike a POST /api/traces batch, a trace arrives
// over many requests, in any order and possibly twice, so these are upserted by
// (trace id, child id) and the trace row is kept true as they arrive (upsert-spans.ts).
import type { JsonValue, RunStatus } from '@/lib/features/traces/shared';
import type { ScoreInput } from '@/lib/features/scores/shared';
import type { DecisionPointInput, EventInput, SpanInput } from './validate';

export interface DecisionPointUpsert extends DecisionPointInput {
  /** True when the transport deduced the decision (e.g. from an LLM's tool calls) instead of the agent recording it. */
  inferred: boolean;
}

/** The trace fields the root span (the one without a parent) fixes. */
export interface RootFields {
  name: string;
  status: RunStatus;
  endedAt: Date | null;
  /** Milliseconds, endedAt - startedAt of the root span. */
  totalDuration: number | null;
  metadata: JsonValue;
  /** The end user the trace ran for, when the root span names one. */
  userId?: string | null;
}

export interface SpanBatchTrace {
  /** 32 lowercase hex characters for OTLP. */
  traceId: string;
  spans: SpanInput[];
  events: EventInput[];
  decisionPoints: DecisionPointUpsert[];
  /** Scores the spans carry (OTLP `crossroads.score` events); absent: none. */
  scores?: ScoreInput[];
  /** Present when the root span is in this batch. */
  root: RootFields | null;
  /** The trace's name until its root span arrives: the earliest-started span's name in this batch. */
  provisionalName: string;
  /** The first session id any span of this batch carries (the root's, when it has one). */
  sessionId: string | null;
  /** Tags from the root span, or else from the first span that carries them; null when none does. */
  tags: string[] | null;
}

/**
 * Traces produced on demand, so that the store maps the next chunk while the database
 * stores this one. `traces()` yields them in `traceIds` order (ids sorted) and may be
 * called again when the store retries.
 */
export interface LazySpanBatch {
  traceIds: string[];
  traces(): Iterable<SpanBatchTrace>;
}

/** Spans refused by the transport before storage, for its partial-success answer. */
export interface SpanRejection {
  /** How many spans were refused for this reason. */
  count: number;
  /** Why, e.g. "span id must be 8 bytes, not all zero". */
  reason: string;
}
