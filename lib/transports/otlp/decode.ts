// Decodes an OTLP ExportTraceServiceRequest, protobuf (here) or JSON (decode-json.ts),
// into flat OtlpSpan[]: the transport's rules (UTF-8, id encodings, int64 as text, enum
// names) end here, and map.ts sees one shape. Whatever cannot be read refuses the whole
// request (400): the OTLP exporter must not retry it. Judging ids and times is the
// mapper's job.
//
// The wire format is read with protobufjs' Reader (varints, fixed64, skipping unknown
// fields and groups, bounds), field by field, straight into OtlpSpan: the field numbers
// are those declared in proto.ts (opentelemetry-proto v1.11.0). Decoding the declared
// messages with protobufjs first and converting them afterwards made an object and a
// Buffer per attribute key and value, only to read them once: with 1,000 spans of LLM
// calls (~10 attributes each) the decoded tree took ~4 ms to build and ~9 ms to convert,
// most of it garbage collection; reading in place takes ~4 ms in all (docs/benchmarks.md).
// As protobufjs does: unknown fields are skipped, a known field with another wire type
// is skipped like an unknown one, a repeated singular message is merged into the first.
// Departures, all deliberate:
// - text fields (proto3 `string`) are validated as UTF-8 here, so that the error can name
//   the field; Node's decoder does the work;
// - AnyValue's nested array_value and kvlist_value are read with our own nesting limit
//   (MAX_ANY_VALUE_DEPTH), and a malformed one is reported as such, at its attribute;
// - of AnyValue's `oneof value`, the member read last wins (the proto3 rule); a member we
//   do not declare (string_value_strindex, for profiles) reads as no value;
// - fields only the Profiling signal uses (KeyValue.key_strindex) are skipped, as
//   receivers of other signals must.
import { isUtf8 } from 'node:buffer';
import protobuf from 'protobufjs';
import { AppError } from '@/lib/core/errors';
import { Invalid, MAX_ANY_VALUE_DEPTH, attributeSegment, put, toAppError, tooDeep, within } from './decode-common';
import type { AttributeValue, Attributes, OtlpEvent, OtlpLogRecord, OtlpResource, OtlpScope, OtlpSpan } from '@/lib/features/otlp/shared';
import { asBuffer, signedNumberOrText, unsignedBigInt, type PbLong } from './proto';

export { MAX_ANY_VALUE_DEPTH } from './decode-common';
export { decodeJsonLogsRequest, decodeJsonRequest } from './decode-json';

const PROTOBUF = 'Invalid OTLP protobuf body';
const FIXED32 = 5;

// Wire types.
const VARINT = 0;
const I64 = 1;
const LEN = 2;

/** A structural error of the wire format (truncation, a bad wire type...): the request is not an ExportTraceServiceRequest. */
class Malformed extends Error {}

/** Non-finite doubles by name, as proto3 JSON writes them, so that the value survives JSON storage. */
function double(n: number): number | string {
  return Number.isFinite(n) ? n : String(n);
}

// Buffer's own slicers, as protobufjs uses them: Buffer#toString(encoding, start, end)
// costs as much again in argument handling, paid for every attribute key and value.
type Slicers = { utf8Slice?(start: number, end: number): string; hexSlice?(start: number, end: number): string };
const utf8 = (buf: Buffer & Slicers, start: number, end: number) => (buf.utf8Slice ? buf.utf8Slice(start, end) : buf.toString('utf8', start, end));
const hexOf = (buf: Buffer & Slicers, start: number, end: number) => (buf.hexSlice ? buf.hexSlice(start, end) : buf.toString('hex', start, end));

/** One message's reader: the request's bytes, bounded to the message being read. */
class Fields {
  readonly buf: Buffer;
  constructor(readonly r: protobuf.Reader) {
    this.buf = r.buf as Buffer;
  }

  /** Reads a length prefix; returns the end of the field's bytes (checked against the bound). */
  length(): number {
    const size = this.r.uint32();
    const end = this.r.pos + size;
    if (end > this.r.len) throw new Malformed(`index out of range: ${this.r.pos} + ${size} > ${this.r.len}`);
    return end;
  }

  /** Runs read() with the reader bounded to [pos, end), then moves past the field. */
  within<T>(end: number, read: () => T): T {
    const bound = this.r.len;
    this.r.len = end;
    const value = read();
    this.r.len = bound;
    this.r.pos = end;
    return value;
  }

  text(field: string | (() => string)): string {
    const end = this.length();
    const start = this.r.pos;
    this.r.pos = end;
    const text = utf8(this.buf, start, end);
    // Node maps bad bytes to U+FFFD: only text that holds one (rare, and legal when sent as such) is checked again.
    if (text.includes('\uFFFD') && !isUtf8(this.buf.subarray(start, end))) {
      throw new Invalid(typeof field === 'string' ? field : field(), 'is not valid UTF-8');
    }
    return text;
  }

  bytes(encoding: 'hex' | 'base64'): string {
    const end = this.length();
    const start = this.r.pos;
    this.r.pos = end;
    return encoding === 'hex' ? hexOf(this.buf, start, end) : this.buf.toString('base64', start, end);
  }

  /** Skips a field not read (unknown, or known with another wire type); field number 0 is refused. */
  skip(tag: number): void {
    this.r.skipType(tag & 7, 0, tag >>> 3);
  }
}

function anyValue(f: Fields, end: number, depth: number): AttributeValue {
  if (depth > MAX_ANY_VALUE_DEPTH) throw tooDeep();
  let value: AttributeValue = null;
  // f.within() inlined: this runs for every attribute.
  const r = f.r;
  const bound = r.len;
  r.len = end;
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case (1 << 3) | LEN:
        value = f.text('');
        continue;
      case (2 << 3) | VARINT:
        value = r.bool();
        continue;
      case (3 << 3) | VARINT:
        value = signedNumberOrText(r.int64() as unknown as PbLong);
        continue;
      case (4 << 3) | I64:
        value = double(r.double());
        continue;
      case (5 << 3) | LEN:
        value = nested(f, 'ArrayValue', (at) => arrayValue(f, at, depth + 1));
        continue;
      case (6 << 3) | LEN:
        value = nested(f, 'KeyValueList', (at) => keyValues(f, at, depth + 1, {}));
        continue;
      case (7 << 3) | LEN:
        value = f.bytes('base64');
        continue;
    }
    f.skip(tag);
  }
  r.len = bound;
  return value;
}

/** An array_value or kvlist_value: a structural error inside it is reported at its attribute. */
function nested(f: Fields, name: string, read: (end: number) => AttributeValue): AttributeValue {
  const end = f.length();
  try {
    return f.within(end, () => read(end));
  } catch (err) {
    if (err instanceof Invalid) throw err;
    throw new Invalid('', `holds a malformed ${name}`);
  }
}

function arrayValue(f: Fields, end: number, depth: number): AttributeValue[] {
  const values: AttributeValue[] = [];
  const r = f.r;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag >>> 3 === 1 && (tag & 7) === LEN) values.push(anyValue(f, f.length(), depth));
    else f.skip(tag);
  }
  return values;
}

/**
 * The KeyValues of a list (field `field` of the message that ends at `end`) into `out`;
 * `depth` 1 for a span's, event's, resource's or scope's own attributes.
 */
function keyValues(f: Fields, end: number, depth: number, out: Attributes, field = 1): Attributes {
  const r = f.r;
  let i = 0;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag >>> 3 === field && (tag & 7) === LEN) keyValue(f, f.length(), depth, out, i++);
    else f.skip(tag);
  }
  return out;
}

function keyValue(f: Fields, end: number, depth: number, out: Attributes, index: number): void {
  let key = '';
  // The value is read once the key is known (it names the value in errors), whatever the order sent.
  let valueAt = -1;
  let valueEnd = -1;
  // f.within() inlined: this runs for every attribute.
  const r = f.r;
  const bound = r.len;
  r.len = end;
  while (r.pos < end) {
    const tag = r.tag();
    const wire = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wire === LEN) {
      key = f.text(() => (depth === 1 ? `attributes[${index}].key` : `kvlistValue.values[${index}].key`));
    } else if (field === 2 && wire === LEN) {
      valueEnd = f.length();
      valueAt = r.pos;
      r.pos = valueEnd;
    } else {
      f.skip(tag);
    }
  }
  let value: AttributeValue = null;
  if (valueAt >= 0) {
    r.pos = valueAt;
    try {
      value = anyValue(f, valueEnd, depth);
    } catch (err) {
      throw depth === 1 ? within(err, attributeSegment(key)) : err;
    }
  }
  r.len = bound;
  r.pos = end;
  put(out, key, value);
}

function event(f: Fields, end: number): OtlpEvent {
  const e: OtlpEvent = { timeUnixNano: 0n, name: '', attributes: {} };
  const r = f.r;
  let attributes = 0;
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case (1 << 3) | I64:
        e.timeUnixNano = unsignedBigInt(r.fixed64() as unknown as PbLong);
        continue;
      case (2 << 3) | LEN:
        e.name = f.text('name');
        continue;
      case (3 << 3) | LEN:
        keyValue(f, f.length(), 1, e.attributes, attributes++);
        continue;
    }
    f.skip(tag);
  }
  return e;
}

function status(f: Fields, end: number, into: { code: number; message: string }): void {
  const r = f.r;
  while (r.pos < end) {
    const tag = r.tag();
    const wire = tag & 7;
    const field = tag >>> 3;
    if (field === 2 && wire === LEN) into.message = f.text('status.message');
    else if (field === 3 && wire === VARINT) into.code = r.int32();
    else f.skip(tag);
  }
}

function span(f: Fields, end: number, resource: OtlpResource, scope: OtlpScope): OtlpSpan {
  const s: OtlpSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 0n,
    attributes: {},
    events: [],
    status: { code: 0, message: '' },
    resource,
    scope,
  };
  const r = f.r;
  let attributes = 0;
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case (1 << 3) | LEN:
        s.traceId = f.bytes('hex');
        continue;
      case (2 << 3) | LEN:
        s.spanId = f.bytes('hex');
        continue;
      case (4 << 3) | LEN:
        s.parentSpanId = f.bytes('hex');
        continue;
      case (5 << 3) | LEN:
        s.name = f.text('name');
        continue;
      case (6 << 3) | VARINT:
        s.kind = r.int32();
        continue;
      case (7 << 3) | I64:
        s.startTimeUnixNano = unsignedBigInt(r.fixed64() as unknown as PbLong);
        continue;
      case (8 << 3) | I64:
        s.endTimeUnixNano = unsignedBigInt(r.fixed64() as unknown as PbLong);
        continue;
      case (9 << 3) | LEN:
        keyValue(f, f.length(), 1, s.attributes, attributes++);
        continue;
      case (11 << 3) | LEN: {
        const at = f.length();
        const i = s.events.length;
        try {
          s.events.push(f.within(at, () => event(f, at)));
        } catch (err) {
          throw within(err, `events[${i}]`);
        }
        continue;
      }
      case (15 << 3) | LEN: {
        const at = f.length();
        f.within(at, () => status(f, at, s.status));
        continue;
      }
    }
    // trace_state, flags, dropped counts, links: not kept.
    f.skip(tag);
  }
  return s;
}

function scopeSpans(f: Fields, end: number, resource: OtlpResource, at: string, spans: OtlpSpan[]): void {
  const scope: OtlpScope = { name: '', version: '', attributes: {} };
  const r = f.r;
  let k = 0;
  while (r.pos < end) {
    const tag = r.tag();
    const wire = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wire === LEN) {
      const scopeEnd = f.length();
      try {
        f.within(scopeEnd, () => instrumentationScope(f, scopeEnd, scope));
      } catch (err) {
        throw within(err, `${at}.scope`);
      }
    } else if (field === 2 && wire === LEN) {
      const spanEnd = f.length();
      try {
        spans.push(f.within(spanEnd, () => span(f, spanEnd, resource, scope)));
      } catch (err) {
        throw within(err, `${at}.spans[${k}]`);
      }
      k++;
    } else {
      f.skip(tag);
    }
  }
}

function instrumentationScope(f: Fields, end: number, scope: OtlpScope): void {
  const r = f.r;
  let attributes = 0;
  while (r.pos < end) {
    const tag = r.tag();
    const wire = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wire === LEN) scope.name = f.text('name');
    else if (field === 2 && wire === LEN) scope.version = f.text('version');
    else if (field === 3 && wire === LEN) keyValue(f, f.length(), 1, scope.attributes, attributes++);
    else f.skip(tag);
  }
}

/** A ResourceSpans or ResourceLogs: its resource (field 1), shared by the items of each of its scopes (field 2). */
function resourceOf<T>(f: Fields, end: number, at: string, items: T[], scoped: (end: number, resource: OtlpResource, at: string, items: T[]) => void, scopes: string): void {
  const resource: OtlpResource = { attributes: {} };
  const r = f.r;
  let j = 0;
  while (r.pos < end) {
    const tag = r.tag();
    const wire = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wire === LEN) {
      const resourceEnd = f.length();
      try {
        f.within(resourceEnd, () => keyValues(f, resourceEnd, 1, resource.attributes));
      } catch (err) {
        throw within(err, `${at}.resource`);
      }
    } else if (field === 2 && wire === LEN) {
      const scopeEnd = f.length();
      f.within(scopeEnd, () => scoped(scopeEnd, resource, `${at}.${scopes}[${j}]`, items));
      j++;
    } else {
      f.skip(tag);
    }
  }
}

function logRecord(f: Fields, end: number, resource: OtlpResource, scope: OtlpScope): OtlpLogRecord {
  const l: OtlpLogRecord = {
    timeUnixNano: 0n,
    observedTimeUnixNano: 0n,
    severityNumber: 0,
    severityText: '',
    body: null,
    attributes: {},
    traceId: '',
    spanId: '',
    eventName: '',
    resource,
    scope,
  };
  const r = f.r;
  let attributes = 0;
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case (1 << 3) | I64:
        l.timeUnixNano = unsignedBigInt(r.fixed64() as unknown as PbLong);
        continue;
      case (11 << 3) | I64:
        l.observedTimeUnixNano = unsignedBigInt(r.fixed64() as unknown as PbLong);
        continue;
      case (2 << 3) | VARINT:
        l.severityNumber = r.int32();
        continue;
      case (3 << 3) | LEN:
        l.severityText = f.text('severityText');
        continue;
      case (5 << 3) | LEN: {
        const at = f.length();
        try {
          l.body = f.within(at, () => anyValue(f, at, 1));
        } catch (err) {
          throw within(err, 'body');
        }
        continue;
      }
      case (6 << 3) | LEN:
        keyValue(f, f.length(), 1, l.attributes, attributes++);
        continue;
      case (8 << 3) | FIXED32:
        r.fixed32();
        continue;
      case (9 << 3) | LEN:
        l.traceId = f.bytes('hex');
        continue;
      case (10 << 3) | LEN:
        l.spanId = f.bytes('hex');
        continue;
      case (12 << 3) | LEN:
        l.eventName = f.text('eventName');
        continue;
    }
    f.skip(tag);
  }
  return l;
}

function scopeLogs(f: Fields, end: number, resource: OtlpResource, at: string, records: OtlpLogRecord[]): void {
  const scope: OtlpScope = { name: '', version: '', attributes: {} };
  const r = f.r;
  let k = 0;
  while (r.pos < end) {
    const tag = r.tag();
    const wire = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wire === LEN) {
      const scopeEnd = f.length();
      try {
        f.within(scopeEnd, () => instrumentationScope(f, scopeEnd, scope));
      } catch (err) {
        throw within(err, `${at}.scope`);
      }
    } else if (field === 2 && wire === LEN) {
      const recordEnd = f.length();
      try {
        records.push(f.within(recordEnd, () => logRecord(f, recordEnd, resource, scope)));
      } catch (err) {
        throw within(err, `${at}.logRecords[${k}]`);
      }
      k++;
    } else {
      f.skip(tag);
    }
  }
}

function resourceSpans(f: Fields, end: number, at: string, spans: OtlpSpan[]): void {
  // A span of this ResourceSpans may come before its resource on the wire: all share one object.
  const resource: OtlpResource = { attributes: {} };
  const r = f.r;
  let j = 0;
  while (r.pos < end) {
    const tag = r.tag();
    const wire = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wire === LEN) {
      const resourceEnd = f.length();
      try {
        f.within(resourceEnd, () => keyValues(f, resourceEnd, 1, resource.attributes));
      } catch (err) {
        throw within(err, `${at}.resource`);
      }
    } else if (field === 2 && wire === LEN) {
      const scopeEnd = f.length();
      f.within(scopeEnd, () => scopeSpans(f, scopeEnd, resource, `${at}.scopeSpans[${j}]`, spans));
      j++;
    } else {
      f.skip(tag);
    }
  }
}

function request(f: Fields): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  const r = f.r;
  let i = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    const wire = tag & 7;
    if (tag >>> 3 === 1 && wire === LEN) {
      const end = f.length();
      f.within(end, () => resourceSpans(f, end, `resourceSpans[${i}]`, spans));
      i++;
    } else {
      f.skip(tag);
    }
  }
  return spans;
}

/** Decodes a binary ExportTraceServiceRequest; an empty body is a request without spans. */
export function decodeProtobufRequest(body: Uint8Array): OtlpSpan[] {
  if (body.length === 0) return [];
  try {
    return request(new Fields(protobuf.Reader.create(asBuffer(body))));
  } catch (err) {
    if (err instanceof Invalid) throw toAppError(err, PROTOBUF);
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('VALIDATION', `${PROTOBUF}: not a valid ExportTraceServiceRequest (${reason})`);
  }
}

/** Decodes a binary ExportLogsServiceRequest; an empty body is a request without records. */
export function decodeProtobufLogsRequest(body: Uint8Array): OtlpLogRecord[] {
  if (body.length === 0) return [];
  try {
    const f = new Fields(protobuf.Reader.create(asBuffer(body)));
    const records: OtlpLogRecord[] = [];
    const r = f.r;
    let i = 0;
    while (r.pos < r.len) {
      const tag = r.tag();
      if (tag >>> 3 === 1 && (tag & 7) === LEN) {
        const end = f.length();
        const at = `resourceLogs[${i++}]`;
        f.within(end, () => resourceOf(f, end, at, records, (scopeEnd, resource, scopeAt, into) => scopeLogs(f, scopeEnd, resource, scopeAt, into), 'scopeLogs'));
      } else {
        f.skip(tag);
      }
    }
    return records;
  } catch (err) {
    if (err instanceof Invalid) throw toAppError(err, PROTOBUF);
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('VALIDATION', `${PROTOBUF}: not a valid ExportLogsServiceRequest (${reason})`);
  }
}
