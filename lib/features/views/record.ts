// A stored view as the API answers it (the owner stays on the server).
import { raw } from '@/lib/db/sql';
import type { SavedView } from './types';

/** The columns of a stored view the API shows, dates as Date.prototype.toISOString writes them. */
export const VIEW_COLUMNS = raw(`"id", "name", "query", coalesce("columns", '{}') AS "columns",
  to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  to_char("updatedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"`);

export function toSavedView(row: SavedView): SavedView {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    columns: row.columns,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
