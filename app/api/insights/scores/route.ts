import { json, route } from '@/lib/transports/http/respond';
import { parseScoreSeriesParams, scoreSeries } from '@/lib/features/insights';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/insights/scores - per score name: count, average and values per time bucket
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  const params = parseScoreSeriesParams(new URL(req.url).searchParams);
  return json(await scoreSeries(ctx, params));
});
