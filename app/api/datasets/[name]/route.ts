import { deleteDataset, getDataset } from '@/lib/features/datasets';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ name: string }> };

// GET /api/datasets/{name} - one dataset
export const GET = route({ scope: 'read', basic: true }, async (_req, { params }: Params, ctx) => {
  const { name } = await params;
  return json({ dataset: await getDataset(ctx, name) });
});

// DELETE /api/datasets/{name} - remove it, its items, its experiments and their run links (traces stay)
export const DELETE = route({ scope: 'delete' }, async (_req, { params }: Params, ctx) => {
  const { name } = await params;
  await deleteDataset(ctx, name);
  return json({ success: true });
});
