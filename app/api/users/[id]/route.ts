import { deleteUser, setUserRole } from '@/lib/features/access';
import { getLimits } from '@/lib/core/config';
import { jsonOrNull, readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// PATCH /api/users/{id} - change a person's role (admins only)
export const PATCH = route({ scope: 'admin' }, async (req, { params }: Params, ctx) => {
  const body = jsonOrNull(await readBodyText(req, getLimits().maxBodyBytes)) as { role?: unknown } | null;
  await setUserRole(ctx, (await params).id, body?.role);
  return json({ success: true });
});

// DELETE /api/users/{id} - remove a person and their sessions (admins only)
export const DELETE = route({ scope: 'admin' }, async (_req, { params }: Params, ctx) => {
  await deleteUser(ctx, (await params).id);
  return json({ success: true });
});
