// Validation of an ingest body, in the order the spec fixes (trace-api.md section 4):
// traces array, non-empty, then trace by trace its required fields (id, name,
// startedAt, status, tags, decisionPoints, spans, events), then its decision points,
// spans and events. The first failure wins. Checks the spec does not list (optional
// field types, lengths, dates, duplicate ids) come after the spec's checks of the
// same object, so they never change which error a spec-level case gets.
import { AppError } from '@/lib/core/errors';
import { checkStorableText, CONTROL_CHARS, isValidId, parseIsoDateTime, checkStorableJson } from '@/lib/core/validate';
import type { Limits } from '@/lib/core/config';
import { usageFromMetadata } from '@/lib/features/pricing/shared';
import type { ModelUsage } from '@/lib/features/pricing/shared';
import { SCORE_LIMITS } from '@/lib/features/scores/shared';
import { EXPERIMENT_LIMITS } from '@/lib/features/experiments/shared';
import { checkUniqueIds, validateScore, type ScoreInput } from '@/lib/features/scores/shared';
import { nestingDepth } from './json-depth';
import { FIELD_LIMITS, NUMBER_LIMITS, type NumberKind } from '@/lib/core/limits';
import {
  DECISION_TYPES,
  EVENT_TYPES,
  RUN_STATUSES,
  SPAN_TYPES,
  type DecisionPointRecord,
  type EventRecord,
  type JsonValue,
  type SpanRecord,
  type TraceRecord,
} from '@/lib/features/traces/shared';

// Validated input: the records of ./types as the client sends them, with dates parsed
// and without what the store adds (traceId on children, createdAt on traces).
type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? Date | null : Date };

export type DecisionPointInput = Dated<Omit<DecisionPointRecord, 'traceId' | 'inferred'>, 'timestamp'>;
// A span's costSource and pricedModel are decided by the store (lib/pricing), from the
// client's costUsd or from `usage`: the model call it reports, when it is one.
export type SpanInput = Dated<Omit<SpanRecord, 'traceId' | 'costSource' | 'pricedModel'>, 'startedAt' | 'endedAt'> & {
  usage?: ModelUsage | null;
};
export type EventInput = Dated<Omit<EventRecord, 'traceId'>, 'timestamp'>;
export type TraceInput = Dated<Omit<TraceRecord, 'createdAt' | 'unpricedCalls'>, 'startedAt' | 'endedAt'> & {
  decisionPoints: DecisionPointInput[];
  spans: SpanInput[];
  events: EventInput[];
  /** Scores sent with the trace (optional `scores`), on it, its spans or its decision points. */
  scores: ScoreInput[];
  /** The experiment run this trace is (optional `experiment`): checked against the database at ingest. */
  experiment?: ExperimentRunInput;
};

export interface ExperimentRunInput {
  id: string;
  itemId: string;
  repetition: number;
}

type Obj = Record<string, unknown>;

function fail(message: string): never {
  throw new AppError('VALIDATION', message);
}

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export { isValidId, parseIsoDateTime };

function requireId(obj: Obj, path: string): string {
  const value = obj.id;
  if (typeof value !== 'string' || value.length === 0) fail(`${path}.id is required and must be a non-empty string`);
  return value;
}

function checkId(value: string, path: string): void {
  if (value.length > FIELD_LIMITS.idLength) fail(`${path} must be at most ${FIELD_LIMITS.idLength} characters`);
  if (CONTROL_CHARS.test(value)) fail(`${path} must not contain control characters`);
}

function requireName(obj: Obj, path: string): string {
  const value = obj.name;
  if (typeof value !== 'string' || value.length === 0) fail(`${path}.name is required and must be a non-empty string`);
  return value;
}

function checkName(name: string, path: string): void {
  if (name.length > FIELD_LIMITS.nameLength) fail(`${path}.name must be at most ${FIELD_LIMITS.nameLength} characters`);
  checkText(name, `${path}.name`);
}

function requireString(obj: Obj, field: string, path: string): string {
  const value = obj[field];
  if (typeof value !== 'string' || value.length === 0) {
    fail(`${path}.${field} is required and must be a non-empty string`);
  }
  return value;
}

function requireEnum<T extends string>(obj: Obj, field: string, allowed: readonly T[], path: string): T {
  const value = obj[field];
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    const shown = value === undefined ? 'missing' : `"${String(typeof value === 'string' ? value : JSON.stringify(value))}"`;
    fail(`${path}.${field} is invalid (${shown}): must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function requireArray(obj: Obj, field: string, path: string): unknown[] {
  const value = obj[field];
  if (!Array.isArray(value)) fail(`${path}.${field} must be an array`);
  return value;
}


function requireDate(obj: Obj, field: string, path: string): Date {
  const value = requireString(obj, field, path);
  const date = parseIsoDateTime(value);
  if (!date) fail(`${path}.${field} must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z), got "${value}"`);
  return date;
}

function optionalDate(obj: Obj, field: string, path: string): Date | null {
  const value = obj[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail(`${path}.${field} must be an ISO 8601 date-time string or null`);
  const date = parseIsoDateTime(value);
  if (!date) fail(`${path}.${field} must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z), got "${value}"`);
  return date;
}

function optionalString(obj: Obj, field: string, path: string, maxLength: number): string | null {
  const value = obj[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail(`${path}.${field} must be a string or null`);
  if (value.length > maxLength) fail(`${path}.${field} must be at most ${maxLength} characters`);
  checkText(value, `${path}.${field}`);
  return value;
}

function optionalNumber(obj: Obj, field: string, path: string, kind: NumberKind): number | null {
  const value = obj[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`${path}.${field} must be a finite number or null`);
  const bound = NUMBER_LIMITS[kind];
  if (Math.abs(value) > bound) fail(`${path}.${field} must be from -${bound} to ${bound}`);
  return value;
}

const checkText = checkStorableText;

/** Checks one any-JSON value (a payload); returns it, with undefined as null. */
type PayloadCheck = (value: unknown, path: string) => JsonValue;

/** Checks an any-JSON value iteratively (deep values must not overflow the stack). */
const walkJson: PayloadCheck = checkStorableJson;

/** For payloads already proven storable by their request text (see parseIngestBody). */
const provenJson: PayloadCheck = (value) => (value === undefined ? null : (value as JsonValue));

// A payload parsed from JSON text can only fail walkJson through a \u0000 or surrogate
// escape in that text (raw control characters are not valid JSON, and UTF-8 decoding
// never yields a lone surrogate; a caller's string could hold one raw), or by nesting
// deeper than the limit, which it cannot when the whole body nests less. A text without
// either is proven in ~8 ms for a 9 MB batch, instead of a ~40 ms walk over every value.
const SUSPECT_TEXT = /\\u(?:0000|[dD][89a-fA-F])|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// Deepest a stored payload can sit in a request: body > traces > trace > spans > span,
// then the payload's own levels. Anything deeper is in a field the API ignores.
const STORED_DEPTH = 5 + FIELD_LIMITS.jsonDepth;

function checkCount(items: unknown[], what: string, path: string, max: number): void {
  if (items.length > max) fail(`${path}.${what} has ${items.length} entries: at most ${max} are allowed per trace`);
}

function checkUnique(ids: string[], path: string, what: string): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) fail(`${path}.${what}[${i}].id "${id}" appears more than once in this trace`);
    seen.add(id);
  });
}

function validateDecisionPoint(raw: unknown, path: string, checkJson: PayloadCheck): DecisionPointInput {
  if (!isObject(raw)) fail(`${path} must be an object`);
  const id = requireId(raw, path);
  const type = requireEnum(raw, 'type', DECISION_TYPES, path);
  const timestamp = requireDate(raw, 'timestamp', path);
  const alternatives = requireArray(raw, 'alternatives', path);
  checkId(id, `${path}.id`);
  return {
    id,
    type,
    timestamp,
    alternatives: alternatives.map((a) => checkJson(a, `${path}.alternatives`)),
    reasoning: optionalString(raw, 'reasoning', path, FIELD_LIMITS.textLength),
    chosen: checkJson(raw.chosen, `${path}.chosen`),
    contextSnapshot: checkJson(raw.contextSnapshot, `${path}.contextSnapshot`),
    durationMs: optionalNumber(raw, 'durationMs', path, 'duration'),
    costUsd: optionalNumber(raw, 'costUsd', path, 'cost'),
    parentSpanId: optionalString(raw, 'parentSpanId', path, FIELD_LIMITS.idLength),
  };
}

function validateSpan(raw: unknown, path: string, checkJson: PayloadCheck): SpanInput {
  if (!isObject(raw)) fail(`${path} must be an object`);
  const id = requireId(raw, path);
  const name = requireName(raw, path);
  const type = requireEnum(raw, 'type', SPAN_TYPES, path);
  const startedAt = requireDate(raw, 'startedAt', path);
  const status = requireEnum(raw, 'status', RUN_STATUSES, path);
  checkId(id, `${path}.id`);
  checkName(name, path);
  const metadata = checkJson(raw.metadata, `${path}.metadata`);
  return {
    id,
    name,
    type,
    startedAt,
    status,
    parentSpanId: optionalString(raw, 'parentSpanId', path, FIELD_LIMITS.idLength),
    input: checkJson(raw.input, `${path}.input`),
    output: checkJson(raw.output, `${path}.output`),
    tokenCount: optionalNumber(raw, 'tokenCount', path, 'tokens'),
    costUsd: optionalNumber(raw, 'costUsd', path, 'cost'),
    durationMs: optionalNumber(raw, 'durationMs', path, 'duration'),
    statusMessage: optionalString(raw, 'statusMessage', path, FIELD_LIMITS.textLength),
    endedAt: optionalDate(raw, 'endedAt', path),
    metadata,
    usage: type === 'LLM_CALL' ? usageFromMetadata(metadata) : null,
  };
}

function validateEvent(raw: unknown, path: string, checkJson: PayloadCheck): EventInput {
  if (!isObject(raw)) fail(`${path} must be an object`);
  const id = requireId(raw, path);
  const name = requireName(raw, path);
  const type = requireEnum(raw, 'type', EVENT_TYPES, path);
  const timestamp = requireDate(raw, 'timestamp', path);
  checkId(id, `${path}.id`);
  checkName(name, path);
  return {
    id,
    name,
    type,
    timestamp,
    spanId: optionalString(raw, 'spanId', path, FIELD_LIMITS.idLength),
    metadata: checkJson(raw.metadata, `${path}.metadata`),
  };
}

function validateTrace(
  raw: unknown,
  path: string,
  limits: Pick<Limits, 'maxChildrenPerTrace'>,
  checkJson: PayloadCheck,
): TraceInput {
  if (!isObject(raw)) fail(`${path} must be an object`);
  // The spec's order: id, name, startedAt, status, tags, decisionPoints, spans, events.
  const id = requireId(raw, path);
  const name = requireName(raw, path);
  const startedAt = requireDate(raw, 'startedAt', path);
  const status = requireEnum(raw, 'status', RUN_STATUSES, path);
  const tags = requireArray(raw, 'tags', path);
  const decisionPoints = requireArray(raw, 'decisionPoints', path);
  const spans = requireArray(raw, 'spans', path);
  const events = requireArray(raw, 'events', path);

  checkId(id, `${path}.id`);
  checkName(name, path);
  if (tags.length > FIELD_LIMITS.tagsPerTrace) fail(`${path}.tags must have at most ${FIELD_LIMITS.tagsPerTrace} entries`);
  tags.forEach((tag, i) => {
    if (typeof tag !== 'string') fail(`${path}.tags[${i}] must be a string`);
    if (tag.length > FIELD_LIMITS.tagLength) fail(`${path}.tags[${i}] must be at most ${FIELD_LIMITS.tagLength} characters`);
    checkText(tag, `${path}.tags[${i}]`);
  });
  const sessionId = optionalString(raw, 'sessionId', path, FIELD_LIMITS.idLength);
  const userId = optionalString(raw, 'userId', path, FIELD_LIMITS.idLength);
  if (userId !== null) checkId(userId, `${path}.userId`);
  const totalCost = optionalNumber(raw, 'totalCost', path, 'cost');
  const totalTokens = optionalNumber(raw, 'totalTokens', path, 'tokens');
  const totalDuration = optionalNumber(raw, 'totalDuration', path, 'duration');
  const endedAt = optionalDate(raw, 'endedAt', path);
  const metadata = checkJson(raw.metadata, `${path}.metadata`);

  const max = limits.maxChildrenPerTrace;
  checkCount(decisionPoints, 'decisionPoints', path, max);
  checkCount(spans, 'spans', path, max);
  checkCount(events, 'events', path, max);

  const trace: TraceInput = {
    id,
    name,
    sessionId,
    userId,
    status,
    tags: tags as string[],
    metadata,
    totalCost,
    totalTokens,
    totalDuration,
    startedAt,
    endedAt,
    decisionPoints: decisionPoints.map((d, i) => validateDecisionPoint(d, `${path}.decisionPoints[${i}]`, checkJson)),
    spans: spans.map((s, i) => validateSpan(s, `${path}.spans[${i}]`, checkJson)),
    events: events.map((e, i) => validateEvent(e, `${path}.events[${i}]`, checkJson)),
    scores: [],
  };
  checkUnique(trace.decisionPoints.map((d) => d.id), path, 'decisionPoints');
  checkUnique(trace.spans.map((s) => s.id), path, 'spans');
  checkUnique(trace.events.map((e) => e.id), path, 'events');
  trace.scores = validateTraceScores(raw.scores, trace, path);
  const experiment = validateExperimentRun(raw.experiment, `${path}.experiment`);
  if (experiment) trace.experiment = experiment;
  return trace;
}

/** A trace's optional `experiment`: {id, itemId, repetition?} (repetition 0 to 99, 0 when absent). */
function validateExperimentRun(raw: unknown, path: string): ExperimentRunInput | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) fail(`${path} must be an object {"id", "itemId", "repetition"?}`);
  const id = requireString(raw, 'id', path);
  const itemId = requireString(raw, 'itemId', path);
  checkId(id, `${path}.id`);
  checkId(itemId, `${path}.itemId`);
  const repetition = raw.repetition ?? 0;
  if (typeof repetition !== 'number' || !Number.isInteger(repetition) || repetition < 0 || repetition > MAX_REPETITION) {
    fail(`${path}.repetition must be an integer from 0 to ${MAX_REPETITION}`);
  }
  return { id, itemId, repetition };
}

const MAX_REPETITION = EXPERIMENT_LIMITS.maxRepetition;

/** A trace's optional `scores`: each on the trace, or on one of its own spans or decision points. */
function validateTraceScores(raw: unknown, trace: TraceInput, path: string): ScoreInput[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) fail(`${path}.scores must be an array`);
  if (raw.length > SCORE_LIMITS.perRequest) fail(`${path}.scores has ${raw.length} entries: at most ${SCORE_LIMITS.perRequest} are allowed per trace`);
  const spans = new Set(trace.spans.map((s) => s.id));
  const decisions = new Set(trace.decisionPoints.map((d) => d.id));
  return raw.map((item, j) => {
    const score = validateScore(item, `${path}.scores[${j}]`, trace.id);
    const { target } = score;
    if (target.kind === 'span' && !spans.has(target.spanId)) fail(`${score.path}.spanId "${target.spanId}" is not a span of this trace`);
    if (target.kind === 'decision' && !decisions.has(target.decisionPointId)) {
      fail(`${score.path}.decisionPointId "${target.decisionPointId}" is not a decision point of this trace`);
    }
    return score;
  });
}

type BatchLimits = Pick<Limits, 'maxBatchTraces' | 'maxChildrenPerTrace'>;

/**
 * A validated batch and the JSON text ingest stores its any-JSON payloads from: the
 * body's own text, so they are never serialised again.
 */
export interface ValidatedBatch {
  traces: TraceInput[];
  json: string;
}

/**
 * The batch of a body text that nests `depth` deep. A text nesting deeper than any
 * stored payload can is replaced by the validated values: PGlite 0.5 returns an empty
 * result, without an error, for jsonb input nested ~10,000 deep (PostgreSQL refuses it).
 */
function batchOf(traces: TraceInput[], text: string, depth: number): ValidatedBatch {
  return { traces, json: depth > STORED_DEPTH ? JSON.stringify({ traces }) : text };
}

/** Parses and validates a POST /api/traces body as received. */
export function parseIngestBody(text: string, limits: BatchLimits): ValidatedBatch {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail('Invalid JSON in request body');
  }
  const depth = nestingDepth(text, STORED_DEPTH);
  const proven = depth <= FIELD_LIMITS.jsonDepth && !SUSPECT_TEXT.test(text);
  return batchOf(validateTraces(body, limits, proven ? provenJson : walkJson), text, depth);
}

/**
 * The stored fields of an already validated body's text, as JSON: what ingest stores
 * payloads from when PostgreSQL's jsonb cannot read the text as written. Parses and
 * validates again (rare, so the common path keeps nothing of the parse alive).
 */
export function storableJson(text: string): string {
  const unlimited = { maxBatchTraces: Infinity, maxChildrenPerTrace: Infinity };
  return JSON.stringify({ traces: validateTraces(JSON.parse(text), unlimited) });
}

/** Validates a body built in code (SOAP save, tests). */
export function validateIngestBody(body: unknown, limits: BatchLimits): ValidatedBatch {
  const traces = validateTraces(body, limits);
  const text = JSON.stringify(body);
  return batchOf(traces, text, nestingDepth(text, STORED_DEPTH));
}

/** Validates a parsed POST /api/traces body; throws AppError('VALIDATION') on the first failure. */
function validateTraces(body: unknown, limits: BatchLimits, checkJson: PayloadCheck = walkJson): TraceInput[] {
  if (!isObject(body) || !Array.isArray(body.traces)) fail('Must contain a traces array');
  const raw = body.traces;
  if (raw.length === 0) fail('Traces array cannot be empty');
  if (raw.length > limits.maxBatchTraces) {
    fail(`Too many traces in one batch: ${raw.length}; at most ${limits.maxBatchTraces} are allowed`);
  }
  const seen = new Set<string>();
  const traces = raw.map((item, i) => {
    const trace = validateTrace(item, `traces[${i}]`, limits, checkJson);
    if (seen.has(trace.id)) fail(`traces[${i}].id "${trace.id}" appears more than once in this batch`);
    seen.add(trace.id);
    return trace;
  });
  checkUniqueIds(traces.flatMap((t) => t.scores), 'batch');
  return traces;
}
