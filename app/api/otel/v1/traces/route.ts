import { getLimits, getOtlpConfig } from '@/lib/env';
import { withBodyAdmission } from '@/lib/http/admission';
import { readBodyBytes } from '@/lib/http/body';
import { receiveOtlpTraces } from '@/lib/otlp/receive';
import { otlpRoute } from '@/lib/otlp/respond';

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
