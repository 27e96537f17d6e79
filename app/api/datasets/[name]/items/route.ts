import { getLimits } from '@/lib/core/config';
import { listItems, parseItemsBody, upsertItems } from '@/lib/features/datasets';
import { parsePageParams } from '@/lib/features/query';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ name: string }> };

// GET /api/datasets/{name}/items - the items, in the order they were added, paged like traces
export const GET = route({ scope: 'read', basic: true }, async (req, { params }: Params, ctx) => {
  const { name } = await params;
  return json(await listItems(ctx, name, parsePageParams(new URL(req.url).searchParams)));
});

// POST /api/datasets/{name}/items - add or replace up to 1,000 items, all or nothing
export const POST = route({ scope: 'curate' }, async (req, { params }: Params, ctx) => {
  const { name } = await params;
  const count = await upsertItems(ctx, name, parseItemsBody(await readBodyText(req, getLimits().maxBodyBytes)));
  return json({ success: true, count });
});
