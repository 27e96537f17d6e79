// One OTLP/HTTP export request (traces or logs), from its bytes to the domain's typed
// records: the encoding by Content-Type, decoded (protobuf or JSON) once, then handed to
// the otlp feature's verbs. Route-independent so tests and the bench can call it too.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import type { ServiceContext } from '@/lib/core/context';
import { storeOtlpLogs, storeOtlpSpans, type OtlpLogsReceipt, type OtlpReceipt, type OtlpReceiveLimits } from '@/lib/features/otlp';
import { decodeJsonLogsRequest, decodeJsonRequest, decodeProtobufLogsRequest, decodeProtobufRequest } from './decode';
import { utf8Text } from './proto';

export type { OtlpLogsReceipt, OtlpReceipt, OtlpReceiveLimits };

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

/** The body as UTF-8 text (a leading BOM dropped), or 400 when it is not UTF-8. */
function utf8(body: Uint8Array): string {
  const text = utf8Text(body);
  if (text === null) throw new AppError('VALIDATION', 'Request body is not valid UTF-8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** Decodes and stores one request's spans; throws AppError for a request refused whole. The route checked the ingest scope. */
export function receiveOtlpTraces(ctx: ServiceContext, format: OtlpFormat, body: Uint8Array, limits: OtlpReceiveLimits): Promise<OtlpReceipt> {
  const spans = format === 'protobuf' ? decodeProtobufRequest(body) : decodeJsonRequest(utf8(body));
  return storeOtlpSpans(ctx, spans, limits);
}

/** Decodes and stores one request's log records as events of the spans they name. The route checked the ingest scope. */
export function receiveOtlpLogs(ctx: ServiceContext, format: OtlpFormat, body: Uint8Array, limits: OtlpReceiveLimits): Promise<OtlpLogsReceipt> {
  const records = format === 'protobuf' ? decodeProtobufLogsRequest(body) : decodeJsonLogsRequest(utf8(body));
  return storeOtlpLogs(ctx, records, limits);
}
