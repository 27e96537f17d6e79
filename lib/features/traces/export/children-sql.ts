// Full traces for the export, many per statement: the same JSON fragments as
// GET /api/traces/{id} (lib/features/traces/detail.ts), so a line of `include=children` is that
// route's `trace`, numbers and all, built by the database in one round trip per run.
import 'server-only';
import { attachScores, scoresOfTraces } from '@/lib/features/scores';
import type { SqlExecutor } from '@/lib/db/executor';
import { raw, sql } from '@/lib/db/sql';
import type { TraceDetail } from '@/lib/features/traces/types';
import { childArray, DECISION_JSON, EVENT_JSON, SPAN_JSON, TRACE_JSON, traceJsonText } from '@/lib/features/traces/detail';

// The columns, built once; the ids are the statement's one parameter.
const CHILDREN_COLUMNS = raw(`t."id" AS id,
       ${TRACE_JSON}::text AS trace,
       ${childArray('DecisionPoint', DECISION_JSON, 'timestamp')} AS "decisionPoints",
       ${childArray('Span', SPAN_JSON, 'startedAt')} AS spans,
       ${childArray('Event', EVENT_JSON, 'timestamp')} AS events`);
const childrenSql = (ids: string[]) => sql`
SELECT ${CHILDREN_COLUMNS}
  FROM "Trace" t WHERE t."id" = ANY(${ids}::text[])`;

/** Trace id -> the trace's JSON text on one line; ids no longer stored are absent. */
export async function childrenJson(exec: SqlExecutor, ids: string[]): Promise<Map<string, string>> {
  const [rows, scores] = await Promise.all([
    exec.query<{ id: string; trace: string; decisionPoints: string; spans: string; events: string }>(childrenSql(ids)),
    scoresOfTraces(exec, ids),
  ]);
  return new Map(
    rows.map((r) => {
      const text = oneLine(traceJsonText(r.trace, r.decisionPoints, r.spans, r.events));
      const of = scores.get(r.id);
      if (!of) return [r.id, text];
      // As the detail: scores on the levels that have any (the text is parsed only then).
      const trace = JSON.parse(text) as TraceDetail;
      attachScores(trace, of);
      return [r.id, JSON.stringify(trace)];
    }),
  );
}

/**
 * The database's JSON text on one line. Outside strings json_agg puts newlines between
 * elements; inside strings PostgreSQL escapes every control character, so a raw newline
 * is always whitespace and dropping it changes no value (numbers keep their digits).
 */
export function oneLine(json: string): string {
  return json.includes('\n') ? json.replace(/\n/g, '') : json;
}
