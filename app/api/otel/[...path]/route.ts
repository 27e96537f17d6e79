// ANY /api/otel/* - an OTLP 404 for what no route here serves (/v1/metrics, /v1/logs...);
// public (proxy.ts lets /api/otel/ through), it holds no data. The specific
// /api/otel/v1/traces route wins over this catch-all.
import { otlpNotFound } from '@/lib/transports/otlp/not-found';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const notFound = async (req: Request): Promise<Response> => otlpNotFound(req);

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
