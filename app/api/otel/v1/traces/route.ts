import { getLimits, getOtlpConfig } from '@/lib/core/config';
import { withBodyAdmission } from '@/lib/core/admission';
import { readBodyBytes } from '@/lib/transports/http/body';
import { receiveOtlpTraces } from '@/lib/transports/otlp/receive';
import { otlpRoute } from '@/lib/transports/otlp/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// POST /api/otel/v1/traces - OTLP/HTTP trace export (protobuf or JSON, gzip or deflate)
export const POST = otlpRoute({ scope: 'ingest', basic: true }, async (req, format, ctx) => {
  const limits = { ...getLimits(), ...getOtlpConfig() };
  return withBodyAdmission(req, limits, async () => {
    const body = await readBodyBytes(req, limits.maxBodyBytes);
    return receiveOtlpTraces(ctx, format, body, limits);
  });
});
