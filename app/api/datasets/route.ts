import { getLimits } from '@/lib/core/config';
import { createDataset, listDatasets, parseCreateDatasetBody } from '@/lib/features/datasets';
import { parsePageParams } from '@/lib/features/query';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/datasets - the datasets, newest first, paged like traces
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  return json(await listDatasets(ctx, parsePageParams(new URL(req.url).searchParams)));
});

// POST /api/datasets - create a dataset {name, description?, metadata?}
export const POST = route({ scope: 'curate' }, async (req, _params, ctx) => {
  const dataset = await createDataset(ctx, parseCreateDatasetBody(await readBodyText(req, getLimits().maxBodyBytes)));
  return json({ dataset }, 201);
});
