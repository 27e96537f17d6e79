// The bodies OTLP/HTTP answers with, in the request's encoding: ExportTraceServiceResponse
// (ExportLogsServiceResponse) on success, with partial_success when spans (log records)
// were refused, and google.rpc.Status on
// failure. JSON follows the proto3 JSON mapping (lowerCamelCase, int64 as a string,
// default values left out).
import { ExportLogsServiceResponse, ExportTraceServiceResponse, RpcStatus } from './proto';

export type OtlpEncoding = 'protobuf' | 'json';

export interface OtlpAnswerBody {
  body: Uint8Array | string;
  contentType: 'application/x-protobuf' | 'application/json';
}

export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

const CONTENT_TYPE = { protobuf: 'application/x-protobuf', json: 'application/json' } as const;

/**
 * ExportTraceServiceResponse. Without rejected spans or a message it is the empty message
 * (zero bytes, or `{}`); a message with no rejected spans is a warning, which OTLP allows.
 */
export function exportResponse(format: OtlpEncoding, partial?: PartialSuccess): OtlpAnswerBody {
  const rejected = partial?.rejectedSpans ?? 0;
  const message = partial?.errorMessage ?? '';
  const empty = rejected === 0 && message === '';
  if (format === 'json') {
    const partialSuccess: Record<string, string> = {};
    if (rejected !== 0) partialSuccess.rejectedSpans = String(rejected);
    if (message !== '') partialSuccess.errorMessage = message;
    return { body: JSON.stringify(empty ? {} : { partialSuccess }), contentType: CONTENT_TYPE.json };
  }
  if (empty) return { body: new Uint8Array(0), contentType: CONTENT_TYPE.protobuf };
  const partialSuccess: Record<string, unknown> = {};
  if (rejected !== 0) partialSuccess.rejectedSpans = rejected;
  if (message !== '') partialSuccess.errorMessage = Buffer.from(message, 'utf8');
  return { body: ExportTraceServiceResponse.encode({ partialSuccess }).finish(), contentType: CONTENT_TYPE.protobuf };
}

/** ExportLogsServiceResponse, as exportResponse: rejected_log_records in place of rejected_spans. */
export function exportLogsResponse(format: OtlpEncoding, partial?: { rejectedLogRecords: number; errorMessage: string }): OtlpAnswerBody {
  const rejected = partial?.rejectedLogRecords ?? 0;
  const message = partial?.errorMessage ?? '';
  const empty = rejected === 0 && message === '';
  if (format === 'json') {
    const partialSuccess: Record<string, string> = {};
    if (rejected !== 0) partialSuccess.rejectedLogRecords = String(rejected);
    if (message !== '') partialSuccess.errorMessage = message;
    return { body: JSON.stringify(empty ? {} : { partialSuccess }), contentType: CONTENT_TYPE.json };
  }
  if (empty) return { body: new Uint8Array(0), contentType: CONTENT_TYPE.protobuf };
  const partialSuccess: Record<string, unknown> = {};
  if (rejected !== 0) partialSuccess.rejectedLogRecords = rejected;
  if (message !== '') partialSuccess.errorMessage = Buffer.from(message, 'utf8');
  return { body: ExportLogsServiceResponse.encode({ partialSuccess }).finish(), contentType: CONTENT_TYPE.protobuf };
}

/** A google.rpc.Status with a gRPC code (see grpcCodeForHttpStatus) and a message; no details. */
export function statusBody(format: OtlpEncoding, code: number, message: string): OtlpAnswerBody {
  if (format === 'json') return { body: JSON.stringify({ code, message }), contentType: CONTENT_TYPE.json };
  const status: Record<string, unknown> = {};
  if (code !== 0) status.code = code;
  if (message !== '') status.message = Buffer.from(message, 'utf8');
  return { body: RpcStatus.encode(status).finish(), contentType: CONTENT_TYPE.protobuf };
}

/**
 * The google.rpc.Code put in a Status body for each HTTP status we answer with, chosen by
 * the codes' meanings in google/rpc/code.proto:
 * - 400 INVALID_ARGUMENT (3): the request cannot be decoded or is invalid;
 * - 401 UNAUTHENTICATED (16), 403 PERMISSION_DENIED (7), 404 NOT_FOUND (5);
 * - 409 ABORTED (10): a conflict with stored data;
 * - 413 RESOURCE_EXHAUSTED (8): what gRPC itself answers to a message over the size limit;
 * - 415 INVALID_ARGUMENT (3): the client sent an encoding we do not read, retrying won't help;
 * - 429 RESOURCE_EXHAUSTED (8); 503 UNAVAILABLE (14): busy, retry later;
 * - 500 INTERNAL (13); 501 UNIMPLEMENTED (12); 504 DEADLINE_EXCEEDED (4).
 * Any other status maps to UNKNOWN (2).
 */
export const GRPC_CODE_BY_HTTP_STATUS: Readonly<Record<number, number>> = {
  400: 3,
  401: 16,
  403: 7,
  404: 5,
  409: 10,
  413: 8,
  415: 3,
  429: 8,
  500: 13,
  501: 12,
  503: 14,
  504: 4,
};

export function grpcCodeForHttpStatus(status: number): number {
  return GRPC_CODE_BY_HTTP_STATUS[status] ?? 2;
}
