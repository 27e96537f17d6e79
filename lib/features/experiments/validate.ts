// Request bodies and parameters of the experiments API, parsed once into typed input.
import { AppError } from '@/lib/core/errors';
import { FIELD_LIMITS } from '@/lib/core/limits';
import { checkStorableJson, CONTROL_CHARS, parseJsonBody } from '@/lib/core/validate';
import { checkDatasetName } from '@/lib/features/datasets/shared';
import type { CreateExperimentInput, PassCriterion, RunLink } from './types';

type Obj = Record<string, unknown>;

export const EXPERIMENT_LIMITS = {
  namePattern: /^[^\u0000-\u001f\u007f]{1,200}$/,
  runsPerRequest: 1_000,
  /** Repetitions of one item in one experiment. */
  maxRepetition: 99,
  passCriteria: 20,
  /** Experiments one compare takes. */
  compareMin: 2,
  compareMax: 5,
} as const;

function fail(message: string): never {
  throw new AppError('VALIDATION', message);
}

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

function idField(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) fail(`${path} is required and must be a non-empty string`);
  if (value.length > FIELD_LIMITS.idLength) fail(`${path} must be at most ${FIELD_LIMITS.idLength} characters`);
  if (CONTROL_CHARS.test(value)) fail(`${path} must not contain control characters`);
  return value;
}

/** A run's repetition: an integer from 0 to 99; absent, 0. */
export function repetitionField(value: unknown, path: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > EXPERIMENT_LIMITS.maxRepetition) {
    fail(`${path} must be an integer from 0 to ${EXPERIMENT_LIMITS.maxRepetition}`);
  }
  return value;
}

function passCriteria(value: unknown): PassCriterion[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail('passCriteria must be an array of {"scoreName", "min"?, "equals"?}');
  if (value.length > EXPERIMENT_LIMITS.passCriteria) fail(`passCriteria must hold at most ${EXPERIMENT_LIMITS.passCriteria} criteria`);
  return value.map((raw, i) => {
    const path = `passCriteria[${i}]`;
    if (!isObject(raw) || typeof raw.scoreName !== 'string' || raw.scoreName.length === 0) fail(`${path}.scoreName is required`);
    const criterion: PassCriterion = { scoreName: raw.scoreName };
    if (raw.min !== undefined) {
      if (typeof raw.min !== 'number' || !Number.isFinite(raw.min)) fail(`${path}.min must be a number`);
      criterion.min = raw.min;
    }
    if (raw.equals !== undefined) {
      if (!['number', 'string', 'boolean'].includes(typeof raw.equals)) fail(`${path}.equals must be a number, a string or a boolean`);
      criterion.equals = raw.equals as number | string | boolean;
    }
    if (criterion.min === undefined && criterion.equals === undefined) fail(`${path} needs "min" or "equals"`);
    return criterion;
  });
}

/** POST /api/experiments: {dataset, name, metadata?, passCriteria?}. */
export function parseCreateExperimentBody(text: string): CreateExperimentInput {
  const body = parseJsonBody(text);
  if (!isObject(body)) fail('Body must be a JSON object');
  const dataset = checkDatasetName(body.dataset, 'dataset');
  if (typeof body.name !== 'string' || !EXPERIMENT_LIMITS.namePattern.test(body.name)) fail('name is required: 1 to 200 characters, no control characters');
  return {
    dataset,
    name: body.name,
    metadata: body.metadata === undefined ? null : checkStorableJson(body.metadata, 'metadata'),
    passCriteria: passCriteria(body.passCriteria),
  };
}

/** POST /api/experiments/{id}/runs: {runs: [{itemId, traceId, repetition?}]}, one per (item, repetition). */
export function parseRunsBody(text: string): RunLink[] {
  const body = parseJsonBody(text);
  if (!isObject(body) || !Array.isArray(body.runs)) fail('Must contain a runs array');
  if (body.runs.length === 0) fail('Runs array cannot be empty');
  if (body.runs.length > EXPERIMENT_LIMITS.runsPerRequest) {
    fail(`Too many runs in one request: ${body.runs.length}; at most ${EXPERIMENT_LIMITS.runsPerRequest} are allowed`);
  }
  const seen = new Set<string>();
  return body.runs.map((raw, i) => {
    const path = `runs[${i}]`;
    if (!isObject(raw)) fail(`${path} must be an object`);
    const run = { itemId: idField(raw.itemId, `${path}.itemId`), traceId: idField(raw.traceId, `${path}.traceId`), repetition: repetitionField(raw.repetition, `${path}.repetition`) };
    const key = JSON.stringify([run.itemId, run.repetition]);
    if (seen.has(key)) fail(`${path}: item "${run.itemId}" repetition ${run.repetition} appears more than once in this request`);
    seen.add(key);
    return run;
  });
}

/** GET /api/experiments/compare?ids=a,b[,…]: 2 to 5 distinct ids. */
export function parseCompareIds(value: string | null): string[] {
  const ids = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length < EXPERIMENT_LIMITS.compareMin || ids.length > EXPERIMENT_LIMITS.compareMax || new Set(ids).size !== ids.length) {
    throw new AppError('VALIDATION', `Invalid ids parameter: ${EXPERIMENT_LIMITS.compareMin} to ${EXPERIMENT_LIMITS.compareMax} distinct experiment ids, separated by commas`);
  }
  return ids;
}
