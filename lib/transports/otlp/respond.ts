// The OTLP transport's answers: ExportTraceServiceResponse on success, google.rpc.Status
// on failure, each in the request's encoding (JSON when the request's is unknown), with
// the HTTP statuses OTLP/HTTP prescribes (lib/transports/http/respond.ts classifies the failure).
import 'server-only';
import { requireAnyScope, type ServiceContext } from '@/lib/core/context';
import { requestContext } from '@/lib/features/access';
import { errorAnswer, ruleScopes, type AccessRule } from '@/lib/transports/http/respond';
import { exportLogsResponse, exportResponse, grpcCodeForHttpStatus, statusBody } from './encode';
import { otlpFormat, type OtlpFormat, type OtlpLogsReceipt, type OtlpReceipt } from './receive';

function answer(body: Uint8Array | string, contentType: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === 'string' ? body : Buffer.from(body), {
    status,
    headers: { 'Cache-Control': 'no-store', ...headers, 'Content-Type': contentType },
  });
}

/** 200, with partial_success when some spans were refused or something sent was not used (a warning). */
export function otlpSuccess(format: OtlpFormat, receipt: OtlpReceipt): Response {
  const partial =
    // A message without rejections is a warning, as the OTLP spec lets partial_success carry.
    receipt.rejectedSpans > 0 || receipt.errorMessage !== '' ? { rejectedSpans: receipt.rejectedSpans, errorMessage: receipt.errorMessage } : undefined;
  const { body, contentType } = exportResponse(format, partial);
  return answer(body, contentType, 200);
}

/** 200 with partial_success when some log records were refused. */
export function otlpLogsSuccess(format: OtlpFormat, receipt: OtlpLogsReceipt): Response {
  const partial = receipt.rejectedLogRecords > 0 ? { rejectedLogRecords: receipt.rejectedLogRecords, errorMessage: receipt.errorMessage } : undefined;
  const { body, contentType } = exportLogsResponse(format, partial);
  return answer(body, contentType, 200);
}

/** Any thrown value as a Status body: 400/401/413/415 are final for the exporter, 503 carries Retry-After. */
export function otlpFailure(format: OtlpFormat, err: unknown): Response {
  const { status, message, headers } = errorAnswer(err);
  const { body, contentType } = statusBody(format, grpcCodeForHttpStatus(status), message);
  return answer(body, contentType, status, headers);
}

/**
 * Wraps the export handler: reads the request's encoding first (415 in JSON when it is
 * neither), builds the request's context and checks its scope early (the store checks
 * it again), then answers whatever the handler returns or
 * throws in that encoding.
 */
export function otlpRoute(rule: AccessRule, handler: (req: Request, format: OtlpFormat, ctx: ServiceContext) => Promise<OtlpReceipt>) {
  return exportRoute(rule, handler, otlpSuccess);
}

/** otlpRoute for the logs export: ExportLogsServiceResponse on success. */
export function otlpLogsRoute(rule: AccessRule, handler: (req: Request, format: OtlpFormat, ctx: ServiceContext) => Promise<OtlpLogsReceipt>) {
  return exportRoute(rule, handler, otlpLogsSuccess);
}

function exportRoute<R>(
  rule: AccessRule,
  handler: (req: Request, format: OtlpFormat, ctx: ServiceContext) => Promise<R>,
  success: (format: OtlpFormat, receipt: R) => Response,
) {
  return async (req: Request): Promise<Response> => {
    let format: OtlpFormat;
    try {
      format = otlpFormat(req.headers.get('content-type'));
    } catch (err) {
      return otlpFailure('json', err);
    }
    try {
      const ctx = await requestContext(req.headers, { kind: 'http', method: req.method, url: req.url, basic: rule.basic });
      requireAnyScope(ctx, ruleScopes(rule));
      return success(format, await handler(req, format, ctx));
    } catch (err) {
      return otlpFailure(format, err);
    }
  };
}
