import { getAuth } from '@/lib/access/auth';
import { createUser, listUsers, parseNewUser } from '@/lib/access/users';
import { getDb } from '@/lib/db';
import { json, route } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/users - everyone who can sign in (admins only)
export const GET = route({ scope: 'admin' }, async () => json({ users: await listUsers(await getDb()) }));

// POST /api/users - add a person with a password and a role (admins only)
export const POST = route({ scope: 'admin' }, async (req: Request) => {
  const input = parseNewUser(await req.json().catch(() => null));
  return json(await createUser(await getAuth(), input), 201);
});
