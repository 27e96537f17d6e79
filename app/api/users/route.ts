import { addUser, listUsers, parseNewUser } from '@/lib/features/access';
import { getLimits } from '@/lib/core/config';
import { jsonOrNull, readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/users - everyone who can sign in (admins only)
export const GET = route({ scope: 'admin' }, async (_req, _params, ctx) => json({ users: await listUsers(ctx) }));

// POST /api/users - add a person with a password and a role (admins only)
export const POST = route({ scope: 'admin' }, async (req, _params, ctx) => {
  const input = parseNewUser(jsonOrNull(await readBodyText(req, getLimits().maxBodyBytes)));
  return json(await addUser(ctx, input), 201);
});
