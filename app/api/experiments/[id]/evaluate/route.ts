import { evaluateExperiment } from '@/lib/features/evaluators';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// POST /api/experiments/{id}/evaluate - queue every run for the dataset's evaluators (once per evaluator and run)
export const POST = route({ scope: 'curate' }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  return json(await evaluateExperiment(ctx, id), 202);
});
