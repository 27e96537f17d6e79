import { getLimits } from '@/lib/core/config';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';
import { createScoreConfig, listScoreConfigs, parseConfigBody } from '@/lib/features/scores';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/score-configs - every score config (anyone who reads: annotating uses them)
export const GET = route({ scope: 'read', basic: true }, async (_req, _params, ctx) => json({ configs: await listScoreConfigs(ctx) }));

// POST /api/score-configs - add a config (admins)
export const POST = route({ scope: 'configure' }, async (req, _params, ctx) => {
  const text = await readBodyText(req, getLimits().maxBodyBytes);
  return json(await createScoreConfig(ctx, parseConfigBody(text)), 201);
});
