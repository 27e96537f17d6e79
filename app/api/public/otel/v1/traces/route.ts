// POST /api/public/otel/v1/traces - the OTLP trace export at Langfuse's path, so a Langfuse
// SDK switches by base URL alone: `Authorization: Basic base64(publicKey:secretKey)` with a
// Crossroads API key as the secret key (the public key is ignored). Same handler as
// /api/otel/v1/traces.
export { POST } from '@/app/api/otel/v1/traces/route';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
