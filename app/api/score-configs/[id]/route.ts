import { getLimits } from '@/lib/core/config';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';
import { deleteScoreConfig, parseConfigPatch, updateScoreConfig } from '@/lib/features/scores';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// PATCH /api/score-configs/{id} - change a config (admins)
export const PATCH = route({ scope: 'configure' }, async (req, { params }: Params, ctx) => {
  const { id } = await params;
  return json(await updateScoreConfig(ctx, id, parseConfigPatch(await readBodyText(req, getLimits().maxBodyBytes))));
});

// DELETE /api/score-configs/{id} - delete a config (admins)
export const DELETE = route({ scope: 'configure' }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  await deleteScoreConfig(ctx, id);
  return json({ success: true });
});
