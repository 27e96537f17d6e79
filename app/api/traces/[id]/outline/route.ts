import { jsonText, route } from '@/lib/http/respond';
import { getTraceOutlineJsonOrThrow } from '@/lib/traces/outline';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// GET /api/traces/{id}/outline - one trace with its spans' tree fields, without span payloads
export const GET = route({ scope: 'read', basic: true }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  return jsonText(`{"trace": ${(await getTraceOutlineJsonOrThrow(ctx, id)).json}}`);
});
