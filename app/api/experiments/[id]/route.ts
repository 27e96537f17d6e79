import { getExperiment } from '@/lib/features/experiments';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// GET /api/experiments/{id} - the experiment and its summary
export const GET = route({ scope: 'read', basic: true }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  return json(await getExperiment(ctx, id));
});
