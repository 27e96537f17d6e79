import { json, route } from '@/lib/transports/http/respond';
import { getSpanOrThrow } from '@/lib/features/traces';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string; spanId: string }> };

// GET /api/traces/{id}/spans/{spanId} - one span with its input, output and metadata
export const GET = route({ scope: 'read', basic: true }, async (_req, { params }: Params, ctx) => {
  const { id, spanId } = await params;
  return json({ span: await getSpanOrThrow(ctx, id, spanId) });
});
