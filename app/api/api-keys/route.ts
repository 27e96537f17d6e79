import { createApiKey, listApiKeys, parseNewApiKey } from '@/lib/access/api-keys';
import { getAuth } from '@/lib/access/auth';
import { getDb } from '@/lib/db';
import { AppError } from '@/lib/errors';
import { json, route } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/api-keys - every API key, without the keys themselves (admins only)
export const GET = route({ scope: 'admin' }, async () => json({ apiKeys: await listApiKeys(await getDb()) }));

// POST /api/api-keys - make a key with a name and scopes; the key is in this answer only (admins only)
export const POST = route({ scope: 'admin' }, async (req: Request, _ctx: unknown, principal) => {
  if (principal.kind !== 'user') throw new AppError('FORBIDDEN', 'This needs the admin role');
  const input = parseNewApiKey(await req.json().catch(() => null));
  return json(await createApiKey(await getAuth(), input, principal.userId), 201);
});
