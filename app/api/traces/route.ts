import { getLimits } from '@/lib/core/config';
import { withBodyAdmission } from '@/lib/transports/http/admission';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';
import { deleteSessionTraces, parseSessionIdParam } from '@/lib/features/retention/delete';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { listTraces, parseListParams } from '@/lib/features/traces/list';
import { parseIngestBody } from '@/lib/features/ingest/validate';

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
