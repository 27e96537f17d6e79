import { revokeApiKey } from '@/lib/features/access';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// DELETE /api/api-keys/{id} - revoke a key at once (admins only)
export const DELETE = route({ scope: 'admin' }, async (_req, { params }: { params: Promise<{ id: string }> }, ctx) => {
  await revokeApiKey(ctx, (await params).id);
  return json({ success: true });
});
