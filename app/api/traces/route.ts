import { describePrincipal } from '@/lib/access/check';
import { getDatabase, getDb } from '@/lib/db';
import { getLimits } from '@/lib/env';
import { withBodyAdmission } from '@/lib/http/admission';
import { readBodyText } from '@/lib/http/body';
import { json, route } from '@/lib/http/respond';
import { deleteSessionTraces, parseSessionIdParam } from '@/lib/traces/delete';
import { ingestTraces } from '@/lib/traces/ingest';
import { listTraces, parseListParams } from '@/lib/traces/list';
import { parseIngestBody } from '@/lib/traces/validate';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// POST /api/traces - ingest a batch, all or nothing
export const POST = route({ scope: 'ingest' }, async (req: Request) => {
  const limits = getLimits();
  const count = await withBodyAdmission(req, limits, async () => {
    const batch = parseIngestBody(await readBodyText(req, limits.maxBodyBytes), limits);
    return ingestTraces((await getDatabase()).sql, batch);
  });
  return json({ success: true, count });
});

// GET /api/traces - list traces, paginated and filtered
export const GET = route({ scope: 'read', basic: true }, async (req: Request) => {
  const params = parseListParams(new URL(req.url).searchParams);
  return json(await listTraces(await getDb(), params));
});

// DELETE /api/traces?sessionId= - delete a session's traces with everything they hold (admins and delete-scope keys)
export const DELETE = route({ scope: 'delete' }, async (req: Request, _ctx: unknown, principal) => {
  const sessionId = parseSessionIdParam(new URL(req.url).searchParams);
  const count = await deleteSessionTraces((await getDatabase()).sql, sessionId, { describe: describePrincipal(principal) });
  return json({ success: true, count });
});
