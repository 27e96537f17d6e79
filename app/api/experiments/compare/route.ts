import { AppError } from '@/lib/core/errors';
import { compareExperiments, parseCompareIds } from '@/lib/features/experiments';
import { parsePageParams } from '@/lib/features/query';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/experiments/compare?ids=a,b[,…]&onlyDifferent=&page=&limit= - experiments item by item
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  const query = new URL(req.url).searchParams;
  const only = query.get('onlyDifferent');
  if (only !== null && only !== 'true' && only !== 'false') throw new AppError('VALIDATION', 'Invalid onlyDifferent parameter: true or false');
  return json(await compareExperiments(ctx, parseCompareIds(query.get('ids')), { onlyDifferent: only === 'true', ...parsePageParams(query) }));
});
