// Request bodies of the evaluators API, parsed once into typed input. Errors name the
// field (`config.pattern`, `target.query`) as the rest of the API does.
import { AppError } from '@/lib/core/errors';
import type { JsonValue } from '@/lib/core/json';
import { checkStorableJson, checkStorableText, CONTROL_CHARS, parseJsonBody } from '@/lib/core/validate';
import { SCORE_LIMITS } from '@/lib/features/scores/shared';
import { parseTraceFilters, TRACE_FILTER_NAMES } from '@/lib/features/query';
import { compileSchema } from './json-schema';
import { EVALUATOR_LIMITS } from './limits';
import { parseRuleConfig, RULE_KINDS, type RuleKind } from './rules';
import { EVALUATOR_KINDS, TARGETS, type EvaluatorInput, type EvaluatorKind, type EvaluatorTarget, type TargetOn } from './types';

type Obj = Record<string, unknown>;

function fail(message: string): never {
  throw new AppError('VALIDATION', message);
}

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

export const isRuleKind = (kind: EvaluatorKind): kind is RuleKind => (RULE_KINDS as readonly string[]).includes(kind);

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') fail(`${field} is required: a non-empty string`);
  if (Array.from(value).length > max) fail(`${field} must be at most ${max} characters`);
  if (CONTROL_CHARS.test(value)) fail(`${field} must not contain control characters`);
  checkStorableText(value, field);
  return value;
}

function intIn(value: unknown, field: string, { min, max }: { min: number; max: number }): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(`${field} must be an integer from ${min} to ${max}`);
  return value;
}

/** llm_judge: {prompt, categories?, maxTrajectoryChars?, ratePerMinute?}. */
export interface JudgeConfig {
  prompt: string;
  categories: string[] | null;
  maxTrajectoryChars: number;
  ratePerMinute: number;
}

export function parseJudgeConfig(raw: unknown): JudgeConfig {
  if (!isObject(raw)) fail('config must be an object with "prompt"');
  if (typeof raw.prompt !== 'string' || raw.prompt.trim() === '') fail('config.prompt is required for llm_judge: a template with {{input}}, {{output}}, {{expected}}, {{decisions}} or {{trajectory}}');
  if (raw.prompt.length > EVALUATOR_LIMITS.promptLength) fail(`config.prompt must be at most ${EVALUATOR_LIMITS.promptLength} characters`);
  checkStorableText(raw.prompt, 'config.prompt');
  let categories: string[] | null = null;
  if (raw.categories !== undefined && raw.categories !== null) {
    const list = raw.categories;
    if (!Array.isArray(list) || list.length === 0 || list.length > EVALUATOR_LIMITS.categories) fail(`config.categories must be a list of 1 to ${EVALUATOR_LIMITS.categories} names`);
    categories = list.map((c, i) => text(c, `config.categories[${i}]`, EVALUATOR_LIMITS.categoryLength));
    if (new Set(categories).size !== categories.length) fail('config.categories must not repeat a name');
  }
  const t = EVALUATOR_LIMITS.trajectoryChars;
  const r = EVALUATOR_LIMITS.ratePerMinute;
  return {
    prompt: raw.prompt,
    categories,
    maxTrajectoryChars: raw.maxTrajectoryChars === undefined ? t.default : intIn(raw.maxTrajectoryChars, 'config.maxTrajectoryChars', t),
    ratePerMinute: raw.ratePerMinute === undefined ? r.default : intIn(raw.ratePerMinute, 'config.ratePerMinute', r),
  };
}

/** json_schema: {schema, field?}. */
export interface SchemaConfig {
  schema: JsonValue;
  field?: string;
}

export function parseSchemaConfig(raw: unknown): SchemaConfig {
  if (!isObject(raw)) fail('config must be an object with "schema"');
  if (raw.schema === undefined) fail('config.schema is required for json_schema: a JSON Schema object');
  if (JSON.stringify(raw.schema).length > EVALUATOR_LIMITS.schemaChars) fail(`config.schema must be at most ${EVALUATOR_LIMITS.schemaChars} characters as JSON`);
  compileSchema(raw.schema);
  const out: SchemaConfig = { schema: raw.schema as JsonValue };
  if (raw.field !== undefined) {
    if (typeof raw.field !== 'string' || raw.field === '') fail('config.field must be a non-empty dot path');
    out.field = raw.field;
  }
  return out;
}

/** A kind's config checked; stored as given (defaults are applied when it runs). */
export function checkConfig(kind: EvaluatorKind, raw: unknown): JsonValue {
  if (kind === 'llm_judge') parseJudgeConfig(raw);
  else if (kind === 'json_schema') parseSchemaConfig(raw);
  else parseRuleConfig(kind, raw);
  return checkStorableJson(raw ?? {}, 'config') as JsonValue;
}

/** A live target's query, read as the trace list reads its URL (a bad filter is the list's 400). */
function checkQuery(query: string): void {
  parseTraceFilters(new URLSearchParams(query), TRACE_FILTER_NAMES);
}

function parseTarget(raw: unknown): EvaluatorTarget {
  if (!isObject(raw)) fail('target is required: {"on": "live" | "experiments", ...}');
  if (typeof raw.on !== 'string' || !(TARGETS as readonly string[]).includes(raw.on)) fail(`target.on must be one of ${TARGETS.join(', ')}`);
  const on = raw.on as TargetOn;
  if (on === 'experiments') {
    if (typeof raw.dataset !== 'string' || raw.dataset === '') fail('target.dataset is required with "on": "experiments": the name of a dataset');
    if (raw.query !== undefined && raw.query !== '') fail('target.query is only for "on": "live" (experiment evaluators score every run)');
    if (raw.sampleRate !== undefined && raw.sampleRate !== 1) fail('target.sampleRate is only for "on": "live" (experiment evaluators score every run)');
    return { on, dataset: raw.dataset, query: '', sampleRate: 1 };
  }
  if (raw.dataset !== undefined && raw.dataset !== null) fail('target.dataset is only for "on": "experiments"');
  let query = '';
  if (raw.query !== undefined && raw.query !== null) {
    if (typeof raw.query !== 'string') fail('target.query must be the trace list\'s query string, e.g. "name=support&tag=prod"');
    if (raw.query.length > EVALUATOR_LIMITS.queryLength) fail(`target.query must be at most ${EVALUATOR_LIMITS.queryLength} characters`);
    query = raw.query.replace(/^\?/, '');
    try {
      checkQuery(query);
    } catch (err) {
      if (err instanceof AppError) fail(`target.query: ${err.message}`);
      throw err;
    }
  }
  let sampleRate = 1;
  if (raw.sampleRate !== undefined) {
    if (typeof raw.sampleRate !== 'number' || !(raw.sampleRate >= 0 && raw.sampleRate <= 1)) fail('target.sampleRate must be a number from 0 to 1');
    sampleRate = raw.sampleRate;
  }
  return { on, dataset: null, query, sampleRate };
}

function parseKind(value: unknown): EvaluatorKind {
  if (typeof value !== 'string' || !(EVALUATOR_KINDS as readonly string[]).includes(value)) fail(`kind must be one of ${EVALUATOR_KINDS.join(', ')}`);
  return value as EvaluatorKind;
}

function parseEnabled(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean') fail('enabled must be true or false');
  return value;
}

/** POST /api/evaluators: {name, kind, config, scoreName, target, enabled?}. */
export function parseEvaluatorBody(bodyText: string): EvaluatorInput {
  const body = parseJsonBody(bodyText);
  if (!isObject(body)) fail('Body must be a JSON object');
  return evaluatorInput(body);
}

function evaluatorInput(body: Obj): EvaluatorInput {
  const name = text(body.name, 'name', EVALUATOR_LIMITS.nameLength);
  const kind = parseKind(body.kind);
  const config = checkConfig(kind, body.config);
  const scoreName = text(body.scoreName, 'scoreName', SCORE_LIMITS.nameLength);
  const target = parseTarget(body.target);
  return { name, kind, config, scoreName, target, enabled: parseEnabled(body.enabled) };
}

const PATCHABLE = ['name', 'kind', 'config', 'scoreName', 'target', 'enabled'] as const;

/** PATCH /api/evaluators/{id}: any of the fields, each replacing the stored one; the result is checked whole. */
export function parseEvaluatorPatch(bodyText: string, stored: EvaluatorInput): EvaluatorInput {
  const body = parseJsonBody(bodyText);
  if (!isObject(body)) fail('Body must be a JSON object');
  const unknown = Object.keys(body).find((k) => !(PATCHABLE as readonly string[]).includes(k));
  if (unknown !== undefined) fail(`${unknown} cannot be changed: give any of ${PATCHABLE.join(', ')}`);
  // A target sent replaces the stored one whole, as other fields do.
  return evaluatorInput({ ...stored, target: storedTarget(stored.target), ...body });
}

/** A stored target as a client would send it. */
function storedTarget(target: EvaluatorTarget): Obj {
  return target.on === 'experiments' ? { on: target.on, dataset: target.dataset } : { on: target.on, query: target.query, sampleRate: target.sampleRate };
}

/** POST /api/evaluators/try: {traceId, evaluator: {kind, config, target?}} or {traceId, evaluatorId}. */
export function parseTryBody(bodyText: string): { traceId: string; evaluatorId: string | null; evaluator: Pick<EvaluatorInput, 'kind' | 'config' | 'target'> | null } {
  const body = parseJsonBody(bodyText);
  if (!isObject(body)) fail('Body must be a JSON object');
  if (typeof body.traceId !== 'string' || body.traceId === '') fail('traceId is required');
  if (body.evaluatorId !== undefined) {
    if (typeof body.evaluatorId !== 'string' || body.evaluatorId === '') fail('evaluatorId must be an evaluator\'s id');
    return { traceId: body.traceId, evaluatorId: body.evaluatorId, evaluator: null };
  }
  if (!isObject(body.evaluator)) fail('evaluator is required: {kind, config, target?} (or give evaluatorId)');
  const kind = parseKind(body.evaluator.kind);
  const config = checkConfig(kind, body.evaluator.config);
  const target = body.evaluator.target === undefined ? { on: 'live' as const, dataset: null, query: '', sampleRate: 1 } : parseTarget(body.evaluator.target);
  return { traceId: body.traceId, evaluatorId: null, evaluator: { kind, config, target } };
}
