import { getLimits } from '@/lib/core/config';
import { AppError } from '@/lib/core/errors';
import { createExperiment, datasetExperiments, parseCreateExperimentBody } from '@/lib/features/experiments';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/experiments?dataset= - a dataset's experiments with their summaries, newest first
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  const dataset = new URL(req.url).searchParams.get('dataset');
  if (dataset === null) throw new AppError('VALIDATION', 'Missing dataset parameter');
  return json({ experiments: await datasetExperiments(ctx, dataset) });
});

// POST /api/experiments - create an experiment {dataset, name, metadata?, passCriteria?}
export const POST = route({ scope: 'curate' }, async (req, _params, ctx) => {
  const experiment = await createExperiment(ctx, parseCreateExperimentBody(await readBodyText(req, getLimits().maxBodyBytes)));
  return json({ experiment }, 201);
});
