import { json, route } from '@/lib/transports/http/respond';
import { parsePathParams, pathInsights } from '@/lib/features/paths';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/insights/paths - the window's decision paths with their outcomes, and the forks where runs part
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  const params = parsePathParams(new URL(req.url).searchParams);
  return json(await pathInsights(ctx, params));
});
