import { getLimits } from '@/lib/core/config';
import { linkRuns, parseRunsBody } from '@/lib/features/experiments';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// POST /api/experiments/{id}/runs - link traces to items {runs: [{itemId, traceId, repetition?}]}
export const POST = route({ scope: 'curate' }, async (req, { params }: Params, ctx) => {
  const { id } = await params;
  const count = await linkRuns(ctx, id, parseRunsBody(await readBodyText(req, getLimits().maxBodyBytes)));
  return json({ success: true, count });
});
