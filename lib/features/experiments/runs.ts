// Run links: a trace that ran an item of the experiment's dataset, one per (item,
// repetition); linking again replaces the trace. All or nothing per request.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';
import { experimentById } from './record';
import type { RunLink } from './types';

export interface ExperimentLink extends RunLink {
  experimentId: string;
}

/** Stores the links (their experiments, items and traces already checked). */
export async function storeRunLinks(tx: SqlExecutor, links: readonly ExperimentLink[]): Promise<void> {
  if (links.length === 0) return;
  await tx.query(sql`
    INSERT INTO "ExperimentRun" ("experimentId", "itemId", "repetition", "traceId")
    SELECT l."experimentId", l."itemId", l."repetition", l."traceId"
      FROM json_to_recordset(${JSON.stringify(links)}::json) AS l("experimentId" text, "itemId" text, "repetition" int, "traceId" text)
    ON CONFLICT ("experimentId", "itemId", "repetition") DO UPDATE SET "traceId" = excluded."traceId", "createdAt" = now()`);
}

/**
 * Checks the experiment runs a batch of traces names (`traces[i].experiment`): each
 * experiment exists and has the item in its dataset; a 404 names the first that fails.
 * Run inside the transaction that stores the traces and then the links.
 */
export async function checkTraceLinks(tx: SqlExecutor, links: ReadonlyArray<ExperimentLink & { path: string }>): Promise<void> {
  if (links.length === 0) return;
  const known = await tx.query<{ found: boolean; experimentFound: boolean }>(sql`
    SELECT e."id" IS NOT NULL AS "experimentFound",
           EXISTS (SELECT 1 FROM "DatasetItem" i WHERE i."datasetId" = e."datasetId" AND i."id" = l.v ->> 'itemId') AS found
      FROM jsonb_array_elements(${JSON.stringify(links)}::jsonb) WITH ORDINALITY AS l(v, at)
      LEFT JOIN "Experiment" e ON e."id" = l.v ->> 'experimentId'
     ORDER BY l.at`);
  links.forEach((link, i) => {
    const row = known[i];
    if (!row.experimentFound) throw new AppError('NOT_FOUND', `${link.path}.id: experiment "${link.experimentId}" not found`);
    if (!row.found) throw new AppError('NOT_FOUND', `${link.path}.itemId: item "${link.itemId}" not found in the experiment's dataset`);
  });
}

/**
 * Stores the links whose trace, experiment and item exist (telemetry's own: nothing is
 * refused for a link), and says why each other one was left out.
 */
export async function linkStoredRuns(db: SqlExecutor, links: readonly ExperimentLink[]): Promise<string[]> {
  if (links.length === 0) return [];
  return db.transaction(async (tx) => {
    const known = await tx.query<{ experimentFound: boolean; itemFound: boolean; traceFound: boolean }>(sql`
      SELECT e."id" IS NOT NULL AS "experimentFound",
             EXISTS (SELECT 1 FROM "DatasetItem" i WHERE i."datasetId" = e."datasetId" AND i."id" = l.v ->> 'itemId') AS "itemFound",
             EXISTS (SELECT 1 FROM "Trace" t WHERE t."id" = l.v ->> 'traceId') AS "traceFound"
        FROM jsonb_array_elements(${JSON.stringify(links)}::jsonb) WITH ORDINALITY AS l(v, at)
        LEFT JOIN "Experiment" e ON e."id" = l.v ->> 'experimentId'
       ORDER BY l.at`);
    const problems: string[] = [];
    const good = links.filter((link, i) => {
      const row = known[i];
      if (!row.experimentFound) problems.push(`trace ${link.traceId}: experiment "${link.experimentId}" not found`);
      else if (!row.itemFound) problems.push(`trace ${link.traceId}: item "${link.itemId}" not found in the experiment's dataset`);
      return row.experimentFound && row.itemFound && row.traceFound;
    });
    // FOR KEY SHARE keeps the traces until the links are in (a delete then takes them along).
    await tx.query(sql`SELECT 1 FROM "Trace" WHERE "id" = ANY(${good.map((l) => l.traceId)}::text[]) FOR KEY SHARE`);
    await storeRunLinks(tx, good);
    return problems;
  });
}

/** The position of the first id not in `found`, or -1. */
const firstMissing = (ids: readonly string[], found: ReadonlySet<string>) => ids.findIndex((id) => !found.has(id));

/** POST /api/experiments/{id}/runs. */
export async function linkRuns(ctx: ServiceContext, experimentId: string, runs: readonly RunLink[]): Promise<number> {
  requireScope(ctx, 'curate');
  return ctx.db.sql.transaction(async (tx) => {
    const experiment = await experimentById(tx, experimentId);
    const itemIds = runs.map((r) => r.itemId);
    const items = await tx.query<{ id: string }>(sql`
      SELECT i."id" FROM "DatasetItem" i WHERE i."datasetId" = ${experiment.datasetId} AND i."id" = ANY(${itemIds}::text[])`);
    const noItem = firstMissing(itemIds, new Set(items.map((i) => i.id)));
    if (noItem >= 0) throw new AppError('NOT_FOUND', `runs[${noItem}].itemId: item "${itemIds[noItem]}" not found in dataset "${experiment.dataset}"`);
    const traceIds = runs.map((r) => r.traceId);
    // FOR KEY SHARE: a trace deleted meanwhile waits for this link (and then takes it with it).
    const traces = await tx.query<{ id: string }>(sql`SELECT t."id" FROM "Trace" t WHERE t."id" = ANY(${traceIds}::text[]) FOR KEY SHARE`);
    const noTrace = firstMissing(traceIds, new Set(traces.map((t) => t.id)));
    if (noTrace >= 0) throw new AppError('NOT_FOUND', `runs[${noTrace}].traceId: trace "${traceIds[noTrace]}" not found`);
    await storeRunLinks(tx, runs.map((r) => ({ ...r, experimentId })));
    return runs.length;
  });
}
