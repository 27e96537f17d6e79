import { json, publicRoute } from '@/lib/transports/http/respond';
import { checkHealth } from '@/lib/features/traces';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/health - liveness with a real database round-trip; public, and says only status, database, version and mode
export const GET = publicRoute(async () => {
  const report = await checkHealth();
  return json(report, report.status === 'ok' ? 200 : 503);
});
