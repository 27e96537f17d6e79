import { getLimits } from '@/lib/core/config';
import { evaluatorInputOf, parseTryBody, tryEvaluator } from '@/lib/features/evaluators';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// POST /api/evaluators/try - run an evaluator on one trace and show the result, storing nothing
// {traceId, evaluator: {kind, config, target?}} or {traceId, evaluatorId}
export const POST = route({ scope: 'configure' }, async (req, _params, ctx) => {
  const body = parseTryBody(await readBodyText(req, getLimits().maxBodyBytes));
  const evaluator = body.evaluator ?? (await evaluatorInputOf(ctx, body.evaluatorId!));
  return json(await tryEvaluator(ctx, evaluator, body.traceId));
});
