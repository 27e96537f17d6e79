import { json, route } from '@/lib/transports/http/respond';
import { searchTraceOrThrow } from '@/lib/features/search';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// GET /api/traces/{id}/search?q= - where a text occurs in one trace (names, inputs, outputs, metadata…)
export const GET = route({ scope: 'read', basic: true }, async (req, { params }: Params, ctx) => {
  const { id } = await params;
  return json(await searchTraceOrThrow(ctx, id, new URL(req.url).searchParams.get('q')));
});
