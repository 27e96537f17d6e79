import { getDb } from '@/lib/db';
import { json, route } from '@/lib/http/respond';
import { decisionInsights } from '@/lib/insights/decisions';
import { parseInsightsParams } from '@/lib/insights/params';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/insights/decisions - decisions by type, options chosen and offered, retry/escalation rates
export const GET = route({ scope: 'read', basic: true }, async (req: Request) => {
  const params = parseInsightsParams(new URL(req.url).searchParams);
  return json(await decisionInsights(await getDb(), params));
});
