// Validation of scores as clients send them (POST /api/scores, a JSON batch's `scores`,
// OTLP score events, SOAP's SCORE): the shape, the limits, the data type taken from the
// value, and, once the configs are read, that each fits its name's config. The first
// failure wins; messages name the field with its index (`scores[2].value`).
import { parseJsonBody } from '@/lib/core/validate';
import { AppError } from '@/lib/core/errors';
import { FIELD_LIMITS, NUMBER_LIMITS } from '@/lib/core/limits';
import type { JsonValue } from '@/lib/core/json';
import { SCORE_LIMITS } from './limits';
import { SCORE_DATA_TYPES, type ScoreConfigRecord, type ScoreDataType, type ScoreValue } from './types';

export type ScoreTarget =
  | { kind: 'trace'; traceId: string }
  | { kind: 'span'; traceId: string; spanId: string }
  | { kind: 'decision'; traceId: string; decisionPointId: string }
  | { kind: 'session'; sessionId: string };

/** A validated score, with where it sat in the request (for later messages). */
export interface ScoreInput {
  /** The client's id, or null (the server makes one). */
  id: string | null;
  target: ScoreTarget;
  name: string;
  value: ScoreValue;
  dataType: ScoreDataType;
  /** Whether the client gave dataType (else it was taken from the value). */
  explicitType: boolean;
  comment: string | null;
  metadata: JsonValue | null;
  /** `scores[2]`, `traces[0].scores[1]`: the prefix of this score's messages. */
  path: string;
}

type Obj = Record<string, unknown>;

function fail(message: string): never {
  throw new AppError('VALIDATION', message);
}

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
// PostgreSQL text cannot hold NUL, nor jsonb an unpaired surrogate.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// The same, as JSON.stringify escapes them (it writes a lone surrogate as \udxxx).
const UNSTORABLE_JSON = /\\u(?:0000|[dD][89a-fA-F])/;
const ID_LENGTH = 256;

function checkText(value: string, path: string): void {
  if (UNSTORABLE.test(value)) fail(`${path} contains a NUL character or an unpaired surrogate, which cannot be stored`);
}

/** A target id: a non-empty string of at most 256 characters without control characters. */
function optionalId(obj: Obj, field: string, path: string): string | null {
  const value = obj[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length === 0) fail(`${path}.${field} must be a non-empty string`);
  if (value.length > ID_LENGTH) fail(`${path}.${field} must be at most ${ID_LENGTH} characters`);
  if (CONTROL_CHARS.test(value)) fail(`${path}.${field} must not contain control characters`);
  checkText(value, `${path}.${field}`);
  return value;
}

export function dataTypeOf(value: ScoreValue): ScoreDataType {
  return typeof value === 'number' ? 'NUMERIC' : typeof value === 'boolean' ? 'BOOLEAN' : 'CATEGORICAL';
}

const VALUE_KIND: Record<ScoreDataType, string> = { NUMERIC: 'a number', BOOLEAN: 'a boolean', CATEGORICAL: 'a string' };

/** A score's name, as scores and configs both have it. */
export function checkScoreName(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) fail(`${path} is required and must be a non-empty string`);
  if (value.length > SCORE_LIMITS.nameLength) fail(`${path} must be at most ${SCORE_LIMITS.nameLength} characters`);
  checkText(value, path);
  return value;
}

function scoreTarget(raw: Obj, path: string, traceOf: string | null): ScoreTarget {
  const traceId = optionalId(raw, 'traceId', path);
  const sessionId = optionalId(raw, 'sessionId', path);
  const spanId = optionalId(raw, 'spanId', path);
  const decisionPointId = optionalId(raw, 'decisionPointId', path);
  if (spanId !== null && decisionPointId !== null) {
    fail(`${path}.decisionPointId cannot be given with spanId: a score has one target`);
  }
  if (traceOf !== null) {
    // Inside a JSON batch the trace is implied; its scores target it or its children.
    if (traceId !== null && traceId !== traceOf) fail(`${path}.traceId must be this trace's id ("${traceOf}") or absent`);
    if (sessionId !== null) fail(`${path}.sessionId cannot be given here: a trace's scores target the trace, a span or a decision point`);
  } else if (traceId === null) {
    if (sessionId === null) fail(`${path}.traceId is required (or sessionId alone, for a session's score)`);
    if (spanId !== null) fail(`${path}.spanId needs traceId: a span is scored within its trace`);
    if (decisionPointId !== null) fail(`${path}.decisionPointId needs traceId: a decision point is scored within its trace`);
    return { kind: 'session', sessionId };
  } else if (sessionId !== null) {
    fail(`${path}.sessionId cannot be given with traceId: a score has one target (a session's score has no traceId)`);
  }
  const trace = traceId ?? traceOf!;
  if (spanId !== null) return { kind: 'span', traceId: trace, spanId };
  if (decisionPointId !== null) return { kind: 'decision', traceId: trace, decisionPointId };
  return { kind: 'trace', traceId: trace };
}

function scoreValue(raw: Obj, path: string): { value: ScoreValue; dataType: ScoreDataType; explicitType: boolean } {
  const value = raw.value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(`${path}.value must be a finite number`);
    if (Math.abs(value) > NUMBER_LIMITS.score) fail(`${path}.value must be from -${NUMBER_LIMITS.score} to ${NUMBER_LIMITS.score}`);
  } else if (typeof value === 'string') {
    if (value.length > SCORE_LIMITS.categoryLength) fail(`${path}.value must be at most ${SCORE_LIMITS.categoryLength} characters`);
    checkText(value, `${path}.value`);
  } else if (typeof value !== 'boolean') {
    fail(`${path}.value is required and must be a number, a string or a boolean`);
  }
  const inferred = dataTypeOf(value);
  const given = raw.dataType;
  if (given === undefined || given === null) return { value, dataType: inferred, explicitType: false };
  if (typeof given !== 'string' || !(SCORE_DATA_TYPES as readonly string[]).includes(given)) {
    const shown = typeof given === 'string' ? given : JSON.stringify(given);
    fail(`${path}.dataType is invalid ("${shown}"): must be one of ${SCORE_DATA_TYPES.join(', ')}`);
  }
  if (given !== inferred) fail(`${path}.value must be ${VALUE_KIND[given as ScoreDataType]} for dataType ${given}`);
  return { value, dataType: inferred, explicitType: true };
}

function optionalComment(raw: Obj, path: string): string | null {
  const value = raw.comment;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail(`${path}.comment must be a string or null`);
  if (value.length > SCORE_LIMITS.commentLength) fail(`${path}.comment must be at most ${SCORE_LIMITS.commentLength} characters`);
  checkText(value, `${path}.comment`);
  return value;
}

/**
 * Refuses a value nested deeper than a trace's payloads may be: checked iteratively and
 * before serialising, which recurses and throws on a value nested thousands deep.
 */
function checkDepth(value: unknown, path: string): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > FIELD_LIMITS.jsonDepth) fail(`${path} is nested deeper than ${FIELD_LIMITS.jsonDepth} levels`);
    for (const item of Array.isArray(node) ? node : Object.values(node)) stack.push([item, depth + 1]);
  }
}

function optionalMetadata(raw: Obj, path: string): JsonValue | null {
  const value = raw.metadata;
  if (value === undefined || value === null) return null;
  checkDepth(value, `${path}.metadata`);
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text, 'utf8') > SCORE_LIMITS.metadataBytes) {
    fail(`${path}.metadata must be at most ${SCORE_LIMITS.metadataBytes} bytes as JSON`);
  }
  if (UNSTORABLE_JSON.test(text)) fail(`${path}.metadata contains a NUL character or an unpaired surrogate, which cannot be stored`);
  return value as JsonValue;
}

/**
 * One score as a client sent it. `traceOf`: the trace a JSON batch's score belongs to
 * (its traceId is implied and it cannot target a session); null for POST /api/scores.
 */
export function validateScore(raw: unknown, path: string, traceOf: string | null = null): ScoreInput {
  if (!isObject(raw)) fail(`${path} must be an object`);
  const id = optionalId(raw, 'id', path);
  const target = scoreTarget(raw, path, traceOf);
  const name = checkScoreName(raw.name, `${path}.name`);
  const { value, dataType, explicitType } = scoreValue(raw, path);
  return { id, target, name, value, dataType, explicitType, comment: optionalComment(raw, path), metadata: optionalMetadata(raw, path), path };
}

/** A client id given twice in one request would be two writes of one score: refused. */
export function checkUniqueIds(scores: readonly ScoreInput[], where: string): void {
  const seen = new Set<string>();
  for (const score of scores) {
    if (score.id === null) continue;
    if (seen.has(score.id)) fail(`${score.path}.id "${score.id}" appears more than once in this ${where}`);
    seen.add(score.id);
  }
}

/** Validates a POST /api/scores body (already parsed). */
export function validateScoresBody(body: unknown): ScoreInput[] {
  if (!isObject(body) || !Array.isArray(body.scores)) fail('Must contain a scores array');
  const raw = body.scores;
  if (raw.length === 0) fail('Scores array cannot be empty');
  if (raw.length > SCORE_LIMITS.perRequest) {
    fail(`Too many scores in one request: ${raw.length}; at most ${SCORE_LIMITS.perRequest} are allowed`);
  }
  const scores = raw.map((item, i) => validateScore(item, `scores[${i}]`));
  checkUniqueIds(scores, 'request');
  return scores;
}

/** Parses and validates a POST /api/scores body text. */
export function parseScoresBody(text: string): ScoreInput[] {
  const body = parseJsonBody(text);
  return validateScoresBody(body);
}

/** Checks each score against its name's config (when there is one); the first misfit is a 400 naming the field. */
export function checkScoresFitConfigs(scores: readonly ScoreInput[], configs: ReadonlyMap<string, ScoreConfigRecord>): void {
  for (const score of scores) {
    const config = configs.get(score.name);
    if (!config) continue;
    const { path, name, value } = score;
    const rule = `score "${name}" is ${config.dataType} by its config`;
    if (score.dataType !== config.dataType) {
      if (score.explicitType) fail(`${path}.dataType is ${score.dataType}, but ${rule}`);
      fail(`${path}.value must be ${VALUE_KIND[config.dataType]}: ${rule}`);
    }
    if (typeof value === 'string' && config.categories.length > 0 && !config.categories.includes(value)) {
      fail(`${path}.value "${value}" is not one of the categories of score "${name}": ${config.categories.join(', ')}`);
    }
    if (typeof value === 'number') {
      if (config.min !== null && value < config.min) fail(`${path}.value must be at least ${config.min} for score "${name}" (its config)`);
      if (config.max !== null && value > config.max) fail(`${path}.value must be at most ${config.max} for score "${name}" (its config)`);
    }
  }
}
