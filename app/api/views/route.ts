import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';
import { listViews, parseSaveViewBody, saveView, VIEW_LIMITS } from '@/lib/features/views';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/views - the caller's saved views of the trace list, by name
export const GET = route({ scope: 'read' }, async (_req, _params, ctx) => {
  return json({ views: await listViews(ctx) });
});

// POST /api/views - save the caller's view under a name (replacing their view of that name)
export const POST = route({ scope: 'read' }, async (req, _params, ctx) => {
  const { view, created } = await saveView(ctx, parseSaveViewBody(await readBodyText(req, VIEW_LIMITS.bodyBytes)));
  return json({ view }, created ? 201 : 200);
});
