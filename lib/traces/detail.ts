// GET /api/traces/{id}: one trace with every child, in the spec's order.
//
// PostgreSQL builds the response JSON itself, in one round trip on the raw driver, and
// the route sends that text as it is. Measured here for a 10,000-span trace (16 MB of
// JSON): loading it through Prisma rows and re-serialising took ~250 ms on PostgreSQL
// and ~450-900 ms on PGlite, nearly all of it materialising and re-encoding JSON values
// in Node; the raw driver also skips Prisma's handling of the 16 MB result.
import 'server-only';
import { processBudget } from '@/lib/budget';
import { getLimits } from '@/lib/env';
import { AppError } from '@/lib/errors';
import type { SqlExecutor } from '@/lib/storage/sql';
import { attachScores, scoresOfTraces } from '@/lib/scores/of-trace';
import type { TraceDetail } from './types';
import { isValidId } from './validate';
import { requireScope, type ServiceContext } from '@/lib/context';
import type { Database } from '@/lib/db';

/** Empty, longer than 256 characters, or holding control characters: not an id we could have stored. */
export function isValidTraceId(id: string): boolean {
  return isValidId(id);
}

// The same ISO 8601 form as Date.prototype.toISOString: UTC, milliseconds, 'Z'.
export const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** json_build_object over the given fields, in the order the API shows them. */
function jsonObject(alias: string, fields: Array<string | [string, 'date']>): string {
  const pairs = fields.map((field) => {
    const [name, kind] = typeof field === 'string' ? [field, undefined] : field;
    const column = `${alias}."${name}"`;
    return `'${name}', ${kind === 'date' ? iso(column) : column}`;
  });
  return `json_build_object(${pairs.join(', ')})`;
}

export const TRACE_JSON = jsonObject('t', [
  'id',
  'name',
  'sessionId',
  'userId',
  'status',
  'tags',
  'metadata',
  'totalCost',
  'totalTokens',
  'totalDuration',
  'unpricedCalls',
  ['startedAt', 'date'],
  ['endedAt', 'date'],
  ['createdAt', 'date'],
]);
export const DECISION_JSON = jsonObject('c', [
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
  'inferred',
]);
export const SPAN_JSON = jsonObject('c', [
  'id',
  'traceId',
  'parentSpanId',
  'name',
  'type',
  'input',
  'output',
  'tokenCount',
  'costUsd',
  'costSource',
  'pricedModel',
  'durationMs',
  'status',
  'statusMessage',
  ['startedAt', 'date'],
  ['endedAt', 'date'],
  'metadata',
]);
export const EVENT_JSON = jsonObject('c', ['id', 'traceId', 'spanId', 'type', 'name', 'metadata', ['timestamp', 'date']]);

/** A JSON array of the trace's children, in the API's order (the aggregate sorts, so the order is guaranteed). */
export const childArray = (table: string, json: string, orderBy: string) =>
  `(SELECT coalesce(json_agg(${json} ORDER BY c."${orderBy}", c."id"), '[]') FROM "${table}" c WHERE c."traceId" = t."id")::text`;

// Spans of a trace of up to $2 spans ($2 NULL: any number) come in the same statement;
// larger ones are left NULL and read by span ranges (see spansInRanges).
const DETAIL_SQL = `
SELECT ${TRACE_JSON}::text AS trace,
       ${childArray('DecisionPoint', DECISION_JSON, 'timestamp')} AS "decisionPoints",
       ${childArray('Event', EVENT_JSON, 'timestamp')} AS events,
       t."spanCount" AS "spanCount",
       CASE WHEN $2::int IS NULL OR t."spanCount" <= $2::int THEN ${childArray('Span', SPAN_JSON, 'startedAt')} END AS spans
  FROM "Trace" t WHERE t."id" = $1`;

// The key of the span at position $2 (0-based) in the API's order.
const SPAN_SPLIT_SQL = `SELECT "startedAt", "id" FROM "Span" WHERE "traceId" = $1 ORDER BY "startedAt", "id" OFFSET $2 LIMIT 1`;
// The spans in [from, to) of the API's order, a bound being (startedAt, id) or NULLs for
// none: how many, and their JSON objects joined by commas.
const SPAN_RANGE_SQL = `
SELECT count(*)::int AS n, coalesce(string_agg(${SPAN_JSON}::text, ',' ORDER BY c."startedAt", c."id"), '') AS spans
  FROM "Span" c
 WHERE c."traceId" = $1
   AND ($2::timestamptz IS NULL OR (c."startedAt", c."id") >= ($2::timestamptz, $3::text))
   AND ($4::timestamptz IS NULL OR (c."startedAt", c."id") < ($4::timestamptz, $5::text))`;

// Most of a large trace's time is PostgreSQL writing the span payloads' jsonb out as
// text, on one core per statement. On PostgreSQL, a trace with more spans than this is
// built as two halves by two statements at once, on two pool connections: measured for
// 10,000 spans here, 134-184 ms instead of 220-257 ms. PGlite has one connection, so
// there every trace is one statement.
const SPANS_IN_ONE_STATEMENT = 2_000;

// At most this many large traces are built at once per process; the others wait their
// turn (503 after ADMISSION_WAIT_MS). Each holds its JSON several times over while it is
// built (the driver's buffers, the text) and takes two pool connections; two builds
// already keep two cores busy, so more only queue inside PostgreSQL while adding memory
// (four clients reading 10,000-span traces took the server to 547 MB).
const LARGE_BUILDS_AT_ONCE = 2;

async function spansInRanges(sql: SqlExecutor, id: string, spanCount: number): Promise<string> {
  type Range = { n: number; spans: string };
  const [split] = await sql.query<{ startedAt: Date; id: string }>(SPAN_SPLIT_SQL, [id, Math.floor(spanCount / 2)]);
  if (split) {
    const halves = await Promise.all([
      sql.query<Range>(SPAN_RANGE_SQL, [id, null, null, split.startedAt, split.id]),
      sql.query<Range>(SPAN_RANGE_SQL, [id, split.startedAt, split.id, null, null]),
    ]);
    const [first, second] = halves.map(([range]) => range);
    // Each half ran in its own snapshot: they add up unless the trace changed meanwhile.
    if (first.n + second.n === spanCount) return `[${[first.spans, second.spans].filter(Boolean).join(',')}]`;
  }
  const [all] = await sql.query<Range>(SPAN_RANGE_SQL, [id, null, null, null, null]);
  return `[${all.spans}]`;
}

/** The trace as the JSON text of a TraceDetail, built by the database. */
export async function getTraceJsonOrThrow(ctx: ServiceContext, id: string): Promise<string> {
  requireScope(ctx, 'read');
  return traceJson(ctx.db, id);
}

async function traceJson(db: Database, id: string): Promise<string> {
  if (!isValidTraceId(id)) throw new AppError('VALIDATION', 'Invalid trace ID');
  const oneStatementUpTo = db.kind === 'postgres' ? SPANS_IN_ONE_STATEMENT : null;
  const rows = await db.sql.query<{ trace: string; decisionPoints: string; events: string; spanCount: number; spans: string | null }>(
    DETAIL_SQL,
    [id, oneStatementUpTo],
  );
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'Trace not found');
  const { trace, decisionPoints, events, spanCount } = rows[0];
  let spans = rows[0].spans;
  if (spans === null) {
    const release = await processBudget('large detail builds', LARGE_BUILDS_AT_ONCE).acquire(1, getLimits().admissionWaitMs);
    try {
      spans = await spansInRanges(db.sql, id, spanCount);
    } finally {
      release();
    }
  }
  return withScores(db.sql, id, traceJsonText(trace, decisionPoints, spans, events));
}

/**
 * The trace's JSON with its scores on the trace, spans and decision points that have any.
 * Most traces have none: then the text is sent as built, unparsed.
 */
async function withScores(sql: SqlExecutor, id: string, text: string): Promise<string> {
  const scores = (await scoresOfTraces(sql, [id])).get(id);
  if (!scores) return text;
  const trace = JSON.parse(text) as TraceDetail;
  attachScores(trace, scores);
  return JSON.stringify(trace);
}

/** A TraceDetail's JSON text from the trace object's and its child arrays' (export builds many at once). */
export function traceJsonText(trace: string, decisionPoints: string, spans: string, events: string): string {
  // trace is a JSON object text: append the children before its closing brace.
  return `${trace.slice(0, -1)}, "decisionPoints": ${decisionPoints}, "spans": ${spans}, "events": ${events}}`;
}

export async function getTraceOrThrow(ctx: ServiceContext, id: string): Promise<TraceDetail> {
  return JSON.parse(await getTraceJsonOrThrow(ctx, id)) as TraceDetail;
}

/**
 * The trace a writer has just saved, as stored: SOAP's save answers with the record it
 * wrote, so this needs the ingest scope, not read. Only a save's answer calls it.
 */
export async function getSavedTraceOrThrow(ctx: ServiceContext, id: string): Promise<TraceDetail> {
  requireScope(ctx, 'ingest');
  return JSON.parse(await traceJson(ctx.db, id)) as TraceDetail;
}
