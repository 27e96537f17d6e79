// What a path or fork id of the trace list's filters stands for, in words: a drill-down
// from the paths page names its fork ("after Routing billing") instead of its hash.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';
import { compactPathsOnce } from './compact';
import { PATH_ID_PATTERN, pathId } from './ids';
import type { Step } from './steps';

export interface PathFilterLabels {
  /** The path's steps, e.g. "billing → sql ×2"; "no decisions" for the empty path. */
  path?: string;
  /** The steps before the fork, e.g. "after billing"; "first decision" when none. */
  fork?: string;
}

const EMPTY_PATH = pathId([]);

/** Steps in words: each option label, with its repeats. */
export function stepsInWords(steps: readonly Step[]): string {
  return steps.map((s) => (s.repeats > 1 ? `${s.label} ×${s.repeats}` : s.label)).join(' → ');
}

/**
 * The words for the path and fork ids given (an id no stored path knows gets none, and
 * the chip shows the id). Marked traces are compacted first, as the paths page does, so
 * a path seen there is stored.
 */
export async function pathFilterLabels(ctx: ServiceContext, ids: { path?: string; fork?: string }): Promise<PathFilterLabels> {
  requireScope(ctx, 'read');
  const path = ids.path !== undefined && PATH_ID_PATTERN.test(ids.path) ? ids.path : undefined;
  const fork = ids.fork !== undefined && PATH_ID_PATTERN.test(ids.fork) ? ids.fork : undefined;
  if (path === undefined && fork === undefined) return {};
  const db = ctx.db.sql;
  await compactPathsOnce(db);
  const labels: PathFilterLabels = {};
  if (path === EMPTY_PATH) labels.path = 'no decisions';
  else if (path !== undefined) {
    const [row] = await db.query<{ steps: Step[] }>(sql`SELECT dp."steps" FROM "DecisionPath" dp WHERE dp."id" = ${path}`);
    if (row) labels.path = stepsInWords(row.steps);
  }
  if (fork !== undefined) {
    const [row] = await db.query<{ steps: Step[]; at: number }>(sql`
      SELECT dp."steps", array_position(dp."forkIds", ${fork}::text) - 1 AS at
        FROM "DecisionPath" dp WHERE dp."forkIds" @> ARRAY[${fork}]::text[] LIMIT 1`);
    if (row) labels.fork = row.at === 0 ? 'first decision' : `after ${stepsInWords(row.steps.slice(0, row.at))}`;
  }
  return labels;
}
