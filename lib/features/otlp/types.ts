// The OTLP adapter's two seams, as plain data:
// - decode.ts turns an ExportTraceServiceRequest (protobuf or JSON) into OtlpSpan[];
// - map.ts turns OtlpSpan[] into the domain's records (MappedTrace[]) plus rejections;
// then lib/traces/otlp-ingest.ts stores them (upsert by trace id and span id).

/** An OTLP AnyValue as plain JSON: kvlist -> object, array -> array, bytes -> base64 text, int64 -> number (string when unsafe). */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

/** Attributes by key, in the order sent (a later duplicate key wins). */
export type Attributes = Record<string, AttributeValue>;

export interface OtlpEvent {
  /** Unix time in nanoseconds (int64). */
  timeUnixNano: bigint;
  name: string;
  attributes: Attributes;
}

export interface OtlpResource {
  attributes: Attributes;
}

export interface OtlpScope {
  name: string;
  version: string;
  attributes: Attributes;
}

/** One span, flattened out of resourceSpans/scopeSpans; resource and scope objects are shared, not copied. */
export interface OtlpSpan {
  /** Lowercase hex of the id bytes as sent: may be of the wrong length or all zeros (the mapper refuses those spans). */
  traceId: string;
  spanId: string;
  /** '' when the span has no parent. */
  parentSpanId: string;
  name: string;
  /** SpanKind as an integer (0 unspecified .. 5 consumer). */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Attributes;
  events: OtlpEvent[];
  /** StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  resource: OtlpResource;
  scope: OtlpScope;
}

/** One log record, flattened out of resourceLogs/scopeLogs (resource and scope shared, as for spans). */
export interface OtlpLogRecord {
  /** Unix nanoseconds; 0 when unknown (then observedTimeUnixNano says when it was seen). */
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  /** SeverityNumber (0 unspecified, 1..24 TRACE..FATAL4). */
  severityNumber: number;
  severityText: string;
  body: AttributeValue;
  attributes: Attributes;
  /** Lowercase hex as sent; '' when the record names no trace or span. */
  traceId: string;
  spanId: string;
  /** The event's name (`event_name`, since OTLP 1.5); '' when not an event. */
  eventName: string;
  resource: OtlpResource;
  scope: OtlpScope;
}
