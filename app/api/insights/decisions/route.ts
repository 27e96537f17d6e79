import { json, route } from '@/lib/transports/http/respond';
import { decisionInsights, parseDecisionParams } from '@/lib/features/insights';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/insights/decisions - decisions by type (per bucket when asked), options chosen and offered, retry/escalation rates
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  const params = parseDecisionParams(new URL(req.url).searchParams);
  return json(await decisionInsights(ctx, params));
});
