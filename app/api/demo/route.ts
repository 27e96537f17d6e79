import { json, route } from '@/lib/transports/http/respond';
import { countDemoTraces, loadDemoData, removeDemoData } from '@/lib/features/demo';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// The rule answers anonymous callers early; who may load or remove is the verbs' own check
// (admins, or a key with ingest / delete: no single scope covers both, lib/features/demo/access.ts).

// GET /api/demo - how many demo traces are stored
export const GET = route({ scope: 'read' }, async (_req, _params, ctx) => json({ traces: await countDemoTraces(ctx) }));

// POST /api/demo - load the demo data set (replacing an earlier load)
export const POST = route({ scope: 'read' }, async (_req, _params, ctx) => json(await loadDemoData(ctx)));

// DELETE /api/demo - remove every demo trace
export const DELETE = route({ scope: 'read' }, async (_req, _params, ctx) => json({ removed: await removeDemoData(ctx) }));
