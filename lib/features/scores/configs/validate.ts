// A score config as an admin sends it: POST takes every field, PATCH any of them, and the
// config that results must hold together (categories only for CATEGORICAL, bounds only
// for NUMERIC, min not above max).
import { parseJsonBody } from '@/lib/core/validate';
import { AppError } from '@/lib/core/errors';
import { SCORE_LIMITS } from '@/lib/features/scores/limits';
import { SCORE_DATA_TYPES, type ScoreDataType } from '@/lib/features/scores/types';
import { checkScoreName } from '@/lib/features/scores/validate';

export interface ScoreConfigInput {
  name: string;
  dataType: ScoreDataType;
  categories: string[];
  min: number | null;
  max: number | null;
  description: string | null;
}

type Obj = Record<string, unknown>;
const FIELDS = ['name', 'dataType', 'categories', 'min', 'max', 'description'] as const;

function fail(message: string): never {
  throw new AppError('VALIDATION', message);
}

function parseBody(text: string): Obj {
  const body = parseJsonBody(text);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('The body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!(FIELDS as readonly string[]).includes(key)) fail(`Unknown field ${key}: a score config has ${FIELDS.join(', ')}`);
  }
  return body as Obj;
}

function dataTypeOf(value: unknown): ScoreDataType {
  if (typeof value !== 'string' || !(SCORE_DATA_TYPES as readonly string[]).includes(value)) {
    const shown = value === undefined ? 'missing' : `"${typeof value === 'string' ? value : JSON.stringify(value)}"`;
    fail(`dataType is invalid (${shown}): must be one of ${SCORE_DATA_TYPES.join(', ')}`);
  }
  return value as ScoreDataType;
}

function categoriesOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail('categories must be an array of strings');
  if (value.length > SCORE_LIMITS.categoriesPerConfig) fail(`categories must have at most ${SCORE_LIMITS.categoriesPerConfig} entries`);
  const seen = new Set<string>();
  value.forEach((c, i) => {
    if (typeof c !== 'string' || c.length === 0) fail(`categories[${i}] must be a non-empty string`);
    if (c.length > SCORE_LIMITS.categoryLength) fail(`categories[${i}] must be at most ${SCORE_LIMITS.categoryLength} characters`);
    if (c.includes('\u0000')) fail(`categories[${i}] must not contain a NUL character`);
    if (seen.has(c)) fail(`categories[${i}] "${c}" appears more than once`);
    seen.add(c);
  });
  return value as string[];
}

function boundOf(value: unknown, field: 'min' | 'max'): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`${field} must be a finite number or null`);
  return value;
}

function descriptionOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail('description must be a string or null');
  if (value.length > SCORE_LIMITS.descriptionLength) fail(`description must be at most ${SCORE_LIMITS.descriptionLength} characters`);
  if (value.includes('\u0000')) fail('description must not contain a NUL character');
  return value;
}

/** The rules across fields, for a config as it will be stored. */
export function checkConfig(config: ScoreConfigInput): ScoreConfigInput {
  if (config.categories.length > 0 && config.dataType !== 'CATEGORICAL') fail('categories apply to CATEGORICAL scores only');
  if ((config.min !== null || config.max !== null) && config.dataType !== 'NUMERIC') fail('min and max apply to NUMERIC scores only');
  if (config.min !== null && config.max !== null && config.min > config.max) fail('min must not be greater than max');
  return config;
}

/** A POST /api/score-configs body. */
export function parseConfigBody(text: string): ScoreConfigInput {
  const body = parseBody(text);
  return checkConfig({
    name: checkScoreName(body.name, 'name'),
    dataType: dataTypeOf(body.dataType),
    categories: categoriesOf(body.categories),
    min: boundOf(body.min, 'min'),
    max: boundOf(body.max, 'max'),
    description: descriptionOf(body.description),
  });
}

/** A PATCH /api/score-configs/{id} body: the fields it changes (checked together with the stored ones by the verb). */
export function parseConfigPatch(text: string): Partial<ScoreConfigInput> {
  const body = parseBody(text);
  const patch: Partial<ScoreConfigInput> = {};
  if ('name' in body) patch.name = checkScoreName(body.name, 'name');
  if ('dataType' in body) patch.dataType = dataTypeOf(body.dataType);
  if ('categories' in body) patch.categories = categoriesOf(body.categories);
  if ('min' in body) patch.min = boundOf(body.min, 'min');
  if ('max' in body) patch.max = boundOf(body.max, 'max');
  if ('description' in body) patch.description = descriptionOf(body.description);
  return patch;
}
