import { getLimits } from '@/lib/core/config';
import { withBodyAdmission } from '@/lib/core/admission';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';
import { listScores, parseScoreListParams, parseScoresBody, saveScores } from '@/lib/features/scores';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// POST /api/scores - create or update up to 1,000 scores, all or nothing (keys with ingest, signed-in people)
export const POST = route({ scope: 'annotate' }, async (req, _params, ctx) => {
  const limits = getLimits();
  const count = await withBodyAdmission(req, limits, async () => saveScores(ctx, parseScoresBody(await readBodyText(req, limits.maxBodyBytes))));
  return json({ success: true, count });
});

// GET /api/scores - scores newest first, filtered and paged
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  return json(await listScores(ctx, parseScoreListParams(new URL(req.url).searchParams)));
});
