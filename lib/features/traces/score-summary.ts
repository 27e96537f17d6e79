// The list's score columns: per row of a page, its scores (on the trace, its spans and its
// decision points) per name and data type, read for the page's rows only, after the page.
import 'server-only';
import type { SqlExecutor } from '@/lib/db/executor';
import type { TraceScoreSummary } from './types';
import { sql } from '@/lib/db/sql';

/** At most this many score names per row (by name). */
export const SUMMARY_NAMES = 50;
/** A CATEGORICAL name's most frequent values kept per row. */
export const SUMMARY_VALUES = 3;

interface Row {
  traceId: string;
  name: string;
  dataType: TraceScoreSummary['dataType'];
  value: string | null;
  n: number;
  total: number;
  average: number | null;
}

export async function traceScoreSummaries(db: SqlExecutor, ids: string[]): Promise<Map<string, TraceScoreSummary[]>> {
  const out = new Map<string, TraceScoreSummary[]>();
  if (ids.length === 0) return out;
  // One row per (trace, name, data type, category), with the name's count and average over
  // all its values; through the Score (traceId, …) index.
  const rows = await db.query<Row>(sql`
    SELECT "traceId", "name", "dataType"::text AS "dataType", "stringValue" AS value, count(*)::int AS n,
           (sum(count(*)) OVER w)::int AS total,
           CASE WHEN "dataType" = 'CATEGORICAL' THEN NULL ELSE sum(sum("value")) OVER w / sum(count(*)) OVER w END AS average
      FROM "Score" WHERE "traceId" = ANY(${ids})
     GROUP BY "traceId", "name", "dataType", "stringValue"
    WINDOW w AS (PARTITION BY "traceId", "name", "dataType")
     ORDER BY "traceId", "name" COLLATE "C", "dataType", n DESC, "stringValue" COLLATE "C"`);
  for (const row of rows) {
    const list = out.get(row.traceId) ?? [];
    let last = list[list.length - 1];
    if (!last || last.name !== row.name || last.dataType !== row.dataType) {
      if (list.length >= SUMMARY_NAMES) continue;
      last = { name: row.name, dataType: row.dataType, count: row.total, average: row.average === null ? null : Number(row.average), values: [] };
      list.push(last);
      out.set(row.traceId, list);
    }
    if (row.value !== null && last.values.length < SUMMARY_VALUES) last.values.push({ value: row.value, count: row.n });
  }
  return out;
}
