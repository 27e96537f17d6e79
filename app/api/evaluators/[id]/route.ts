import { getLimits } from '@/lib/core/config';
import { deleteEvaluator, evaluatorInputOf, evaluatorJobCounts, getEvaluator, parseEvaluatorPatch, updateEvaluator } from '@/lib/features/evaluators';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// GET /api/evaluators/{id} - one evaluator, with how its work stands
export const GET = route({ scope: 'read', basic: true }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  const evaluator = await getEvaluator(ctx, id);
  return json({ evaluator, jobs: await evaluatorJobCounts(ctx, id) });
});

// PATCH /api/evaluators/{id} - change any of name, kind, config, scoreName, target, enabled
export const PATCH = route({ scope: 'configure' }, async (req, { params }: Params, ctx) => {
  const { id } = await params;
  const body = await readBodyText(req, getLimits().maxBodyBytes);
  const evaluator = await updateEvaluator(ctx, id, parseEvaluatorPatch(body, await evaluatorInputOf(ctx, id)));
  return json({ evaluator });
});

// DELETE /api/evaluators/{id} - remove it and its queue (its scores stay)
export const DELETE = route({ scope: 'configure' }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  await deleteEvaluator(ctx, id);
  return json({ success: true });
});
