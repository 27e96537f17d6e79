// GET /api/traces/{id}: one trace with every child, in the spec's order.
//
// PostgreSQL builds the response JSON itself, in one round trip on the raw driver, and
// the route sends that text as it is. Measured here for a 10,000-span trace (16 MB of
// JSON): loading it through Prisma rows and re-serialising took ~250 ms on PostgreSQL
// and ~450-900 ms on PGlite, nearly all of it materialising and re-encoding JSON values
// in Node; the raw driver also skips Prisma's handling of the 16 MB result.
import { AppError } from '@/lib/errors';
import type { SqlExecutor } from '@/lib/storage/sql';
import type { TraceDetail } from './types';
import { isValidId } from './validate';

/** Empty, longer than 256 characters, or holding control characters: not an id we could have stored. */
export function isValidTraceId(id: string): boolean {
  return isValidId(id);
}

// The same ISO 8601 form as Date.prototype.toISOString: UTC, milliseconds, 'Z'.
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** json_build_object over the given fields, in the order the API shows them. */
function jsonObject(alias: string, fields: Array<string | [string, 'date']>): string {
  const pairs = fields.map((field) => {
    const [name, kind] = typeof field === 'string' ? [field, undefined] : field;
    const column = `${alias}."${name}"`;
    return `'${name}', ${kind === 'date' ? iso(column) : column}`;
  });
  return `json_build_object(${pairs.join(', ')})`;
}

const TRACE_JSON = jsonObject('t', [
  'id',
  'name',
  'sessionId',
  'status',
  'tags',
  'metadata',
  'totalCost',
  'totalTokens',
  'totalDuration',
  ['startedAt', 'date'],
  ['endedAt', 'date'],
  ['createdAt', 'date'],
]);
const DECISION_JSON = jsonObject('c', [
  'id',
  'traceId',
  'type',
  'reasoning',
  'chosen',
  'alternatives',
  'contextSnapshot',
  'durationMs',
  'costUsd',
  'parentSpanId',
  ['timestamp', 'date'],
]);
const SPAN_JSON = jsonObject('c', [
  'id',
  'traceId',
  'parentSpanId',
  'name',
  'type',
  'input',
  'output',
  'tokenCount',
  'costUsd',
  'durationMs',
  'status',
  'statusMessage',
  ['startedAt', 'date'],
  ['endedAt', 'date'],
  'metadata',
]);
const EVENT_JSON = jsonObject('c', ['id', 'traceId', 'spanId', 'type', 'name', 'metadata', ['timestamp', 'date']]);

const children = (table: string, json: string, orderBy: string) =>
  `(SELECT coalesce(json_agg(${json} ORDER BY c."${orderBy}", c."id"), '[]') FROM "${table}" c WHERE c."traceId" = t."id")::text`;

export const DETAIL_SQL = `
SELECT ${TRACE_JSON}::text AS trace,
       ${children('DecisionPoint', DECISION_JSON, 'timestamp')} AS "decisionPoints",
       ${children('Span', SPAN_JSON, 'startedAt')} AS spans,
       ${children('Event', EVENT_JSON, 'timestamp')} AS events
  FROM "Trace" t WHERE t."id" = $1`;

/** The trace as the JSON text of a TraceDetail, built by the database. */
export async function getTraceJsonOrThrow(sql: SqlExecutor, id: string): Promise<string> {
  if (!isValidTraceId(id)) throw new AppError('VALIDATION', 'Invalid trace ID');
  const rows = await sql.query<{ trace: string; decisionPoints: string; spans: string; events: string }>(DETAIL_SQL, [
    id,
  ]);
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'Trace not found');
  const { trace, decisionPoints, spans, events } = rows[0];
  // trace is a JSON object text: append the children before its closing brace.
  return `${trace.slice(0, -1)}, "decisionPoints": ${decisionPoints}, "spans": ${spans}, "events": ${events}}`;
}

export async function getTraceOrThrow(sql: SqlExecutor, id: string): Promise<TraceDetail> {
  return JSON.parse(await getTraceJsonOrThrow(sql, id)) as TraceDetail;
}
