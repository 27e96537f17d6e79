import { json, route } from '@/lib/transports/http/respond';
import { overviewInsights, parseOverviewParams } from '@/lib/features/insights';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/insights/overview - traces, errors, cost, tokens and duration percentiles per time bucket
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  const params = parseOverviewParams(new URL(req.url).searchParams);
  return json(await overviewInsights(ctx, params));
});
