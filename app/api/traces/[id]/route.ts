import { describePrincipal } from '@/lib/access/check';
import { getDatabase } from '@/lib/db';
import { json, jsonText, route } from '@/lib/http/respond';
import { deleteTraceOrThrow } from '@/lib/traces/delete';
import { getTraceJsonOrThrow } from '@/lib/traces/detail';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/traces/{id} - one trace with its decision points, spans and events
export const GET = route({ scope: 'read', basic: true }, async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  // The database builds the JSON (see lib/traces/detail.ts); it is sent without re-parsing.
  return jsonText(`{"trace": ${await getTraceJsonOrThrow(await getDatabase(), id)}}`);
});

// DELETE /api/traces/{id} - delete one trace with everything it holds (admins and delete-scope keys)
export const DELETE = route({ scope: 'delete' }, async (_req: Request, ctx: { params: Promise<{ id: string }> }, principal) => {
  const { id } = await ctx.params;
  const count = await deleteTraceOrThrow((await getDatabase()).sql, id, { describe: describePrincipal(principal) });
  return json({ success: true, count });
});
