// The answer to a request for a path under /api/otel/ that no route serves. An exporter
// given OTEL_EXPORTER_OTLP_ENDPOINT also sends /v1/metrics there; it reads a
// google.rpc.Status, not Next's HTML page, and 404 is final for it (no retries).
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { otlpFormat, type OtlpFormat } from './receive';
import { otlpFailure } from './respond';

export const OTLP_TRACES_PATH = '/api/otel/v1/traces';
export const OTLP_LOGS_PATH = '/api/otel/v1/logs';

/** 404 with a Status in the request's encoding, JSON when it is neither (as for a 415). */
export function otlpNotFound(req: Request): Response {
  let format: OtlpFormat = 'json';
  try {
    format = otlpFormat(req.headers.get('content-type'));
  } catch {
    // Neither protobuf nor JSON: answered in JSON.
  }
  const path = new URL(req.url).pathname;
  return otlpFailure(format, new AppError('NOT_FOUND', `Not found: ${path} (this server accepts OTLP traces at ${OTLP_TRACES_PATH} and logs at ${OTLP_LOGS_PATH})`));
}
