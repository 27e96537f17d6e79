import { jsonText, route } from '@/lib/transports/http/respond';
import { getTraceOutlineJsonOrThrow, outlineFormatOrThrow } from '@/lib/features/traces';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// GET /api/traces/{id}/outline[?format=columns] - one trace with its spans' tree fields, without span payloads
export const GET = route({ scope: 'read', basic: true }, async (req, { params }: Params, ctx) => {
  const { id } = await params;
  const format = outlineFormatOrThrow(new URL(req.url).searchParams.get('format'));
  return jsonText(`{"trace": ${(await getTraceOutlineJsonOrThrow(ctx, id, { format })).json}}`);
});
