// Decoded OTLP log records -> events on the spans they name, per trace, plus the records
// refused. Pure. A record that names a span (trace_id and span_id) is an event of that
// span; GenAI content records (lib/features/otlp/conventions/log-events.ts) also give the span
// an input and output (spanPayloadOf), which the store sets only where the span has none
// of its own. A record without a span has nowhere to go in this domain: refused, counted
// in partial_success.
import { createHash } from 'node:crypto';
import { FIELD_LIMITS } from '@/lib/core/limits';
import type { JsonValue } from '@/lib/core/json';
import type { EventInput } from '@/lib/features/ingest/shared';
import { SpanAttributes, setKey, truncate } from './attributes';
import { eventTypeOf } from './conventions/events';
import { inputOutputOf } from './conventions/io';
import { DETAILS_EVENTS, ERROR_SEVERITY, EVENT_NAME_ATTRIBUTE, MESSAGE_EVENTS, messageOf } from './conventions/log-events';
import { attributesProblem, REJECTION_REASONS } from './refusals';
import { EVALUATION_EVENT, scoreOfEvaluationEvent } from './conventions/scores';
import type { ScoreInput } from '@/lib/features/scores/shared';
import type { OtlpLogRecord } from './types';

export const LOG_REJECTION_REASONS = {
  noSpan: 'log record names no span (trace_id and span_id)',
  noTime: 'log record has no time (time and observed time 0)',
  attributeLength: REJECTION_REASONS.attributeLength,
  attributeDepth: REJECTION_REASONS.attributeDepth,
  unstorableText: REJECTION_REASONS.unstorableText,
} as const;

/** The name of an event from a record that names none. */
export const UNNAMED_LOG = '(log record)';

export interface LogTrace {
  traceId: string;
  events: EventInput[];
  /** The spans these records bring GenAI content for: the store rebuilds their input/output from all their content records. */
  contentSpans: string[];
  /** The earliest record: the trace's start until its spans come. */
  startedAt: Date;
  /** The trace's name until a span names it: the earliest record's event name. */
  provisionalName: string;
  /** Scores its gen_ai.evaluation.result records carry (each record also stays an event of its span). */
  scores: ScoreInput[];
}

export interface PlannedLogs {
  /** In trace id order; events in time order (then id). */
  traces: LogTrace[];
  rejected: Array<{ count: number; reason: string }>;
  accepted: number;
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ALL_ZERO = /^0+$/;
const dateOf = (nanos: bigint): Date => new Date(Number(nanos / 1_000_000n));

function problemOf(record: OtlpLogRecord): string | null {
  if (!TRACE_ID.test(record.traceId) || ALL_ZERO.test(record.traceId) || !SPAN_ID.test(record.spanId) || ALL_ZERO.test(record.spanId)) {
    return LOG_REJECTION_REASONS.noSpan;
  }
  if (record.timeUnixNano === 0n && record.observedTimeUnixNano === 0n) return LOG_REJECTION_REASONS.noTime;
  return attributesProblem(record.attributes) ?? attributesProblem({ body: record.body }) ?? attributesProblem({ event: record.eventName, severity: record.severityText });
}

function eventNameOf(record: OtlpLogRecord): string {
  if (record.eventName !== '') return record.eventName;
  const attribute = record.attributes[EVENT_NAME_ATTRIBUTE];
  return typeof attribute === 'string' ? attribute : '';
}

/** Same record, same digest: an exporter's retry is stored once. */
function digestOf(record: OtlpLogRecord, name: string): string {
  return createHash('sha256')
    .update(JSON.stringify([String(record.timeUnixNano), String(record.observedTimeUnixNano), name, record.severityNumber, record.severityText, record.body, record.attributes]))
    .digest('hex')
    .slice(0, 16);
}

/**
 * A log event's id sorts as the records were sent: stored times have millisecond
 * precision and SDKs stamp a prompt's messages in the same millisecond, so the id
 * carries the record's nanosecond time and its place in the request (a retry resends
 * the same request, so it gets the same id), then the digest.
 */
function idOf(record: OtlpLogRecord, place: number, digest: string): string {
  const nanos = String(record.timeUnixNano || record.observedTimeUnixNano).padStart(20, '0');
  return `${record.spanId}:log:${nanos}.${String(place).padStart(6, '0')}:${digest}`;
}

function eventOf(record: OtlpLogRecord, name: string, id: string, at: Date): EventInput {
  const metadata: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(record.attributes)) setKey(metadata, key, record.attributes[key]);
  const log: { [key: string]: JsonValue } = { body: record.body, scope: record.scope.name };
  if (record.severityText !== '') log.severityText = record.severityText;
  if (record.severityNumber !== 0) log.severityNumber = record.severityNumber;
  if (Object.hasOwn(metadata, 'log')) log.attribute = metadata.log;
  metadata.log = log;
  return {
    id,
    spanId: record.spanId,
    type: record.severityNumber >= ERROR_SEVERITY ? 'ERROR' : eventTypeOf(name),
    name: truncate(name || record.severityText || UNNAMED_LOG, FIELD_LIMITS.nameLength),
    metadata,
    timestamp: at,
  };
}

/** A stored or arriving GenAI content record: its event name, body and attributes. */
export interface ContentRecord {
  name: string;
  body: JsonValue;
  attributes: { [key: string]: JsonValue };
}

/** True when a record of this name carries a span's prompt or answer. */
export const isContentEvent = (name: string): boolean => DETAILS_EVENTS.includes(name) || Object.hasOwn(MESSAGE_EVENTS, name);

/**
 * A span's input and output from its GenAI content records, in time order: a call's
 * details record gives them whole (as span attributes would); else the per-message
 * records are listed, prompt messages as the input, choices as the output.
 */
export function spanPayloadOf(records: readonly ContentRecord[]): { input?: JsonValue; output?: JsonValue } {
  let input: JsonValue | undefined;
  let output: JsonValue | undefined;
  const inputMessages: JsonValue[] = [];
  const outputMessages: JsonValue[] = [];
  for (const record of records) {
    if (DETAILS_EVENTS.includes(record.name)) {
      const io = inputOutputOf(new SpanAttributes(record.attributes));
      if (io.input !== null) input ??= io.input;
      if (io.output !== null) output ??= io.output;
      continue;
    }
    const message = messageOf(record.name, record.body);
    if (message) (message.side === 'input' ? inputMessages : outputMessages).push(message.message);
  }
  input ??= inputMessages.length > 0 ? inputMessages : undefined;
  output ??= outputMessages.length > 0 ? outputMessages : undefined;
  return { ...(input !== undefined && { input }), ...(output !== undefined && { output }) };
}

function byTime(a: EventInput, b: EventInput): number {
  return a.timestamp.getTime() - b.timestamp.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Checks and maps a request's log records, grouped by trace (a record sent twice in one request is kept once). */
export function planLogRecords(records: OtlpLogRecord[]): PlannedLogs {
  const rejected = new Map<string, number>();
  const traces = new Map<string, { events: Map<string, EventInput>; records: Array<[EventInput, OtlpLogRecord, string]> }>();
  let accepted = 0;
  for (const record of records) {
    const problem = problemOf(record);
    if (problem) {
      rejected.set(problem, (rejected.get(problem) ?? 0) + 1);
      continue;
    }
    accepted++;
    const name = eventNameOf(record);
    const digest = digestOf(record, name);
    let trace = traces.get(record.traceId);
    if (!trace) traces.set(record.traceId, (trace = { events: new Map(), records: [] }));
    if (trace.events.has(digest)) continue;
    const event = eventOf(record, name, idOf(record, trace.events.size, digest), dateOf(record.timeUnixNano || record.observedTimeUnixNano));
    trace.events.set(digest, event);
    trace.records.push([event, record, name]);
  }
  const planned: LogTrace[] = [];
  for (const traceId of [...traces.keys()].sort()) {
    const trace = traces.get(traceId)!;
    const events = [...trace.events.values()].sort(byTime);
    const contentSpans = new Set<string>();
    const scores: ScoreInput[] = [];
    for (const [event, record, name] of trace.records) {
      if (isContentEvent(name)) contentSpans.add(event.spanId!);
      // A retry gives the record the same event id, so the same score id.
      const score = name === EVALUATION_EVENT ? scoreOfEvaluationEvent(record.attributes, traceId, record.spanId, `otlp:${traceId}:${event.id}`) : null;
      if (score) scores.push(score);
    }
    planned.push({
      traceId,
      events,
      contentSpans: [...contentSpans].sort(),
      startedAt: events[0].timestamp,
      provisionalName: events[0].name,
      scores,
    });
  }
  return { traces: planned, rejected: [...rejected.keys()].sort().map((reason) => ({ count: rejected.get(reason)!, reason })), accepted };
}
