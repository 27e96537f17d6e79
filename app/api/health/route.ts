import { json } from '@/lib/http/respond';
import { checkHealth } from '@/lib/traces/health';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/health - liveness with a real database round-trip
export async function GET(): Promise<Response> {
  const report = await checkHealth();
  return json(report, report.status === 'ok' ? 200 : 503);
}
