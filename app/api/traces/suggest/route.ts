import { json, route } from '@/lib/transports/http/respond';
import { parseSuggestParams, suggestValues } from '@/lib/features/traces';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/traces/suggest?field=&q=&limit= - stored values of a filter's field starting with q
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  return json(await suggestValues(ctx, parseSuggestParams(new URL(req.url).searchParams)));
});
