import { json, route } from '@/lib/transports/http/respond';
import { getSessionOrThrow } from '@/lib/features/sessions';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// GET /api/sessions/{id} - one session's figures and its traces, oldest first
export const GET = route({ scope: 'read', basic: true }, async (_req, { params }: Params, ctx) => {
  return json(await getSessionOrThrow(ctx, (await params).id));
});
