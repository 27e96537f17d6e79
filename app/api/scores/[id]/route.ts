import { json, route } from '@/lib/transports/http/respond';
import { deleteScore } from '@/lib/features/scores';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// DELETE /api/scores/{id} - delete one score (admins, delete-scope keys, or the person who made it)
export const DELETE = route({ scope: ['delete', 'annotate'] }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  await deleteScore(ctx, id);
  return json({ success: true });
});
