import { getLimits } from '@/lib/env';
import { withBodyAdmission } from '@/lib/http/admission';
import { readBodyText } from '@/lib/http/body';
import { json, route } from '@/lib/http/respond';
import { listScores, parseScoreListParams, parseScoresBody, saveScores } from '@/lib/scores';

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
