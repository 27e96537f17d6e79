import { createApiKey, listApiKeys, parseNewApiKey } from '@/lib/features/access';
import { getLimits } from '@/lib/core/config';
import { jsonOrNull, readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/api-keys - every API key, without the keys themselves (admins only)
export const GET = route({ scope: 'admin' }, async (_req, _params, ctx) => json({ apiKeys: await listApiKeys(ctx) }));

// POST /api/api-keys - make a key with a name and scopes; the key is in this answer only (admins only)
export const POST = route({ scope: 'admin' }, async (req, _params, ctx) => {
  const input = parseNewApiKey(jsonOrNull(await readBodyText(req, getLimits().maxBodyBytes)));
  return json(await createApiKey(ctx, input), 201);
});
