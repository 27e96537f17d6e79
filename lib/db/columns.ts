// The column registry: each stored table's columns that the application writes, with
// their SQL types, and its jsonb payload columns. Inserts, upserts, json_to_recordset
// record definitions and select lists are derived from here, so a new column is one line
// (plus the migration that adds it, and the feature code that fills it).
import { raw, type Sql } from './sql';

export type Column = readonly [name: string, sqlType: string];

/** A field of a row as the API shows it: its column, and whether it is a date (ISO 8601 text). */
export type ApiField = string | readonly [name: string, kind: 'date'];

export interface TableColumns {
  readonly table: string;
  /** Columns written from values the application computed (ids, names, enums, numbers, dates). */
  readonly columns: readonly Column[];
  /** jsonb columns holding any JSON a client sent (payloads, metadata). */
  readonly payloads: readonly string[];
}

// Every stored column but the database-generated ones ("createdAt").
export const SPAN_TABLE = {
  table: 'Span',
  columns: [
    ['traceId', 'text'],
    ['id', 'text'],
    ['parentSpanId', 'text'],
    ['name', 'text'],
    ['type', '"SpanType"'],
    ['tokenCount', 'float8'],
    ['costUsd', 'float8'],
    ['costSource', '"CostSource"'],
    ['pricedModel', 'text'],
    ['durationMs', 'float8'],
    ['status', '"RunStatus"'],
    ['statusMessage', 'text'],
    ['startedAt', 'timestamptz'],
    ['endedAt', 'timestamptz'],
  ],
  payloads: ['input', 'output', 'metadata'],
  // A span as the API shows it (GET /api/traces/{id}, children, SOAP), in this order.
  api: [
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
  ],
} as const satisfies TableColumns & { api: readonly ApiField[] };

export const DECISION_POINT_TABLE = {
  table: 'DecisionPoint',
  columns: [
    ['traceId', 'text'],
    ['id', 'text'],
    ['type', '"DecisionType"'],
    ['reasoning', 'text'],
    ['durationMs', 'float8'],
    ['costUsd', 'float8'],
    ['parentSpanId', 'text'],
    ['timestamp', 'timestamptz'],
  ],
  payloads: ['chosen', 'alternatives', 'contextSnapshot'],
  api: ['id', 'traceId', 'type', 'reasoning', 'chosen', 'alternatives', 'contextSnapshot', 'durationMs', 'costUsd', 'parentSpanId', ['timestamp', 'date'], 'inferred'],
} as const satisfies TableColumns & { api: readonly ApiField[] };

export const EVENT_TABLE = {
  table: 'Event',
  columns: [
    ['traceId', 'text'],
    ['id', 'text'],
    ['spanId', 'text'],
    ['type', '"EventType"'],
    ['name', 'text'],
    ['timestamp', 'timestamptz'],
  ],
  payloads: ['metadata'],
  api: ['id', 'traceId', 'spanId', 'type', 'name', 'metadata', ['timestamp', 'date']],
} as const satisfies TableColumns & { api: readonly ApiField[] };

/** A trace's fields as the API shows them, in order: the detail's, the list's and the CSV's. */
export const TRACE_API_FIELDS = [
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
  'startedAt',
  'endedAt',
  'createdAt',
] as const;
const TRACE_DATE_FIELDS: ReadonlySet<string> = new Set(['startedAt', 'endedAt', 'createdAt']);

export const TRACE_TABLE = {
  table: 'Trace',
  columns: [
    ['id', 'text'],
    ['name', 'text'],
    ['sessionId', 'text'],
    ['userId', 'text'],
    ['status', '"RunStatus"'],
    ['tags', 'text[]'],
    ['totalCost', 'float8'],
    ['totalTokens', 'float8'],
    ['totalDuration', 'float8'],
    ['unpricedCalls', 'int4'],
    ['startedAt', 'timestamptz'],
    ['endedAt', 'timestamptz'],
    ['decisionPointCount', 'int4'],
    ['spanCount', 'int4'],
    ['eventCount', 'int4'],
  ],
  payloads: ['metadata'],
  // A trace as the API shows it (its fields before the children), in this order.
  api: TRACE_API_FIELDS.map((name): ApiField => (TRACE_DATE_FIELDS.has(name) ? [name, 'date'] : name)),
} as const satisfies TableColumns & { api: readonly ApiField[] };

/** A row's column values by name, as a table's registry spells them. */
export type RowOf<T extends TableColumns> = { [K in T['columns'][number][0]]: unknown };

/** `"a", "b", ...`: the columns (and then the payloads) as an INSERT names them. */
export function columnNames(spec: TableColumns, { payloads = true } = {}): string {
  return [...spec.columns.map(([name]) => name), ...(payloads ? spec.payloads : [])].map((name) => `"${name}"`).join(', ');
}

/** `alias."a", alias."b", ...`: the columns read from a record or a table alias. */
export function columnValues(spec: TableColumns, alias: string): string {
  return spec.columns.map(([name]) => `${alias}."${name}"`).join(', ');
}

/** `"a" text, "b" float8, ...`: a json_to_recordset record definition, after any extra columns. */
export function recordDefinition(spec: TableColumns, extra: readonly Column[] = []): string {
  return [...extra, ...spec.columns].map(([name, type]) => `"${name}" ${type}`).join(', ');
}

/** The column list as a fragment, for statements built with lib/db/sql. */
export function columnList(spec: TableColumns, alias?: string): Sql {
  return raw(alias ? columnValues(spec, alias) : columnNames(spec, { payloads: false }));
}

// The same ISO 8601 form as Date.prototype.toISOString: UTC, milliseconds, 'Z'.
export const isoSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** json_build_object of a row (`alias`) over the given fields, in the order the API shows them. */
export function jsonObjectSql(alias: string, fields: readonly ApiField[]): string {
  const pairs = fields.map((field) => {
    const [name, kind] = typeof field === 'string' ? [field, undefined] : field;
    const column = `${alias}."${name}"`;
    return `'${name}', ${kind === 'date' ? isoSql(column) : column}`;
  });
  return `json_build_object(${pairs.join(', ')})`;
}
