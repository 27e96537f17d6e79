// The fields of each business object, declared once and used three ways: to write
// records as FLD/LST nodes, to read PARAM fields back into a JSON-API-shaped object for
// the domain validator, and to describe the object (getDescription).
import { AppError } from '@/lib/core/errors';
import { DECISION_TYPES, EVENT_TYPES, RUN_STATUSES, SPAN_TYPES } from '@/lib/features/traces/shared';
import { fld, type FieldNode, type FieldType, type OutElement, type ParamFields } from './codec';

export interface FieldDef {
  name: string;
  type: FieldType;
  /** An LST of Char items. */
  list?: boolean;
  /** Required on save (REQ="1"). */
  required?: boolean;
  /** A read key (KEY="1"). */
  key?: boolean;
  /** Allowed values (VAL). */
  values?: readonly string[];
  /** Written by the server; ignored on save. */
  readOnly?: boolean;
}

const char = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'Char', ...extra });
const decimal = (name: string): FieldDef => ({ name, type: 'Decimal' });
const dateTime = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'DateTime', ...extra });
const json = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'Json', ...extra });
const traceIdKey = char('traceId', { key: true, readOnly: true });

export const TRACE_FIELDS: FieldDef[] = [
  char('id', { key: true, required: true }),
  char('name', { required: true }),
  char('sessionId'),
  char('status', { required: true, values: RUN_STATUSES }),
  { name: 'tags', type: 'Char', list: true, required: true },
  json('metadata'),
  decimal('totalCost'),
  decimal('totalTokens'),
  decimal('totalDuration'),
  dateTime('startedAt', { required: true }),
  dateTime('endedAt'),
  dateTime('createdAt', { readOnly: true }),
];

/** Extra columns of a TRACE row in query results. */
export const TRACE_COUNT_FIELDS: FieldDef[] = [
  { name: 'decisionPointCount', type: 'Decimal', readOnly: true },
  { name: 'spanCount', type: 'Decimal', readOnly: true },
  { name: 'eventCount', type: 'Decimal', readOnly: true },
];

export const DECISION_FIELDS: FieldDef[] = [
  traceIdKey,
  char('id', { key: true, required: true }),
  char('type', { required: true, values: DECISION_TYPES }),
  char('reasoning'),
  json('chosen'),
  json('alternatives', { required: true }),
  json('contextSnapshot'),
  decimal('durationMs'),
  decimal('costUsd'),
  char('parentSpanId'),
  dateTime('timestamp', { required: true }),
];

export const SPAN_FIELDS: FieldDef[] = [
  traceIdKey,
  char('id', { key: true, required: true }),
  char('parentSpanId'),
  char('name', { required: true }),
  char('type', { required: true, values: SPAN_TYPES }),
  json('input'),
  json('output'),
  decimal('tokenCount'),
  decimal('costUsd'),
  decimal('durationMs'),
  char('status', { required: true, values: RUN_STATUSES }),
  char('statusMessage'),
  dateTime('startedAt', { required: true }),
  dateTime('endedAt'),
  json('metadata'),
];

export const EVENT_FIELDS: FieldDef[] = [
  traceIdKey,
  char('id', { key: true, required: true }),
  char('spanId'),
  char('type', { required: true, values: EVENT_TYPES }),
  char('name', { required: true }),
  json('metadata'),
  dateTime('timestamp', { required: true }),
];

// ---------------------------------------------------------------- record -> nodes

/** The FLD/LST nodes of one record, in the order of defs. */
export function recordFields(defs: FieldDef[], record: object): FieldNode[] {
  const values = record as Record<string, unknown>;
  return defs.map((def) => {
    const value = values[def.name];
    if (def.list) return fld.list(def.name, Array.isArray(value) ? value.map(String) : []);
    switch (def.type) {
      case 'Json':
        return fld.json(def.name, value);
      case 'Decimal':
        return fld.decimal(def.name, typeof value === 'number' ? value : null);
      case 'DateTime':
        return fld.dateTime(def.name, value === null || value === undefined ? null : String(value));
      default:
        return fld.char(def.name, value === null || value === undefined ? null : String(value));
    }
  });
}

// ---------------------------------------------------------------- PARAM -> object

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Turns PARAM fields into a plain object shaped like the JSON API's, so that the one
 * domain validator decides what is valid. Only the XML-level conversions happen here:
 * numbers from text, JSON from text, lists from LST. Unknown fields are reported
 * through warn and skipped; read-only fields (a RESULT sent back) are skipped quietly.
 */
export function paramObject(
  defs: FieldDef[],
  fields: ParamFields,
  where: string,
  warn: (message: string) => void,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byName = new Map(defs.map((d) => [d.name, d]));
  for (const [name, param] of fields) {
    const def = byName.get(name);
    if (!def) {
      warn(`Unknown field "${name}" in ${where} ignored`);
      continue;
    }
    if (def.readOnly) continue;
    if (def.list) {
      out[name] = param.kind === 'LST' ? param.items : param.value === null ? [] : [param.value];
      continue;
    }
    if (param.kind === 'LST') throw new AppError('VALIDATION', `${where}.${name} must be a FLD, not a list`);
    const text = param.value;
    if (text === null) {
      out[name] = null;
      continue;
    }
    switch (def.type) {
      case 'Decimal':
        // Anything not numeric goes through as text: the domain validator names the field.
        out[name] = text.trim() === '' ? null : NUMBER.test(text.trim()) ? Number(text.trim()) : text;
        break;
      case 'DateTime':
        out[name] = text.trim() === '' ? null : text.trim();
        break;
      case 'Json':
        if (text.trim() === '') {
          out[name] = null;
          break;
        }
        try {
          out[name] = JSON.parse(text);
        } catch {
          throw new AppError('VALIDATION', `${where}.${name} is not valid JSON`);
        }
        break;
      default:
        out[name] = text;
    }
  }
  return out;
}

// ---------------------------------------------------------------- description

export function describeField(def: FieldDef): OutElement {
  const attrs: [string, string][] = [
    ['NAM', def.name],
    ['TYP', def.type],
  ];
  if (def.list) attrs.push(['LST', '1']);
  if (def.key) attrs.push(['KEY', '1']);
  if (def.required) attrs.push(['REQ', '1']);
  if (def.readOnly) attrs.push(['RO', '1']);
  if (def.values) attrs.push(['VAL', def.values.join(',')]);
  return { tag: 'FLD', attrs };
}

export function describeGroup(tag: 'GRP' | 'TAB', name: string, defs: FieldDef[]): OutElement {
  return { tag, attrs: [['NAM', name]], children: defs.map(describeField) };
}

export function describeFieldJson(def: FieldDef): Record<string, unknown> {
  return {
    name: def.name,
    type: def.type,
    list: Boolean(def.list),
    key: Boolean(def.key),
    required: Boolean(def.required),
    readOnly: Boolean(def.readOnly),
    ...(def.values ? { values: [...def.values] } : {}),
  };
}
