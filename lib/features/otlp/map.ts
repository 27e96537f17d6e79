// Decoded OTLP spans -> the domain's records, per trace, plus the spans refused. Pure.
// What each convention means lives in ./conventions (one table per convention, tried in
// priority order); this file only walks spans, events and traces.
//
// Span metadata layout: every span attribute not mapped to input/output, under its own
// key, plus `otel: { kind, scope: { name, version, attributes? }, resource: {...} }`
// (an attribute itself named `otel` moves to `otel.attribute`). Span links are not kept:
// the domain has no place for them, and no convention we map uses them.
import { clampNumber, clampOptional, FIELD_LIMITS } from '@/lib/core/limits';
import type { DecisionPointUpsert, LazySpanBatch, RootFields, SpanBatchTrace, SpanRejection } from '@/lib/features/ingest/shared';
import type { JsonValue, RunStatus } from '@/lib/features/traces/shared';
import type { EventInput, SpanInput } from '@/lib/features/ingest/shared';
import { setKey, SpanAttributes, truncate } from './attributes';
import { explicitDecision, inferredToolSelection, offeredToolsOf, DECISION_EVENT, type OfferedTool } from './conventions/decisions';
import { markDuplicateCalls } from './conventions/duplicates';
import { eventNameOf, eventTypeOf, exceptionMessageOf } from './conventions/events';
import { EVALUATION_EVENT, scoreOfEvaluationEvent, scoreOfEvent, SCORE_EVENT } from './conventions/scores';
import type { ScoreInput } from '@/lib/features/scores/shared';
import { inputOutputOf } from './conventions/io';
import { spanTypeOf, toolNameFor } from './conventions/span-type';
import { conventionErrorOf, conventionMessageOf } from './conventions/status';
import { costOf, modelCallOf } from './conventions/tokens';
import {
  sessionIdOf,
  tagsOf,
  TRACE_PAYLOAD_KEYS,
  traceMetadataOf,
  traceNameOf,
  tracePayloadOf,
  userIdOf,
} from './conventions/trace-fields';
import { parentIdOf, spanChecker } from './refusals';
import type { OtlpScope, OtlpSpan } from './types';

export {
  MAX_ATTRIBUTE_CHARS,
  MAX_ATTRIBUTE_DEPTH,
  MAX_EVENTS_PER_SPAN,
  MAX_SPAN_NAME_CHARS,
  MAX_STATUS_MESSAGE_CHARS,
  REJECTION_REASONS,
} from './refusals';

export interface MappedRequest {
  /** One entry per trace id, in trace id order; spans in start order (then id). */
  traces: SpanBatchTrace[];
  /** Refused spans by reason, in reason order. */
  rejected: SpanRejection[];
}

/** The name of a span (or event) sent without one: the domain requires a name. */
export const UNNAMED_SPAN = '(unnamed span)';
export const UNNAMED_EVENT = '(unnamed event)';

const STATUS_ERROR = 2;
const SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

/** Unix nanoseconds as a Date (millisecond precision, as stored). */
const dateOf = (nanos: bigint): Date => new Date(Number(nanos / 1_000_000n));

type Obj = { [key: string]: JsonValue };

interface MappedSpan {
  span: OtlpSpan;
  attributes: SpanAttributes;
  record: SpanInput;
}

/** A request's spans, checked and grouped by trace, mapped one trace at a time on demand. */
export interface PlannedRequest extends LazySpanBatch {
  /** Refused spans by reason, in reason order. */
  rejected: SpanRejection[];
}

/**
 * Checks and groups the spans of one request (a span resent in the same request is kept
 * once: the first copy); `traces()` maps them, in trace id order, as the store reads them.
 */
export function planOtlpRequest(spans: OtlpSpan[]): PlannedRequest {
  const check = spanChecker();
  const rejected = new Map<string, number>();
  const byTrace = new Map<string, Map<string, OtlpSpan>>();
  for (const span of spans) {
    const reason = check(span);
    if (reason) {
      rejected.set(reason, (rejected.get(reason) ?? 0) + 1);
      continue;
    }
    let trace = byTrace.get(span.traceId);
    if (!trace) byTrace.set(span.traceId, (trace = new Map()));
    if (!trace.has(span.spanId)) trace.set(span.spanId, span);
  }
  const traceIds = [...byTrace.keys()].sort();
  return {
    traceIds,
    *traces() {
      const scopes = new WeakMap<OtlpScope, JsonValue>();
      for (const traceId of traceIds) yield mapTrace(traceId, [...byTrace.get(traceId)!.values()].sort(byStart), scopes);
    },
    rejected: [...rejected.keys()].sort().map((reason) => ({ count: rejected.get(reason)!, reason })),
  };
}

/** Maps the spans of one request at once (planOtlpRequest, every trace mapped). */
export function mapOtlpSpans(spans: OtlpSpan[]): MappedRequest {
  const planned = planOtlpRequest(spans);
  return { traces: [...planned.traces()], rejected: planned.rejected };
}

/** Start time, then span id: the order every "first span that..." rule reads in. */
function byStart(a: OtlpSpan, b: OtlpSpan): number {
  if (a.startTimeUnixNano !== b.startTimeUnixNano) return a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}

function mapTrace(traceId: string, spans: OtlpSpan[], scopes: WeakMap<OtlpScope, JsonValue>): SpanBatchTrace {
  const trace: SpanBatchTrace = {
    traceId,
    spans: [],
    events: [],
    decisionPoints: [],
    root: null,
    provisionalName: '',
    sessionId: null,
    tags: null,
  };
  let root: MappedSpan | undefined;
  const mapped: MappedSpan[] = [];
  const inherited = ancestorTools(spans);
  for (const span of spans) {
    const one = mapSpan(span, trace, scopes, inherited);
    trace.spans.push(one.record);
    mapped.push(one);
    if (!root && one.record.parentSpanId === null) root = one;
  }
  trace.spans = markDuplicateCalls(trace.spans);
  trace.provisionalName = mapped[0].record.name;

  // The root's session and tags first, else the first span's (in start order) that has them.
  const candidates = root ? [root, ...mapped] : mapped;
  for (const { attributes } of candidates) {
    trace.sessionId ??= sessionIdOf(attributes) ?? null;
    trace.tags ??= tagsOf(attributes) ?? null;
    if (trace.sessionId !== null && trace.tags !== null) break;
  }
  if (root) trace.root = rootFieldsOf(root, candidates);
  return trace;
}

/** The user and the trace payloads, like the session: the root's first, else the first span's that has each. */
function rootFieldsOf({ span, attributes, record }: MappedSpan, candidates: MappedSpan[]): RootFields {
  let userId: string | null = null;
  const payloads: Partial<Record<'input' | 'output' | 'metadata', JsonValue>> = {};
  for (const candidate of candidates) {
    userId ??= userIdOf(candidate.attributes) ?? null;
    for (const { key, as } of TRACE_PAYLOAD_KEYS) payloads[as] ??= tracePayloadOf(candidate.attributes, key);
  }
  return {
    name: traceNameOf(attributes, record.name),
    status: record.status === 'ERROR' ? 'ERROR' : 'COMPLETED',
    endedAt: record.endedAt,
    totalDuration: record.durationMs,
    metadata: traceMetadataOf(span.resource.attributes, payloads),
    userId,
  };
}

type InheritedTools = (spanId: string) => { spanId: string; tools: OfferedTool[] } | undefined;

/** The tools the nearest ancestor (in this batch) of a span offers its model; each span read once. */
function ancestorTools(spans: OtlpSpan[]): InheritedTools {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const offered = new Map<string, OfferedTool[] | undefined>();
  const toolsOf = (span: OtlpSpan) => {
    if (!offered.has(span.spanId)) offered.set(span.spanId, offeredToolsOf(new SpanAttributes(span.attributes)));
    return offered.get(span.spanId);
  };
  return (spanId) => {
    const seen = new Set<string>([spanId]);
    let parent = byId.get(byId.get(spanId)?.parentSpanId ?? '');
    while (parent && !seen.has(parent.spanId)) {
      const tools = toolsOf(parent);
      if (tools) return { spanId: parent.spanId, tools };
      seen.add(parent.spanId);
      parent = byId.get(parent.parentSpanId);
    }
    return undefined;
  };
}

function mapSpan(
  span: OtlpSpan,
  trace: { traceId: string; events: EventInput[]; decisionPoints: DecisionPointUpsert[]; scores?: ScoreInput[] },
  scopes: WeakMap<OtlpScope, JsonValue>,
  inherited: InheritedTools,
): MappedSpan {
  const { events, decisionPoints: decisions } = trace;
  const attributes = new SpanAttributes(span.attributes);
  const spanId = span.spanId;
  const type = spanTypeOf(attributes);
  let name = span.name;
  if (type === 'TOOL_CALL') {
    const tool = toolNameFor(name, attributes);
    if (tool !== undefined) name = truncate(tool, FIELD_LIMITS.nameLength);
  }
  if (name === '') name = UNNAMED_SPAN;

  const startedAt = dateOf(span.startTimeUnixNano);
  const ended = span.endTimeUnixNano !== 0n;
  const endedAt = ended ? dateOf(span.endTimeUnixNano) : null;
  // OTel's ERROR status, else a convention's own (Langfuse's level ERROR).
  const conventionError = conventionErrorOf(attributes);
  const failed = span.status.code === STATUS_ERROR || conventionError !== undefined;
  const status: RunStatus = failed ? 'ERROR' : 'COMPLETED';
  let statusMessage: string | null = null;
  if (failed) {
    const message = span.status.message || conventionError || conventionMessageOf(attributes) || exceptionMessageOf(span.events);
    statusMessage = message ? truncate(message, FIELD_LIMITS.textLength) : null;
  }

  for (let i = 0; i < span.events.length; i++) {
    const event = span.events[i];
    // An event without a time happened, as far as anyone can tell, when its span did.
    const at = event.timeUnixNano > 0n ? dateOf(event.timeUnixNano) : startedAt;
    if (event.name === DECISION_EVENT) {
      const decision = explicitDecision(event.attributes, `${spanId}:d${i}`, spanId, at);
      decisions.push({ ...decision, durationMs: clampOptional(decision.durationMs, 'duration'), costUsd: clampOptional(decision.costUsd, 'cost') });
      continue;
    }
    if (event.name === SCORE_EVENT || event.name === EVALUATION_EVENT) {
      const read = event.name === SCORE_EVENT ? scoreOfEvent : scoreOfEvaluationEvent;
      const score = read(event.attributes, trace.traceId, spanId, `otlp:${trace.traceId}:${spanId}:s${i}`);
      if (score) {
        (trace.scores ??= []).push(score);
        continue;
      }
    }
    events.push({
      id: `${spanId}:e${i}`,
      spanId,
      type: eventTypeOf(event.name),
      name: truncate(eventNameOf(event.name, event.attributes), FIELD_LIMITS.nameLength) || UNNAMED_EVENT,
      metadata: event.attributes,
      timestamp: at,
    });
  }
  if (type === 'LLM_CALL') {
    const inferred = inferredToolSelection(attributes, spanId, endedAt ?? startedAt, () => inherited(spanId));
    if (inferred) decisions.push(inferred);
  }

  const io = inputOutputOf(attributes);
  const call = type === 'LLM_CALL' ? modelCallOf(attributes) : null;
  const record: SpanInput = {
    id: spanId,
    parentSpanId: parentIdOf(span),
    name,
    type,
    input: io.input,
    output: io.output,
    // Numbers beyond the stored bounds are clamped, not refused: the span is kept.
    tokenCount: call ? clampOptional(call.tokenCount, 'tokens') : null,
    costUsd: costOf(attributes),
    // Priced by the store (lib/pricing) when the client sent no cost.
    usage: call ? call.usage : null,
    durationMs: ended ? clampNumber(Number(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6, 'duration') : null,
    status,
    statusMessage,
    startedAt,
    endedAt,
    metadata: metadataOf(span, io.consumed, scopes),
  };
  return { span, attributes, record };
}

function scopeOf(scope: OtlpScope, scopes: WeakMap<OtlpScope, JsonValue>): JsonValue {
  let json = scopes.get(scope);
  if (json === undefined) {
    const value: Obj = { name: scope.name, version: scope.version };
    if (Object.keys(scope.attributes).length > 0) value.attributes = scope.attributes;
    scopes.set(scope, (json = value));
  }
  return json;
}

function metadataOf(span: OtlpSpan, consumed: string[], scopes: WeakMap<OtlpScope, JsonValue>): JsonValue {
  const metadata: Obj = {};
  const source = span.attributes;
  // An OpenInference span consumes a key per message field: a set then, not a scan per key.
  const skip = consumed.length > 8 ? new Set(consumed) : undefined;
  for (const key of Object.keys(source)) {
    if (skip ? !skip.has(key) : consumed.length === 0 || !consumed.includes(key)) setKey(metadata, key, source[key]);
  }
  const otel: Obj = {
    kind: SPAN_KINDS[span.kind] ?? String(span.kind),
    scope: scopeOf(span.scope, scopes),
    resource: span.resource.attributes,
  };
  if (Object.hasOwn(metadata, 'otel')) otel.attribute = metadata.otel;
  metadata.otel = otel;
  return metadata;
}
