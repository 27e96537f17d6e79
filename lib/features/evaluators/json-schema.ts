// The json_schema evaluator: is the run's output (or a field of it) valid against a JSON
// Schema? Ajv compiles and checks; drafts 2020-12 and 07 both work, by the schema's $schema.
import Ajv2020 from 'ajv/dist/2020';
import Ajv from 'ajv';
import { AppError } from '@/lib/core/errors';
import type { JsonValue } from '@/lib/core/json';
import type { ValidateFunction } from 'ajv';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema';

// strict: false lets schemas written for other validators (unknown keywords) still compile.
const ajv2020 = new Ajv2020({ allErrors: true, strict: false });
const ajv07 = new Ajv({ allErrors: true, strict: false });

const compiled = new Map<string, ValidateFunction>();

/** The schema compiled (kept by its text), or a VALIDATION error naming `field`. */
export function compileSchema(schema: unknown, field = 'config.schema'): ValidateFunction {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new AppError('VALIDATION', `${field} must be a JSON Schema object`);
  const key = JSON.stringify(schema);
  const known = compiled.get(key);
  if (known) return known;
  const $schema = (schema as { $schema?: unknown }).$schema;
  const ajv = typeof $schema === 'string' && $schema.replace(/#$/, '') === DRAFT_07 ? ajv07 : ajv2020;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw new AppError('VALIDATION', `${field} is not a valid JSON Schema: ${(err as Error).message}`);
  }
  if (compiled.size > 500) compiled.clear();
  compiled.set(key, validate);
  return validate;
}

/** Whether the value is valid against a schema, and the first few problems when not. */
export function checkAgainstSchema(schema: unknown, value: JsonValue | null | undefined): { valid: boolean; comment: string } {
  return checkWith(compileSchema(schema), value);
}

/** checkAgainstSchema with the schema compiled already. */
export function checkWith(validate: ValidateFunction, value: JsonValue | null | undefined): { valid: boolean; comment: string } {
  if (validate(value ?? null)) return { valid: true, comment: 'The output is valid against the schema.' };
  const problems = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '(the output)'} ${e.message ?? 'is invalid'}`);
  return { valid: false, comment: `Not valid: ${problems.join('; ')}.` };
}
