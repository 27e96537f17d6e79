import { deleteUser, setUserRole } from '@/lib/access/users';
import { getDb } from '@/lib/db';
import { json, route } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Ctx = { params: Promise<{ id: string }> };

// PATCH /api/users/{id} - change a person's role (admins only)
export const PATCH = route({ scope: 'admin' }, async (req: Request, ctx: Ctx) => {
  const body = (await req.json().catch(() => null)) as { role?: unknown } | null;
  await setUserRole(await getDb(), (await ctx.params).id, body?.role);
  return json({ success: true });
});

// DELETE /api/users/{id} - remove a person and their sessions (admins only)
export const DELETE = route({ scope: 'admin' }, async (_req: Request, ctx: Ctx, principal) => {
  await deleteUser(await getDb(), (await ctx.params).id, principal.kind === 'user' ? principal.userId : null);
  return json({ success: true });
});
