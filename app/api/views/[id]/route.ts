import { json, route } from '@/lib/transports/http/respond';
import { deleteView } from '@/lib/features/views';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// DELETE /api/views/{id} - delete one of the caller's saved views
export const DELETE = route({ scope: 'read' }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  await deleteView(ctx, id);
  return json({ success: true });
});
