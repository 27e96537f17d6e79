// Request bodies of the datasets API, parsed once into typed input. Errors name the field
// as the trace API does (`items[3].input`).
import { AppError } from '@/lib/core/errors';
import { FIELD_LIMITS } from '@/lib/core/limits';
import { checkStorableJson, checkStorableText, CONTROL_CHARS, parseJsonBody } from '@/lib/core/validate';
import { DECISION_TYPES, type DecisionType } from '@/lib/features/traces/shared';
import { DATASET_LIMITS } from './limits';
import type { CreateDatasetInput, DatasetItemInput, ExpectedDecision } from './types';

type Obj = Record<string, unknown>;

function fail(message: string): never {
  throw new AppError('VALIDATION', message);
}

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A dataset's name, or the 400 that says what one is. */
export function checkDatasetName(value: unknown, field = 'name'): string {
  if (typeof value !== 'string' || !DATASET_LIMITS.namePattern.test(value)) {
    fail(`${field} is required: 1 to 100 letters, digits, '.', '_' or '-'`);
  }
  return value;
}

function optionalText(obj: Obj, field: string, path: string, max: number): string | null {
  const value = obj[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail(`${path}${field} must be a string or null`);
  if (value.length > max) fail(`${path}${field} must be at most ${max} characters`);
  checkStorableText(value, `${path}${field}`);
  return value;
}

/** POST /api/datasets: {name, description?, metadata?}. */
export function parseCreateDatasetBody(text: string): CreateDatasetInput {
  const body = parseJsonBody(text);
  if (!isObject(body)) fail('Body must be a JSON object');
  return {
    name: checkDatasetName(body.name),
    description: optionalText(body, 'description', '', DATASET_LIMITS.descriptionLength),
    metadata: body.metadata === undefined ? null : checkStorableJson(body.metadata, 'metadata'),
  };
}

function expectedDecisions(value: unknown, path: string): ExpectedDecision[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) fail(`${path} must be an array of {"type"?, "chosen"} or null`);
  if (value.length > DATASET_LIMITS.expectedDecisions) fail(`${path} must hold at most ${DATASET_LIMITS.expectedDecisions} decisions`);
  return value.map((raw, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(raw) || !('chosen' in raw)) fail(`${at} must be an object with "chosen"`);
    const decision: ExpectedDecision = { chosen: checkStorableJson(raw.chosen, `${at}.chosen`) };
    if (raw.type !== undefined && raw.type !== null) {
      if (typeof raw.type !== 'string' || !(DECISION_TYPES as readonly string[]).includes(raw.type)) {
        fail(`${at}.type is invalid: must be one of ${DECISION_TYPES.join(', ')}`);
      }
      decision.type = raw.type as DecisionType;
    }
    return decision;
  });
}

function itemId(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length === 0) fail(`${path} must be a non-empty string or absent`);
  if (value.length > FIELD_LIMITS.idLength) fail(`${path} must be at most ${FIELD_LIMITS.idLength} characters`);
  if (CONTROL_CHARS.test(value)) fail(`${path} must not contain control characters`);
  return value;
}

/** One item as the API and the uploads take it. */
export function parseItem(raw: unknown, path: string): DatasetItemInput {
  if (!isObject(raw)) fail(`${path} must be an object`);
  if (!('input' in raw)) fail(`${path}.input is required (any JSON)`);
  if (raw.archived !== undefined && typeof raw.archived !== 'boolean') fail(`${path}.archived must be true or false`);
  return {
    id: itemId(raw.id, `${path}.id`),
    input: checkStorableJson(raw.input, `${path}.input`),
    expectedOutput: raw.expectedOutput === undefined ? null : checkStorableJson(raw.expectedOutput, `${path}.expectedOutput`),
    expectedDecisions: expectedDecisions(raw.expectedDecisions, `${path}.expectedDecisions`),
    metadata: raw.metadata === undefined ? null : checkStorableJson(raw.metadata, `${path}.metadata`),
    sourceTraceId: itemId(raw.sourceTraceId, `${path}.sourceTraceId`),
    archived: raw.archived === true,
  };
}

/** POST /api/datasets/{name}/items: {items: [...]}, 1 to 1,000, ids unique in the request. */
export function parseItemsBody(text: string): DatasetItemInput[] {
  const body = parseJsonBody(text);
  if (!isObject(body) || !Array.isArray(body.items)) fail('Must contain an items array');
  const raw = body.items;
  if (raw.length === 0) fail('Items array cannot be empty');
  if (raw.length > DATASET_LIMITS.itemsPerRequest) {
    fail(`Too many items in one request: ${raw.length}; at most ${DATASET_LIMITS.itemsPerRequest} are allowed`);
  }
  const seen = new Set<string>();
  return raw.map((entry, i) => {
    const item = parseItem(entry, `items[${i}]`);
    if (item.id !== null) {
      if (seen.has(item.id)) fail(`items[${i}].id "${item.id}" appears more than once in this request`);
      seen.add(item.id);
    }
    return item;
  });
}
