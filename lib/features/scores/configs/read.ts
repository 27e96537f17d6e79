// The configs of given score names, as every write checks its scores against them.
import type { SqlExecutor } from '@/lib/db/executor';
import { raw, sql } from '@/lib/db/sql';
import type { ScoreConfigRecord } from '@/lib/features/scores/types';

export const CONFIG_COLUMNS = `"id", "name", "dataType", coalesce("categories", '{}') AS "categories", "min", "max", "description",
  to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  to_char("updatedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"`;

/** The configs of these names, by name (names without one are absent). */
export async function readConfigsByName(exec: SqlExecutor, names: readonly string[]): Promise<Map<string, ScoreConfigRecord>> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return new Map();
  const rows = await exec.query<ScoreConfigRecord>(sql`SELECT ${raw(CONFIG_COLUMNS)} FROM "ScoreConfig" WHERE "name" = ANY (${unique}::text[])`);
  return new Map(rows.map((r) => [r.name, r]));
}
