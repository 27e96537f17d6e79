// Decodes an OTLP ExportTraceServiceRequest, protobuf (here) or JSON (decode-json.ts),
// into flat OtlpSpan[]: the transport's rules (UTF-8, id encodings, int64 as text, enum
// names) end here, and map.ts sees one shape. Whatever cannot be read refuses the whole
// request (400): the OTLP exporter must not retry it. Judging ids and times is the
// mapper's job.
import type protobuf from 'protobufjs';
import { AppError } from '@/lib/errors';
import { Invalid, MAX_ANY_VALUE_DEPTH, attributeSegment, put, toAppError, tooDeep, within } from './decode-common';
import type { AttributeValue, Attributes, OtlpEvent, OtlpResource, OtlpScope, OtlpSpan } from './types';
import {
  ArrayValue,
  ExportTraceServiceRequest,
  KeyValueList,
  asBuffer,
  base64,
  hex,
  signedNumberOrText,
  unsignedBigInt,
  utf8Text,
  type PbAnyValue,
  type PbArrayValue,
  type PbEvent,
  type PbExportTraceServiceRequest,
  type PbKeyValue,
  type PbKeyValueList,
  type PbSpan,
} from './proto';

export { MAX_ANY_VALUE_DEPTH } from './decode-common';
export { decodeJsonRequest } from './decode-json';

const PROTOBUF = 'Invalid OTLP protobuf body';

/** Non-finite doubles by name, as proto3 JSON writes them, so that the value survives JSON storage. */
function double(n: number): number | string {
  return Number.isFinite(n) ? n : String(n);
}

function text(bytes: Uint8Array, field: string): string {
  const s = utf8Text(bytes);
  if (s === null) throw new Invalid(field, 'is not valid UTF-8');
  return s;
}

function decodeNested<T>(type: protobuf.Type, bytes: Uint8Array, name: string): T {
  try {
    return type.decode(bytes) as unknown as T;
  } catch {
    throw new Invalid('', `holds a malformed ${name}`);
  }
}

function pbValue(v: PbAnyValue | null, depth: number): AttributeValue {
  if (depth > MAX_ANY_VALUE_DEPTH) throw tooDeep();
  if (v === null) return null;
  if (v.stringValue !== null) return text(v.stringValue, '');
  if (v.boolValue !== null) return v.boolValue;
  if (Object.hasOwn(v, 'intValue')) return signedNumberOrText(v.intValue);
  if (v.doubleValue !== null) return double(v.doubleValue);
  if (v.arrayValue !== null) {
    const values = decodeNested<PbArrayValue>(ArrayValue, v.arrayValue, 'ArrayValue').values;
    const out: AttributeValue[] = new Array(values.length);
    for (let i = 0; i < values.length; i++) out[i] = pbValue(values[i], depth + 1);
    return out;
  }
  if (v.kvlistValue !== null) {
    return pbAttributes(decodeNested<PbKeyValueList>(KeyValueList, v.kvlistValue, 'KeyValueList').values, depth + 1);
  }
  if (v.bytesValue !== null) return base64(v.bytesValue);
  return null; // no member set (or one we do not declare, such as string_value_strindex)
}

function pbAttributes(kvs: PbKeyValue[], depth = 1): Attributes {
  const out: Attributes = {};
  for (let i = 0; i < kvs.length; i++) {
    const key = text(kvs[i].key, depth === 1 ? `attributes[${i}].key` : `kvlistValue.values[${i}].key`);
    let value: AttributeValue;
    try {
      value = pbValue(kvs[i].value, depth);
    } catch (err) {
      throw depth === 1 ? within(err, attributeSegment(key)) : err;
    }
    put(out, key, value);
  }
  return out;
}

function pbEvent(e: PbEvent): OtlpEvent {
  return { timeUnixNano: unsignedBigInt(e.timeUnixNano), name: text(e.name, 'name'), attributes: pbAttributes(e.attributes) };
}

function pbSpan(s: PbSpan, resource: OtlpResource, scope: OtlpScope): OtlpSpan {
  const events: OtlpEvent[] = new Array(s.events.length);
  for (let i = 0; i < s.events.length; i++) {
    try {
      events[i] = pbEvent(s.events[i]);
    } catch (err) {
      throw within(err, `events[${i}]`);
    }
  }
  return {
    traceId: hex(s.traceId),
    spanId: hex(s.spanId),
    parentSpanId: hex(s.parentSpanId),
    name: text(s.name, 'name'),
    kind: s.kind,
    startTimeUnixNano: unsignedBigInt(s.startTimeUnixNano),
    endTimeUnixNano: unsignedBigInt(s.endTimeUnixNano),
    attributes: pbAttributes(s.attributes),
    events,
    status: s.status ? { code: s.status.code, message: text(s.status.message, 'status.message') } : { code: 0, message: '' },
    resource,
    scope,
  };
}

function pbSpans(req: PbExportTraceServiceRequest): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  for (let i = 0; i < req.resourceSpans.length; i++) {
    const rs = req.resourceSpans[i];
    const at = `resourceSpans[${i}]`;
    let resource: OtlpResource;
    try {
      resource = { attributes: rs.resource ? pbAttributes(rs.resource.attributes) : {} };
    } catch (err) {
      throw within(err, `${at}.resource`);
    }
    for (let j = 0; j < rs.scopeSpans.length; j++) {
      const ss = rs.scopeSpans[j];
      let scope: OtlpScope;
      try {
        scope = ss.scope
          ? { name: text(ss.scope.name, 'name'), version: text(ss.scope.version, 'version'), attributes: pbAttributes(ss.scope.attributes) }
          : { name: '', version: '', attributes: {} };
      } catch (err) {
        throw within(err, `${at}.scopeSpans[${j}].scope`);
      }
      for (let k = 0; k < ss.spans.length; k++) {
        try {
          spans.push(pbSpan(ss.spans[k], resource, scope));
        } catch (err) {
          throw within(err, `${at}.scopeSpans[${j}].spans[${k}]`);
        }
      }
    }
  }
  return spans;
}

/** Decodes a binary ExportTraceServiceRequest; an empty body is a request without spans. */
export function decodeProtobufRequest(body: Uint8Array): OtlpSpan[] {
  if (body.length === 0) return [];
  let req: PbExportTraceServiceRequest;
  try {
    req = ExportTraceServiceRequest.decode(asBuffer(body)) as unknown as PbExportTraceServiceRequest;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('VALIDATION', `${PROTOBUF}: not a valid ExportTraceServiceRequest (${reason})`);
  }
  try {
    return pbSpans(req);
  } catch (err) {
    throw toAppError(err, PROTOBUF);
  }
}
