import { getDb } from '@/lib/db';
import { json, route } from '@/lib/http/respond';
import { getTraceOrThrow } from '@/lib/traces/detail';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/traces/{id} - one trace with its decision points, spans and events
export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  return json({ trace: await getTraceOrThrow(await getDb(), id) });
});
