// GET /api/traces/{id}/outline: one trace as the viewer first needs it. The trace and its
// decision points and events as on the detail route, and its spans without their
// payloads (input, output, metadata): ids, names, types, status, times, tokens, cost and
// the model. A span's payloads are read when it is opened (children.ts, getSpanOrThrow),
// so a 10,000-span trace is ~2.5 MB of outline instead of its full JSON.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { attachScores, scoresOfTraces } from '@/lib/features/scores';
import { SPAN_CALL_ID_KEYS } from './decision-outcome';
import { isoSql } from '@/lib/db/columns';
import { DECISION_JSON, EVENT_JSON, TRACE_JSON, childArray, traceJsonText } from './detail';
import { MODEL_KEYS } from './span-model';
import { OUTLINE_FORMATS, outlineFromColumns, SPAN_COLUMNS, spansFromColumns, spansToColumns, type ColumnarOutline, type OutlineFormat } from './outline-columns';
import type { TraceOutline } from './types';
import { isValidId } from '@/lib/features/ingest/shared';
import { raw, sql, type Sql } from '@/lib/db/sql';

/** Characters of a span's status message kept in the outline; the span's own record has all of it. */
export const OUTLINE_STATUS_MESSAGE_CHARS = 300;

// spanModelOf (span-model.ts) in SQL: the first metadata key naming a model as a
// non-blank string, else the model the cost was priced as.
const MODEL_SQL = `coalesce(${MODEL_KEYS.map((key) => `nullif(btrim(${metadataString(key)}, E' \\t\\n\\r'), '')`).join(', ')}, c."pricedModel")`;
// spanCallId (decision-outcome.ts) in SQL: the tool call a tool span ran, so a tool
// selection finds its span without the span's metadata.
const CALL_ID_SQL = `CASE WHEN c."type" = 'TOOL_CALL' THEN coalesce(${SPAN_CALL_ID_KEYS.map((key) => `nullif(${metadataString(key)}, '')`).join(', ')}) END`;

/** A metadata key's value when it is a string, else NULL. Keys are constants of this codebase. */
function metadataString(key: string): string {
  if (!/^[A-Za-z_.]+$/.test(key)) throw new Error(`metadata key ${key} cannot be written into SQL as is`);
  return `CASE WHEN jsonb_typeof(c."metadata"->'${key}') = 'string' THEN c."metadata"->>'${key}' END`;
}

// Each outline field of a span in SQL, in SPAN_COLUMNS' order.
const SPAN_FIELD_SQL: Record<(typeof SPAN_COLUMNS)[number], string> = {
  id: 'c."id"',
  parentSpanId: 'c."parentSpanId"',
  name: 'c."name"',
  type: 'c."type"',
  tokenCount: 'c."tokenCount"',
  costUsd: 'c."costUsd"',
  costSource: 'c."costSource"',
  pricedModel: 'c."pricedModel"',
  durationMs: 'c."durationMs"',
  status: 'c."status"',
  statusMessage: `left(c."statusMessage", ${OUTLINE_STATUS_MESSAGE_CHARS})`,
  startedAt: isoSql('c."startedAt"'),
  endedAt: isoSql('c."endedAt"'),
  model: MODEL_SQL,
  toolCallId: CALL_ID_SQL,
};

export const SPAN_SUMMARY_JSON = `json_build_object(${SPAN_COLUMNS.map((f) => `'${f}', ${SPAN_FIELD_SQL[f]}`).join(', ')})`;
/** A span as an array of its values (the columnar form); PostgreSQL builds it about twice as fast as the object. */
const SPAN_ROW_JSON = `json_build_array(${SPAN_COLUMNS.map((f) => SPAN_FIELD_SQL[f]).join(', ')})`;

// Children come only for a trace of up to `maxSpans` spans (null: any number); a larger
// one's row alone tells its name and span count.
const TRACE_JSON_SQL = raw(TRACE_JSON);
const DECISION_ARRAY_SQL = raw(childArray('DecisionPoint', DECISION_JSON, 'timestamp'));
const EVENT_ARRAY_SQL = raw(childArray('Event', EVENT_JSON, 'timestamp'));
const SPAN_ARRAY_SQL: Record<OutlineFormat, Sql> = {
  objects: raw(childArray('Span', SPAN_SUMMARY_JSON, 'startedAt')),
  columns: raw(childArray('Span', SPAN_ROW_JSON, 'startedAt')),
};
const outlineSql = (format: OutlineFormat, id: string, maxSpans: number | null) => sql`
SELECT ${TRACE_JSON_SQL}::text AS trace,
       t."spanCount" AS "spanCount",
       CASE WHEN ${maxSpans}::int IS NULL OR t."spanCount" <= ${maxSpans}::int THEN ${DECISION_ARRAY_SQL} END AS "decisionPoints",
       CASE WHEN ${maxSpans}::int IS NULL OR t."spanCount" <= ${maxSpans}::int THEN ${EVENT_ARRAY_SQL} END AS events,
       CASE WHEN ${maxSpans}::int IS NULL OR t."spanCount" <= ${maxSpans}::int THEN ${SPAN_ARRAY_SQL[format]} END AS spans
  FROM "Trace" t WHERE t."id" = ${id}`;

export type OutlineJson =
  | { json: string; spanCount: number; complete: true }
  /** More spans than asked for: `json` is the trace's own fields only (a TraceRecord). */
  | { json: string; spanCount: number; complete: false };

/** The `format` query parameter: absent is the object form. */
export function outlineFormatOrThrow(value: string | null): OutlineFormat {
  if (value === null || value === '') return 'objects';
  if ((OUTLINE_FORMATS as readonly string[]).includes(value)) return value as OutlineFormat;
  throw new AppError('VALIDATION', `Invalid format parameter: ${OUTLINE_FORMATS.join(' or ')}`);
}

/**
 * The outline as JSON text (built by the database, sent as it is), with its span count;
 * with `maxSpans`, a larger trace's own fields only. `format: 'columns'` gives the spans
 * as `spanColumns` and `spanRows` (outline-columns.ts) instead of `spans`.
 */
export async function getTraceOutlineJsonOrThrow(
  ctx: ServiceContext,
  id: string,
  options: { maxSpans?: number; format?: OutlineFormat } = {},
): Promise<OutlineJson> {
  requireScope(ctx, 'read');
  if (!isValidId(id)) throw new AppError('VALIDATION', 'Invalid trace ID');
  const format = options.format ?? 'objects';
  const rows = await ctx.db.sql.query<{ trace: string; decisionPoints: string | null; events: string | null; spans: string | null; spanCount: number }>(
    outlineSql(format, id, options.maxSpans ?? null),
  );
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'Trace not found');
  const { trace, decisionPoints, spans, events, spanCount } = rows[0];
  if (spans === null || decisionPoints === null || events === null) return { json: trace, spanCount, complete: false };
  let json =
    format === 'columns'
      ? `${trace.slice(0, -1)}, "decisionPoints": ${decisionPoints}, "spanColumns": ${JSON.stringify(SPAN_COLUMNS)}, "spanRows": ${spans}, "events": ${events}}`
      : traceJsonText(trace, decisionPoints, spans, events);
  // Scores ride along as on the detail route; most traces have none and are sent unparsed.
  const scores = (await scoresOfTraces(ctx.db.sql, [id])).get(id);
  if (scores) {
    if (format === 'columns') {
      const { spanColumns, spanRows, ...rest } = JSON.parse(json) as ColumnarOutline;
      const parsed: TraceOutline = { ...rest, spans: spansFromColumns(spanColumns, spanRows) };
      attachScores(parsed, scores);
      const { spans: scored, ...fields } = parsed;
      json = JSON.stringify({ ...fields, ...spansToColumns(scored) });
    } else {
      const parsed = JSON.parse(json) as TraceOutline;
      attachScores(parsed, scores);
      json = JSON.stringify(parsed);
    }
  }
  return { json, spanCount, complete: true };
}

/** The outline parsed; `format: 'columns'` reads the columnar form (built about twice as fast for a big trace) and gives the same outline. */
export async function getTraceOutlineOrThrow(ctx: ServiceContext, id: string, format: OutlineFormat = 'objects'): Promise<TraceOutline> {
  const { json } = await getTraceOutlineJsonOrThrow(ctx, id, { format });
  return format === 'columns' ? outlineFromColumns(JSON.parse(json) as ColumnarOutline) : (JSON.parse(json) as TraceOutline);
}
