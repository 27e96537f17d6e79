// OTLP/JSON (the proto3 JSON mapping with OTLP's exceptions): lowerCamelCase or proto
// field names, ids as hex (base64 of the right length tolerated), enums as numbers or
// names, int64 as numbers or decimal strings, unknown fields ignored.
import { AppError } from '@/lib/core/errors';
import type { AttributeValue, Attributes, OtlpEvent, OtlpLogRecord, OtlpResource, OtlpScope, OtlpSpan } from '@/lib/features/otlp/shared';
import { Invalid, MAX_ANY_VALUE_DEPTH, attributeSegment, put, toAppError, tooDeep, within } from './decode-common';

const JSON_BODY = 'Invalid OTLP JSON body';

type JsonObject = Record<string, unknown>;

/** A field by its lowerCamelCase name or its proto name; null counts as absent (proto3 JSON). */
function field(o: JsonObject, camel: string, snake: string = camel): unknown {
  const v = o[camel];
  return v === undefined || v === null ? (o[snake] ?? undefined) : v;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function object(v: unknown, path: string): JsonObject | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) throw new Invalid(path, 'must be an object');
  return v;
}

function array(v: unknown, path: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new Invalid(path, 'must be an array');
  return v;
}

function string(v: unknown, path: string): string {
  if (v === undefined) return '';
  if (typeof v !== 'string') throw new Invalid(path, 'must be a string');
  return v;
}

const HEX = /^[0-9a-fA-F]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]*={0,2}|[A-Za-z0-9_-]*={0,2})$/;

/** An id as lowercase hex: hex text as sent, base64 of the right length decoded, anything else passed on for the mapper to refuse. */
function id(v: unknown, bytes: number, path: string): string {
  const s = string(v, path);
  if (s.length === bytes * 2 && HEX.test(s)) return s.toLowerCase();
  if (s.length > 0 && s.length <= Math.ceil(bytes / 3) * 4 && BASE64.test(s)) {
    const raw = Buffer.from(s, 'base64');
    if (raw.length === bytes) return raw.toString('hex');
  }
  return s.toLowerCase();
}

const UINT64_MAX = (BigInt(1) << BigInt(64)) - BigInt(1);
const INT64_MIN = -(BigInt(1) << BigInt(63));
const INT64_MAX = (BigInt(1) << BigInt(63)) - BigInt(1);

function nanos(v: unknown, path: string): bigint {
  if (v === undefined) return BigInt(0);
  let n: bigint | undefined;
  if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v);
  else if (typeof v === 'string' && /^\d{1,20}$/.test(v)) n = BigInt(v);
  if (n === undefined || n < BigInt(0) || n > UINT64_MAX) throw new Invalid(path, 'must be an unsigned 64-bit integer (a number or decimal string)');
  return n;
}

function int64(v: unknown): number | string {
  let n: bigint | undefined;
  if (typeof v === 'number' && Number.isInteger(v)) {
    if (Number.isSafeInteger(v)) return v;
    n = BigInt(v);
  } else if (typeof v === 'string' && /^-?\d{1,19}$/.test(v)) n = BigInt(v);
  if (n === undefined || n < INT64_MIN || n > INT64_MAX) throw new Invalid('intValue', 'must be a 64-bit integer (a number or decimal string)');
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
}

const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A double as a number, or by name when it is not finite (as proto3 JSON writes it, and decode.ts too). */
function jsonDouble(v: unknown): number | string {
  if (typeof v === 'number') return v;
  if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') return v;
  if (typeof v === 'string' && DECIMAL.test(v)) return Number(v);
  throw new Invalid('doubleValue', 'must be a number');
}

function bytesValue(v: unknown): string {
  if (typeof v !== 'string' || !BASE64.test(v)) throw new Invalid('bytesValue', 'must be base64 text');
  return Buffer.from(v, 'base64').toString('base64');
}

function jsonEnum(v: unknown, names: Record<string, number>, path: string): number {
  if (v === undefined) return 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && Object.hasOwn(names, v)) return names[v];
  throw new Invalid(path, `must be an integer or one of ${Object.keys(names).join(', ')}`);
}

const SPAN_KIND: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
const STATUS_CODE: Record<string, number> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };
const SEVERITY_NUMBER: Record<string, number> = Object.fromEntries([
  ['SEVERITY_NUMBER_UNSPECIFIED', 0],
  ...['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].flatMap((level, i) =>
    ['', '2', '3', '4'].map((n, j) => [`SEVERITY_NUMBER_${level}${n}`, i * 4 + j + 1] as const),
  ),
]);

const ANY_VALUE_MEMBERS = [
  ['stringValue', 'string_value'],
  ['boolValue', 'bool_value'],
  ['intValue', 'int_value'],
  ['doubleValue', 'double_value'],
  ['arrayValue', 'array_value'],
  ['kvlistValue', 'kvlist_value'],
  ['bytesValue', 'bytes_value'],
] as const;

function jsonValue(v: unknown, depth: number): AttributeValue {
  if (depth > MAX_ANY_VALUE_DEPTH) throw tooDeep();
  if (v === undefined || v === null) return null;
  if (!isObject(v)) throw new Invalid('', 'must be an AnyValue object');
  let member: (typeof ANY_VALUE_MEMBERS)[number][0] | undefined;
  let x: unknown;
  for (const [camel, snake] of ANY_VALUE_MEMBERS) {
    const candidate = field(v, camel, snake);
    if (candidate === undefined) continue;
    if (member) throw new Invalid('', `sets both ${member} and ${camel}`);
    member = camel;
    x = candidate;
  }
  switch (member) {
    case 'stringValue':
      return string(x, 'stringValue');
    case 'boolValue':
      if (typeof x !== 'boolean') throw new Invalid('boolValue', 'must be a boolean');
      return x;
    case 'intValue':
      return int64(x);
    case 'doubleValue':
      return jsonDouble(x);
    case 'bytesValue':
      return bytesValue(x);
    case 'arrayValue': {
      const values = array(field(object(x, 'arrayValue')!, 'values'), 'arrayValue.values');
      const out: AttributeValue[] = new Array(values.length);
      for (let i = 0; i < values.length; i++) out[i] = jsonValue(values[i], depth + 1);
      return out;
    }
    case 'kvlistValue':
      return jsonAttributes(field(object(x, 'kvlistValue')!, 'values'), depth + 1);
    default:
      return null;
  }
}

function jsonAttributes(v: unknown, depth = 1): Attributes {
  const path = depth === 1 ? 'attributes' : 'kvlistValue.values';
  const kvs = array(v, path);
  const out: Attributes = {};
  for (let i = 0; i < kvs.length; i++) {
    const kv = kvs[i];
    if (!isObject(kv)) throw new Invalid(`${path}[${i}]`, 'must be an object');
    const key = string(field(kv, 'key'), `${path}[${i}].key`);
    let value: AttributeValue;
    try {
      value = jsonValue(field(kv, 'value'), depth);
    } catch (err) {
      throw depth === 1 ? within(err, attributeSegment(key)) : err;
    }
    put(out, key, value);
  }
  return out;
}

function jsonEvent(v: unknown): OtlpEvent {
  if (!isObject(v)) throw new Invalid('', 'must be an object');
  return {
    timeUnixNano: nanos(field(v, 'timeUnixNano', 'time_unix_nano'), 'timeUnixNano'),
    name: string(field(v, 'name'), 'name'),
    attributes: jsonAttributes(field(v, 'attributes')),
  };
}

function jsonSpan(v: unknown, resource: OtlpResource, scope: OtlpScope): OtlpSpan {
  if (!isObject(v)) throw new Invalid('', 'must be an object');
  const rawEvents = array(field(v, 'events'), 'events');
  const events: OtlpEvent[] = new Array(rawEvents.length);
  for (let i = 0; i < rawEvents.length; i++) {
    try {
      events[i] = jsonEvent(rawEvents[i]);
    } catch (err) {
      throw within(err, `events[${i}]`);
    }
  }
  const status = object(field(v, 'status'), 'status');
  return {
    traceId: id(field(v, 'traceId', 'trace_id'), 16, 'traceId'),
    spanId: id(field(v, 'spanId', 'span_id'), 8, 'spanId'),
    parentSpanId: id(field(v, 'parentSpanId', 'parent_span_id'), 8, 'parentSpanId'),
    name: string(field(v, 'name'), 'name'),
    kind: jsonEnum(field(v, 'kind'), SPAN_KIND, 'kind'),
    startTimeUnixNano: nanos(field(v, 'startTimeUnixNano', 'start_time_unix_nano'), 'startTimeUnixNano'),
    endTimeUnixNano: nanos(field(v, 'endTimeUnixNano', 'end_time_unix_nano'), 'endTimeUnixNano'),
    attributes: jsonAttributes(field(v, 'attributes')),
    events,
    status: status
      ? { code: jsonEnum(field(status, 'code'), STATUS_CODE, 'status.code'), message: string(field(status, 'message'), 'status.message') }
      : { code: 0, message: '' },
    resource,
    scope,
  };
}

function jsonSpans(doc: unknown): OtlpSpan[] {
  if (!isObject(doc)) throw new Invalid('request', 'must be a JSON object');
  const spans: OtlpSpan[] = [];
  const resourceSpans = array(field(doc, 'resourceSpans', 'resource_spans'), 'resourceSpans');
  for (let i = 0; i < resourceSpans.length; i++) {
    const at = `resourceSpans[${i}]`;
    const rs = object(resourceSpans[i], at) ?? {};
    let resource: OtlpResource;
    try {
      resource = { attributes: jsonAttributes(field(object(field(rs, 'resource'), '') ?? {}, 'attributes')) };
    } catch (err) {
      throw within(err, `${at}.resource`);
    }
    const scopeSpans = array(field(rs, 'scopeSpans', 'scope_spans'), `${at}.scopeSpans`);
    for (let j = 0; j < scopeSpans.length; j++) {
      const ss = object(scopeSpans[j], `${at}.scopeSpans[${j}]`) ?? {};
      let scope: OtlpScope;
      try {
        const s = object(field(ss, 'scope'), '') ?? {};
        scope = { name: string(field(s, 'name'), 'name'), version: string(field(s, 'version'), 'version'), attributes: jsonAttributes(field(s, 'attributes')) };
      } catch (err) {
        throw within(err, `${at}.scopeSpans[${j}].scope`);
      }
      const list = array(field(ss, 'spans'), `${at}.scopeSpans[${j}].spans`);
      for (let k = 0; k < list.length; k++) {
        try {
          spans.push(jsonSpan(list[k], resource, scope));
        } catch (err) {
          throw within(err, `${at}.scopeSpans[${j}].spans[${k}]`);
        }
      }
    }
  }
  return spans;
}

/** Decodes an OTLP/JSON ExportTraceServiceRequest; empty text is a request without spans. */
export function decodeJsonRequest(text: string): OtlpSpan[] {
  if (text.trim() === '') return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('VALIDATION', `${JSON_BODY}: not valid JSON (${reason})`);
  }
  try {
    return jsonSpans(doc);
  } catch (err) {
    throw toAppError(err, JSON_BODY);
  }
}

function jsonScope(ss: JsonObject, at: string): OtlpScope {
  try {
    const s = object(field(ss, 'scope'), '') ?? {};
    return { name: string(field(s, 'name'), 'name'), version: string(field(s, 'version'), 'version'), attributes: jsonAttributes(field(s, 'attributes')) };
  } catch (err) {
    throw within(err, `${at}.scope`);
  }
}

function jsonLogRecord(v: unknown, resource: OtlpResource, scope: OtlpScope): OtlpLogRecord {
  if (!isObject(v)) throw new Invalid('', 'must be an object');
  let body: AttributeValue;
  try {
    body = jsonValue(field(v, 'body'), 1);
  } catch (err) {
    throw within(err, 'body');
  }
  return {
    timeUnixNano: nanos(field(v, 'timeUnixNano', 'time_unix_nano'), 'timeUnixNano'),
    observedTimeUnixNano: nanos(field(v, 'observedTimeUnixNano', 'observed_time_unix_nano'), 'observedTimeUnixNano'),
    severityNumber: jsonEnum(field(v, 'severityNumber', 'severity_number'), SEVERITY_NUMBER, 'severityNumber'),
    severityText: string(field(v, 'severityText', 'severity_text'), 'severityText'),
    body,
    attributes: jsonAttributes(field(v, 'attributes')),
    traceId: id(field(v, 'traceId', 'trace_id'), 16, 'traceId'),
    spanId: id(field(v, 'spanId', 'span_id'), 8, 'spanId'),
    eventName: string(field(v, 'eventName', 'event_name'), 'eventName'),
    resource,
    scope,
  };
}

function jsonLogs(doc: unknown): OtlpLogRecord[] {
  if (!isObject(doc)) throw new Invalid('request', 'must be a JSON object');
  const records: OtlpLogRecord[] = [];
  const resourceLogs = array(field(doc, 'resourceLogs', 'resource_logs'), 'resourceLogs');
  for (let i = 0; i < resourceLogs.length; i++) {
    const at = `resourceLogs[${i}]`;
    const rl = object(resourceLogs[i], at) ?? {};
    let resource: OtlpResource;
    try {
      resource = { attributes: jsonAttributes(field(object(field(rl, 'resource'), '') ?? {}, 'attributes')) };
    } catch (err) {
      throw within(err, `${at}.resource`);
    }
    const scopeLogs = array(field(rl, 'scopeLogs', 'scope_logs'), `${at}.scopeLogs`);
    for (let j = 0; j < scopeLogs.length; j++) {
      const sl = object(scopeLogs[j], `${at}.scopeLogs[${j}]`) ?? {};
      const scope = jsonScope(sl, `${at}.scopeLogs[${j}]`);
      const list = array(field(sl, 'logRecords', 'log_records'), `${at}.scopeLogs[${j}].logRecords`);
      for (let k = 0; k < list.length; k++) {
        try {
          records.push(jsonLogRecord(list[k], resource, scope));
        } catch (err) {
          throw within(err, `${at}.scopeLogs[${j}].logRecords[${k}]`);
        }
      }
    }
  }
  return records;
}

/** Decodes an OTLP/JSON ExportLogsServiceRequest; empty text is a request without records. */
export function decodeJsonLogsRequest(text: string): OtlpLogRecord[] {
  if (text.trim() === '') return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('VALIDATION', `${JSON_BODY}: not valid JSON (${reason})`);
  }
  try {
    return jsonLogs(doc);
  } catch (err) {
    throw toAppError(err, JSON_BODY);
  }
}
