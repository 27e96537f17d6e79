import { getLimits } from '@/lib/core/config';
import { createEvaluator, listEvaluators, parseEvaluatorBody } from '@/lib/features/evaluators';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/evaluators - every evaluator, by name
export const GET = route({ scope: 'read', basic: true }, async (_req, _params, ctx) => {
  return json({ evaluators: await listEvaluators(ctx) });
});

// POST /api/evaluators - create one {name, kind, config, scoreName, target, enabled?}
export const POST = route({ scope: 'configure' }, async (req, _params, ctx) => {
  const evaluator = await createEvaluator(ctx, parseEvaluatorBody(await readBodyText(req, getLimits().maxBodyBytes)));
  return json({ evaluator }, 201);
});
