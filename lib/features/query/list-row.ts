// One row of the trace list, as GET /api/traces returns it in `traces`: the columns the
// list reads and the mapping to the API's record. Shared by the list, search and the
// export, so an exported row is exactly a list row.
import { type Trace } from '@/lib/generated/prisma/client';
import { toTraceRecord } from '@/lib/features/traces/shared';
import type { TraceListItem } from '@/lib/features/traces/shared';
import { TRACE_API_FIELDS } from '@/lib/db/columns';
import { raw } from '@/lib/db/sql';

/** The list never loads children or payloads: the row and its stored child counts. */
export const LIST_COLUMN_NAMES = [...TRACE_API_FIELDS, 'decisionPointCount', 'spanCount', 'eventCount'] as const;

/** The list's columns of "Trace" aliased `t`. */
export const LIST_COLUMNS = raw(LIST_COLUMN_NAMES.map((c) => `t."${c}"`).join(', '));

export type ListRow = Pick<Trace, (typeof LIST_COLUMN_NAMES)[number]>;

export function toListItem(row: ListRow): TraceListItem {
  return {
    ...toTraceRecord(row),
    _count: { decisionPoints: row.decisionPointCount, spans: row.spanCount, events: row.eventCount },
  };
}
