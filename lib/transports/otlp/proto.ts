// The OTLP trace and logs messages, declared for protobufjs by reflection. Field numbers are those
// of open-telemetry/opentelemetry-proto v1.11.0 (the four files are unchanged at main,
// ac2c4b5): opentelemetry/proto/collector/trace/v1/trace_service.proto, trace/v1/trace.proto,
// common/v1/common.proto, resource/v1/resource.proto; and of googleapis'
// google/rpc/status.proto.
//
// What uses them: the answers (ExportTraceServiceResponse, google.rpc.Status, encoded by
// response.ts) and the tests and scripts that build requests. Requests are read by
// decode.ts straight off the wire, with the same field numbers (see its header for why).
// Deliberate departures, all wire-compatible:
// - every `string` is declared `bytes`: a test can send invalid UTF-8, and the answers'
//   texts are encoded by Buffer.from(), which turns a lone surrogate into U+FFFD where
//   protobufjs' own string writer would emit invalid UTF-8 that a strict client refuses;
// - AnyValue.array_value and kvlist_value are `bytes` too, so that a test can send a
//   malformed nested value;
// - AnyValue's `oneof value` is written as proto3 `optional` members;
// - fields only the Profiling signal uses (AnyValue.string_value_strindex = 8,
//   KeyValue.key_strindex = 3) and EntityRef are left out.
import { isUtf8 } from 'node:buffer';
import protobuf from 'protobufjs';

const OTLP_TRACE_PROTO = `
syntax = "proto3";

package opentelemetry.proto.common.v1;

message AnyValue {
  // oneof value: see the note at the top of the file.
  optional bytes string_value = 1;
  optional bool bool_value = 2;
  optional int64 int_value = 3;
  optional double double_value = 4;
  optional bytes array_value = 5;  // ArrayValue
  optional bytes kvlist_value = 6; // KeyValueList
  optional bytes bytes_value = 7;
}
message ArrayValue {
  repeated AnyValue values = 1;
}
message KeyValueList {
  repeated KeyValue values = 1;
}
message KeyValue {
  bytes key = 1;
  AnyValue value = 2;
}
message InstrumentationScope {
  bytes name = 1;
  bytes version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
`;

// protobufjs' parser takes one package per text, so each proto file is its own text.
const RESOURCE_PROTO = `
syntax = "proto3";
package opentelemetry.proto.resource.v1;
message Resource {
  repeated opentelemetry.proto.common.v1.KeyValue attributes = 1;
  uint32 dropped_attributes_count = 2;
}
`;

const TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto.trace.v1;
message ResourceSpans {
  opentelemetry.proto.resource.v1.Resource resource = 1;
  repeated ScopeSpans scope_spans = 2;
  bytes schema_url = 3;
}
message ScopeSpans {
  opentelemetry.proto.common.v1.InstrumentationScope scope = 1;
  repeated Span spans = 2;
  bytes schema_url = 3;
}
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  bytes trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  bytes name = 5;
  int32 kind = 6; // SpanKind: an open enum, kept as its number
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated opentelemetry.proto.common.v1.KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  message Event {
    fixed64 time_unix_nano = 1;
    bytes name = 2;
    repeated opentelemetry.proto.common.v1.KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    bytes trace_state = 3;
    repeated opentelemetry.proto.common.v1.KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
}
message Status {
  reserved 1; // deprecated_code
  bytes message = 2;
  int32 code = 3; // StatusCode: an open enum, kept as its number
}
`;

const COLLECTOR_PROTO = `
syntax = "proto3";
package opentelemetry.proto.collector.trace.v1;
message ExportTraceServiceRequest {
  repeated opentelemetry.proto.trace.v1.ResourceSpans resource_spans = 1;
}
message ExportTraceServiceResponse {
  ExportTracePartialSuccess partial_success = 1;
}
message ExportTracePartialSuccess {
  int64 rejected_spans = 1;
  bytes error_message = 2;
}
`;

// opentelemetry/proto/logs/v1/logs.proto and collector/logs/v1/logs_service.proto (v1.11.0).
const LOGS_PROTO = `
syntax = "proto3";
package opentelemetry.proto.logs.v1;
message ResourceLogs {
  opentelemetry.proto.resource.v1.Resource resource = 1;
  repeated ScopeLogs scope_logs = 2;
  bytes schema_url = 3;
}
message ScopeLogs {
  opentelemetry.proto.common.v1.InstrumentationScope scope = 1;
  repeated LogRecord log_records = 2;
  bytes schema_url = 3;
}
message LogRecord {
  fixed64 time_unix_nano = 1;
  fixed64 observed_time_unix_nano = 11;
  int32 severity_number = 2; // SeverityNumber: an open enum, kept as its number
  bytes severity_text = 3;
  opentelemetry.proto.common.v1.AnyValue body = 5;
  repeated opentelemetry.proto.common.v1.KeyValue attributes = 6;
  uint32 dropped_attributes_count = 7;
  fixed32 flags = 8;
  bytes trace_id = 9;
  bytes span_id = 10;
  bytes event_name = 12;
}
`;

const COLLECTOR_LOGS_PROTO = `
syntax = "proto3";
package opentelemetry.proto.collector.logs.v1;
message ExportLogsServiceRequest {
  repeated opentelemetry.proto.logs.v1.ResourceLogs resource_logs = 1;
}
message ExportLogsServiceResponse {
  ExportLogsPartialSuccess partial_success = 1;
}
message ExportLogsPartialSuccess {
  int64 rejected_log_records = 1;
  bytes error_message = 2;
}
`;

// The error body of OTLP/HTTP. Strings are bytes here too: we encode them ourselves with
// Buffer.from(), which turns a lone surrogate into U+FFFD, where protobufjs' own string
// writer would emit invalid UTF-8 that a strict client refuses.
const STATUS_PROTO = `
syntax = "proto3";
package google.protobuf;
message Any {
  bytes type_url = 1;
  bytes value = 2;
}
`;
const RPC_STATUS_PROTO = `
syntax = "proto3";
package google.rpc;
message Status {
  int32 code = 1;
  bytes message = 2;
  repeated google.protobuf.Any details = 3;
}
`;

function buildRoot(): protobuf.Root {
  const root = new protobuf.Root();
  for (const text of [OTLP_TRACE_PROTO, RESOURCE_PROTO, TRACE_PROTO, COLLECTOR_PROTO, LOGS_PROTO, COLLECTOR_LOGS_PROTO, STATUS_PROTO, RPC_STATUS_PROTO]) {
    protobuf.parse(text, root, { keepCase: false });
  }
  root.resolveAll();
  return root;
}

const root = buildRoot();

// Without long.js protobufjs reads 64-bit fields as doubles and timestamps lose their
// nanoseconds; fail at load rather than store rounded times.
if (!protobuf.util.Long) throw new Error('protobufjs cannot find the long package: 64-bit OTLP fields would lose precision');

export const ExportTraceServiceRequest = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
export const ExportTraceServiceResponse = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
export const ExportLogsServiceRequest = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
export const ExportLogsServiceResponse = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse');
export const RpcStatus = root.lookupType('google.rpc.Status');

/** A 64-bit integer as protobufjs' Reader returns it (a Long, or a number without the long package). */
export type PbLong = number | { low: number; high: number; unsigned: boolean };

export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Bytes of a proto3 `string` as text, or null when they are not UTF-8 (proto3 makes that
 * a parse error; the caller knows which field it read). Buffer#toString is the fast
 * path; it maps bad bytes to U+FFFD, so only text that contains U+FFFD (rare, and legal
 * when sent as such) is validated again.
 */
export function utf8Text(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return '';
  const buf = asBuffer(bytes);
  const text = buf.toString('utf8');
  if (text.includes('\uFFFD') && !isUtf8(buf)) return null;
  return text;
}



const TWO_32 = 4294967296;

/** An unsigned 64-bit integer (fixed64) as a bigint. */
export function unsignedBigInt(v: PbLong): bigint {
  if (typeof v === 'number') return BigInt(v);
  return (BigInt(v.high >>> 0) << BigInt(32)) | BigInt(v.low >>> 0);
}

/** A signed 64-bit integer (int64) as a number when it is safe, else as decimal text. */
export function signedNumberOrText(v: PbLong): number | string {
  if (typeof v === 'number') return v;
  const high = v.high | 0;
  // Within this range of the high word the value is below 2^53 in magnitude, so the
  // arithmetic is exact; isSafeInteger then only has to exclude -2^53 itself.
  if (high >= -0x200000 && high < 0x200000) {
    const n = high * TWO_32 + (v.low >>> 0);
    if (Number.isSafeInteger(n)) return n;
  }
  return BigInt.asIntN(64, (BigInt(v.high >>> 0) << BigInt(32)) | BigInt(v.low >>> 0)).toString();
}
