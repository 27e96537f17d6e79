import { getLimits, getOtlpConfig } from '@/lib/core/config';
import { withBodyAdmission } from '@/lib/core/admission';
import { readBodyBytes } from '@/lib/transports/http/body';
import { receiveOtlpLogs } from '@/lib/transports/otlp/receive';
import { otlpLogsRoute } from '@/lib/transports/otlp/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// POST /api/otel/v1/logs - OTLP/HTTP log export (protobuf or JSON, gzip or deflate): records that name a span become its events
export const POST = otlpLogsRoute({ scope: 'ingest', basic: true }, async (req, format, ctx) => {
  const limits = { ...getLimits(), ...getOtlpConfig() };
  return withBodyAdmission(req, limits, async () => {
    const body = await readBodyBytes(req, limits.maxBodyBytes);
    return receiveOtlpLogs(ctx, format, body, limits);
  });
});
