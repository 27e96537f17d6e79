// One OTLP/HTTP export request (traces or logs), from its bytes to what the exporter is
// told: decode (protobuf or JSON), refuse what cannot be stored span by span (record by
// record), map to the domain's records and upsert them. Route-independent so tests and
// the bench can call it too.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { SpanRejection } from '@/lib/features/ingest/span-batch';
import { upsertSpanBatch } from '@/lib/features/ingest/upsert-spans';
import { decodeJsonLogsRequest, decodeJsonRequest, decodeProtobufLogsRequest, decodeProtobufRequest } from './decode';
import { planLogRecords } from './logs';
import { planOtlpRequest } from './map';
import { markCallsRepeatedAcrossRequests } from '@/lib/features/ingest/repeated-calls';
import { fillPayloadsFromLogs, storeLogEvents } from '@/lib/features/ingest/store-log-events';
import { utf8Text } from './proto';

export type OtlpFormat = 'protobuf' | 'json';

/** The encoding of a request by its Content-Type (parameters such as charset ignored); 415 otherwise. */
export function otlpFormat(contentType: string | null): OtlpFormat {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Unsupported Content-Type "${type}": send application/x-protobuf or application/json`,
  );
}

export interface OtlpReceiveLimits {
  maxSpansPerRequest: number;
  maxChildrenPerTrace: number;
}

export interface OtlpReceipt {
  acceptedSpans: number;
  rejectedSpans: number;
  /** Why spans were rejected, for partial_success.error_message; '' when none were. */
  errorMessage: string;
}

/** Summarises rejections as "3 spans rejected: 2 invalid trace id (...); 1 ...". */
export function rejectionMessage(rejected: SpanRejection[]): string {
  const total = rejected.reduce((n, r) => n + r.count, 0);
  if (total === 0) return '';
  const reasons = rejected.map((r) => `${r.count} ${r.reason}`).join('; ');
  return `${total} span${total === 1 ? '' : 's'} rejected: ${reasons}`;
}

/** The body as UTF-8 text (a leading BOM dropped), or 400 when it is not UTF-8. */
function utf8(body: Uint8Array): string {
  const text = utf8Text(body);
  if (text === null) throw new AppError('VALIDATION', 'Request body is not valid UTF-8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** Decodes, maps and stores one request's spans; throws AppError for a request refused whole. */
export async function receiveOtlpTraces(
  ctx: ServiceContext,
  format: OtlpFormat,
  body: Uint8Array,
  limits: OtlpReceiveLimits,
): Promise<OtlpReceipt> {
  const actor = requireScope(ctx, 'ingest');
  const spans = format === 'protobuf' ? decodeProtobufRequest(body) : decodeJsonRequest(utf8(body));
  if (spans.length > limits.maxSpansPerRequest) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `Too many spans in one request: ${spans.length}; at most ${limits.maxSpansPerRequest} are allowed (OTLP_MAX_SPANS_PER_REQUEST)`,
    );
  }
  // Traces are mapped as the store reads them: chunk k+1 while the database stores chunk k.
  const planned = planOtlpRequest(spans);
  // A model call whose content came first as log records gets it from them; one reported
  // twice, its reports in different requests, is counted once.
  const stored = await upsertSpanBatch(ctx.db.sql, planned, limits, {
    completeModelCalls: fillPayloadsFromLogs,
    compareModelCalls: markCallsRepeatedAcrossRequests,
    actor,
  });
  const rejected = [...planned.rejected, ...stored.rejected];
  const rejectedSpans = rejected.reduce((n, r) => n + r.count, 0);
  return { acceptedSpans: stored.acceptedSpans, rejectedSpans, errorMessage: rejectionMessage(rejected) };
}

export interface OtlpLogsReceipt {
  acceptedLogRecords: number;
  rejectedLogRecords: number;
  /** Why records were rejected, for partial_success.error_message; '' when none were. */
  errorMessage: string;
}

/** Decodes and stores one request's log records as events of the spans they name; throws AppError for a request refused whole. */
export async function receiveOtlpLogs(
  ctx: ServiceContext,
  format: OtlpFormat,
  body: Uint8Array,
  limits: OtlpReceiveLimits,
): Promise<OtlpLogsReceipt> {
  requireScope(ctx, 'ingest');
  const records = format === 'protobuf' ? decodeProtobufLogsRequest(body) : decodeJsonLogsRequest(utf8(body));
  if (records.length > limits.maxSpansPerRequest) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `Too many log records in one request: ${records.length}; at most ${limits.maxSpansPerRequest} are allowed (OTLP_MAX_SPANS_PER_REQUEST)`,
    );
  }
  const planned = planLogRecords(records);
  const stored = await storeLogEvents(ctx.db.sql, planned, limits);
  const rejected = [...planned.rejected, ...stored.rejected];
  const total = rejected.reduce((n, r) => n + r.count, 0);
  const reasons = rejected.map((r) => `${r.count} ${r.reason}`).join('; ');
  return {
    acceptedLogRecords: stored.acceptedLogRecords,
    rejectedLogRecords: total,
    errorMessage: total === 0 ? '' : `${total} log record${total === 1 ? '' : 's'} rejected: ${reasons}`,
  };
}
