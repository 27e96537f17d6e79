// The public names (business objects) the service knows, and the checks every object
// shares: keys for read and filters for query must be known, required ones present.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import type { ServiceContext } from '@/lib/core/context';
import type { Limits } from '@/lib/core/config';
import type { OutElement, ParamFields } from './codec';
import type { KeyValue } from './args';
import type { Meter } from './meter';
import { traceObject } from './objects/trace';
import { decisionObject, eventObject, spanObject } from './objects/children';
import { healthObject } from './objects/health';
import { traceStatsObject } from './objects/trace-stats';
import { decisionStatsObject } from './objects/decision-stats';
import { scoreObject } from './objects/score';

/** What an operation produces: the XML document, and the same data for adxwss.optreturn=JSON. */
export interface Payload {
  xml: OutElement;
  json: unknown;
}

export interface ObjectContext {
  /** Runs a step on the call's service context (its caller and database), timed into the technical infos. */
  withContext<T>(step: (ctx: ServiceContext) => Promise<T>): Promise<T>;
  meter: Meter;
  limits: Limits;
  /** Adds a type-2 (warning) message to the result. */
  warn(message: string): void;
}

export interface KeySpec {
  names: readonly string[];
  required: readonly string[];
}

export interface PublicObject {
  name: string;
  describe(): Payload;
  keys?: KeySpec;
  filters?: KeySpec;
  read?(ctx: ObjectContext, keys: Record<string, string>): Promise<Payload>;
  query?(ctx: ObjectContext, filters: Record<string, string>, listSize: number): Promise<Payload>;
  save?(ctx: ObjectContext, objectXml: string): Promise<Payload>;
  run?(ctx: ObjectContext, params: ParamFields): Promise<Payload>;
  /** Its run writes data: the caller needs the ingest scope, as for save. */
  runWrites?: boolean;
}

export const PUBLIC_OBJECTS: readonly PublicObject[] = [
  traceObject,
  spanObject,
  decisionObject,
  eventObject,
  healthObject,
  traceStatsObject,
  decisionStatsObject,
  scoreObject,
];

const BY_NAME = new Map(PUBLIC_OBJECTS.map((o) => [o.name, o]));

export function findObject(publicName: string): PublicObject {
  const found = BY_NAME.get(publicName.trim().toUpperCase());
  if (!found) {
    const known = PUBLIC_OBJECTS.map((o) => o.name).join(', ');
    throw new AppError('VALIDATION', `Unknown public name "${publicName}"; available: ${known}`);
  }
  return found;
}

/** Whether a call writes (save, or the run of an object whose run writes), so needs the ingest scope. */
export function callWrites(operation: string, publicName: string): boolean {
  if (operation === 'save') return true;
  return operation === 'run' && BY_NAME.get(publicName.trim().toUpperCase())?.runWrites === true;
}

/** The operations an object supports, for the list of public names. */
export function operationsOf(o: PublicObject): string[] {
  return ['getDescription', ...(['read', 'query', 'save', 'run'] as const).filter((op) => o[op])];
}

/**
 * objectKeys as a record, checked against spec: an unknown name or a missing required
 * one is a business failure naming it. `what` is "key" (read) or "filter" (query).
 */
export function checkKeys(
  objectName: string,
  entries: KeyValue[],
  spec: KeySpec,
  what: 'key' | 'filter',
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of entries) {
    if (!spec.names.includes(key)) {
      const allowed = spec.names.length ? `; ${what}s are: ${spec.names.join(', ')}` : '';
      throw new AppError('VALIDATION', `Unknown ${what} "${key}" for ${objectName}${allowed}`);
    }
    out[key] = value;
  }
  for (const name of spec.required) {
    if (out[name] === undefined || out[name].trim() === '') {
      throw new AppError('VALIDATION', `Missing required ${what} "${name}" for ${objectName}`);
    }
  }
  return out;
}

/** The list shown by getDescription with an empty publicName. */
export function describeAll(): Payload {
  return {
    xml: {
      tag: 'ADXDESC',
      children: PUBLIC_OBJECTS.map((o) => ({
        tag: 'OBJ',
        attrs: [
          ['NAM', o.name],
          ['OPS', operationsOf(o).join(',')],
        ],
      })),
    },
    json: { publicNames: PUBLIC_OBJECTS.map((o) => ({ name: o.name, operations: operationsOf(o) })) },
  };
}
