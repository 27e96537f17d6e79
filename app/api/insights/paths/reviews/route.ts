import { json, route } from '@/lib/transports/http/respond';
import { parsePathParams, pathReviews } from '@/lib/features/paths';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/insights/paths/reviews - the judged-right share of each option chosen at each fork, from decision reviews
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  const params = parsePathParams(new URL(req.url).searchParams);
  return json(await pathReviews(ctx, params));
});
