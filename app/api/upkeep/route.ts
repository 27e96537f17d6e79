import { isCronRequest } from '@/lib/transports/http/cron';
import { json, publicRoute, route } from '@/lib/transports/http/respond';
import { runUpkeepNow } from '@/lib/upkeep';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
// A cron call may index search for CRON_SEARCH_INDEX_BUDGET_MS (10 s) after the other tasks.
export const maxDuration = 60;

const asCron = publicRoute(async () => json(await runUpkeepNow()));
const asAdmin = route({ scope: 'admin' }, async () => json(await runUpkeepNow()));

// GET /api/upkeep - every upkeep task once (closing idle traces, folds, retention, search indexing): a platform's cron with Bearer CRON_SECRET, or an admin
export const GET = (req: Request) => (isCronRequest(req.headers) ? asCron(req) : asAdmin(req));

// POST /api/upkeep - the same, for crons that POST
export const POST = GET;
