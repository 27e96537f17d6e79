import { json, route } from '@/lib/transports/http/respond';
import { listSessions, parseSessionListParams } from '@/lib/features/sessions';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/sessions - sessions by latest activity, paginated
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  return json(await listSessions(ctx, parseSessionListParams(new URL(req.url).searchParams)));
});
