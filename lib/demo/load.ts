import 'server-only';
import { describeActor } from '@/lib/access/decide';
import { systemContext, type ServiceContext } from '@/lib/context';
import { getLimits } from '@/lib/env';
import { ingestTraces } from '@/lib/traces/ingest';
import { parseIngestBody } from '@/lib/traces/validate';
import { requireDemoScope } from './access';
import { demoTraces } from './dataset';
import { removeDemoData } from './remove';

export interface DemoLoadResult {
  /** Demo traces stored now. */
  traces: number;
  /** Demo traces of an earlier load, replaced. */
  replaced: number;
}

/**
 * Stores the demo data set (lib/demo/dataset.ts), timed up to `now`, through the same
 * validation and ingest as POST /api/traces. Loading again replaces the earlier demo
 * traces, so the set is never doubled and its times move up to the present.
 */
export async function loadDemoData(ctx: ServiceContext, now = Date.now()): Promise<DemoLoadResult> {
  const actor = requireDemoScope(ctx, 'ingest');
  // The caller's right was checked above: ingest and delete run as the server's own task
  // (an admin signs in with a session, which never ingests).
  const asServer = systemContext(ctx.db, `demo data load by ${describeActor(actor)}`);
  const replaced = await removeDemoData(asServer);
  const batch = parseIngestBody(JSON.stringify({ traces: demoTraces(now) }), getLimits());
  const traces = await ingestTraces(asServer, batch);
  return { traces, replaced };
}
