import { getLimits } from '@/lib/core/config';
import { withBodyAdmission } from '@/lib/core/admission';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';
import { deleteSessionTraces, parseSessionIdParam } from '@/lib/features/retention';
import { ingestTraces } from '@/lib/features/ingest';
import { listTraces } from '@/lib/features/traces';
import { parseListParams } from '@/lib/features/query';
import { parseIngestBody } from '@/lib/features/ingest/shared';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// POST /api/traces - ingest a batch, all or nothing
export const POST = route({ scope: 'ingest' }, async (req, _params, ctx) => {
  const limits = getLimits();
  const count = await withBodyAdmission(req, limits, async () => {
    const batch = parseIngestBody(await readBodyText(req, limits.maxBodyBytes), limits);
    return ingestTraces(ctx, batch);
  });
  return json({ success: true, count });
});

// GET /api/traces - list traces, paginated and filtered
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  const params = parseListParams(new URL(req.url).searchParams);
  return json(await listTraces(ctx, params, { previews: true }));
});

// DELETE /api/traces?sessionId= - delete a session's traces with everything they hold (admins and delete-scope keys)
export const DELETE = route({ scope: 'delete' }, async (req, _params, ctx) => {
  const sessionId = parseSessionIdParam(new URL(req.url).searchParams);
  return json({ success: true, count: await deleteSessionTraces(ctx, sessionId) });
});
