import { revokeApiKey } from '@/lib/access/api-keys';
import { getDb } from '@/lib/db';
import { json, route } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// DELETE /api/api-keys/{id} - revoke a key at once (admins only)
export const DELETE = route({ scope: 'admin' }, async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await revokeApiKey(await getDb(), (await ctx.params).id);
  return json({ success: true });
});
