// Turns generated traces into the bytes the bench sends: JSON bodies for POST
// /api/traces, and COPY text / multi-row INSERT parameters for seeding and for the raw
// baseline. Both are built once per template with placeholder trace ids and re-issued
// with fresh ids by splicing, so the bench spends ~1 ms, not ~100 ms, per 100-trace batch
// and leaves the CPU to the server under test.
import { Rng, type GenTrace } from './generate';

export const TABLES = ['Trace', 'DecisionPoint', 'Span', 'Event'] as const;
export type Table = (typeof TABLES)[number];

/** Columns written, in order (createdAt keeps its database default). */
const BASE_COLUMNS: Record<Table, readonly string[]> = {
  Trace: ['id', 'name', 'sessionId', 'status', 'tags', 'metadata', 'totalCost', 'totalTokens', 'totalDuration', 'startedAt', 'endedAt'],
  DecisionPoint: ['traceId', 'id', 'type', 'reasoning', 'chosen', 'alternatives', 'contextSnapshot', 'durationMs', 'costUsd', 'parentSpanId', 'timestamp'],
  Span: ['traceId', 'id', 'parentSpanId', 'name', 'type', 'input', 'output', 'tokenCount', 'costUsd', 'durationMs', 'status', 'statusMessage', 'startedAt', 'endedAt', 'metadata'],
  Event: ['traceId', 'id', 'spanId', 'type', 'name', 'metadata', 'timestamp'],
};

/** Casts for multi-row INSERT parameters sent as text. */
const BASE_CASTS: Record<Table, readonly string[]> = {
  Trace: ['', '', '', '"RunStatus"', 'text[]', 'jsonb', 'float8', 'float8', 'float8', 'timestamptz', 'timestamptz'],
  DecisionPoint: ['', '', '"DecisionType"', '', 'jsonb', 'jsonb', 'jsonb', 'float8', 'float8', '', 'timestamptz'],
  Span: ['', '', '', '', '"SpanType"', 'jsonb', 'jsonb', 'float8', 'float8', 'float8', '"RunStatus"', '', 'timestamptz', 'timestamptz', 'jsonb'],
  Event: ['', '', '', '"EventType"', '', 'jsonb', 'timestamptz'],
};

/** Column types for jsonb_to_recordset: enums arrive as text and are cast on insert. */
const BASE_RECORD_TYPES: Record<Table, readonly string[]> = {
  Trace: ['text', 'text', 'text', 'text', 'text[]', 'jsonb', 'float8', 'float8', 'float8', 'timestamptz', 'timestamptz'],
  DecisionPoint: ['text', 'text', 'text', 'text', 'jsonb', 'jsonb', 'jsonb', 'float8', 'float8', 'text', 'timestamptz'],
  Span: ['text', 'text', 'text', 'text', 'text', 'jsonb', 'jsonb', 'float8', 'float8', 'float8', 'text', 'text', 'timestamptz', 'timestamptz', 'jsonb'],
  Event: ['text', 'text', 'text', 'text', 'text', 'jsonb', 'timestamptz'],
};

// Since migration 20261121010000_trace_child_counts the trace row also stores its child
// counts (the list reads them). Probed from the database (database.ts), so the bench
// writes exactly what the schema it runs against holds.
const CHILD_COUNT_COLUMNS = ['decisionPointCount', 'spanCount', 'eventCount'];
let childCounts = false;

export function setChildCountColumns(present: boolean): void {
  childCounts = present;
}

export function columnsOf(table: Table): readonly string[] {
  return table === 'Trace' && childCounts ? [...BASE_COLUMNS.Trace, ...CHILD_COUNT_COLUMNS] : BASE_COLUMNS[table];
}

function castsOf(table: Table): readonly string[] {
  return table === 'Trace' && childCounts ? [...BASE_CASTS.Trace, 'int4', 'int4', 'int4'] : BASE_CASTS[table];
}

function recordTypesOf(table: Table): readonly string[] {
  return table === 'Trace' && childCounts ? [...BASE_RECORD_TYPES.Trace, 'int4', 'int4', 'int4'] : BASE_RECORD_TYPES[table];
}

type Cell = string | null;

function json(value: unknown): Cell {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function num(value: number | null | undefined): Cell {
  return value === null || value === undefined ? null : String(value);
}

function pgArray(items: string[]): string {
  return `{${items.map((s) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** Rows of every table for these traces, as text cells (null = SQL NULL). */
export function traceRows(traces: GenTrace[]): Record<Table, Cell[][]> {
  const rows: Record<Table, Cell[][]> = { Trace: [], DecisionPoint: [], Span: [], Event: [] };
  for (const t of traces) {
    rows.Trace.push([
      t.id,
      t.name,
      t.sessionId,
      t.status,
      pgArray(t.tags),
      json(t.metadata),
      num(t.totalCost),
      num(t.totalTokens),
      num(t.totalDuration),
      t.startedAt,
      t.endedAt,
      ...(childCounts ? [String(t.decisionPoints.length), String(t.spans.length), String(t.events.length)] : []),
    ]);
    for (const d of t.decisionPoints) {
      rows.DecisionPoint.push([
        t.id,
        d.id,
        d.type,
        d.reasoning,
        json(d.chosen),
        JSON.stringify(d.alternatives),
        json(d.contextSnapshot),
        num(d.durationMs),
        num(d.costUsd),
        d.parentSpanId,
        d.timestamp,
      ]);
    }
    for (const s of t.spans) {
      rows.Span.push([
        t.id,
        s.id,
        s.parentSpanId,
        s.name,
        s.type,
        json(s.input),
        json(s.output),
        num(s.tokenCount),
        num(s.costUsd),
        num(s.durationMs),
        s.status,
        s.statusMessage,
        s.startedAt,
        s.endedAt,
        json(s.metadata),
      ]);
    }
    for (const e of t.events) {
      rows.Event.push([t.id, e.id, e.spanId, e.type, e.name, json(e.metadata), e.timestamp]);
    }
  }
  return rows;
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** PostgreSQL COPY text format: tab-separated, \N for NULL, backslash escapes. */
export function copyText(rows: Cell[][]): string {
  let out = '';
  for (const row of rows) {
    out +=
      row.map((c) => (c === null ? '\\N' : c.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch]))).join('\t') + '\n';
  }
  return out;
}

export function copySql(table: Table): string {
  return `COPY "${table}" (${columnsOf(table).map((c) => `"${c}"`).join(', ')}) FROM STDIN`;
}

// PostgreSQL's protocol allows 65535 bind parameters per statement.
const MAX_PARAMS = 65_535;

export interface InsertStatement {
  text: string;
  params: Cell[];
}

/** Multi-row INSERT ... VALUES statements for these rows, split under the parameter limit. */
export function insertStatements(table: Table, rows: Cell[][]): InsertStatement[] {
  const cols = columnsOf(table);
  const casts = castsOf(table);
  const perStatement = Math.floor(MAX_PARAMS / cols.length);
  const out: InsertStatement[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const values: string[] = [];
    const params: Cell[] = [];
    for (const row of chunk) {
      values.push(
        `(${row.map((_, i) => `$${params.length + i + 1}${casts[i] ? `::${casts[i]}` : ''}`).join(',')})`,
      );
      params.push(...row);
    }
    out.push({
      text: `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES ${values.join(',')}`,
      params,
    });
  }
  return out;
}

/**
 * One INSERT ... SELECT FROM jsonb_to_recordset($1) per table: the whole table's rows as
 * one JSON parameter. What an app can do through any driver (no COPY needed), so it is
 * the baseline a rewrite of the ingest path could aim at.
 */
export function jsonbStatement(table: Table, rows: Cell[][]): { text: string; param: string } {
  const cols = columnsOf(table);
  const types = recordTypesOf(table);
  const casts = castsOf(table);
  const enumCast = (i: number) => (casts[i].startsWith('"') ? `::${casts[i]}` : '');
  const text =
    `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) ` +
    `SELECT ${cols.map((c, i) => `x."${c}"${enumCast(i)}`).join(', ')} ` +
    `FROM jsonb_to_recordset($1::jsonb) AS x(${cols.map((c, i) => `"${c}" ${types[i]}`).join(', ')})`;
  const parts = rows.map(
    (row) =>
      `{${row
        .map((cell, i) => `${JSON.stringify(cols[i])}:${types[i] === 'jsonb' ? (cell ?? 'null') : JSON.stringify(cell)}`)
        .join(',')}}`,
  );
  return { text, param: `[${parts.join(',')}]` };
}

// ---------- templates with placeholder trace ids ----------

const PLACEHOLDER_RE = /@@T(\d{6})@+/g;

/** A 32-char placeholder for the k-th trace of a template; same length as a real id. */
export function placeholder(k: number): string {
  return `@@T${String(k).padStart(6, '0')}`.padEnd(32, '@');
}

/** A text with placeholder ids, split once; render() splices fresh ids in. */
export class Spliced {
  private readonly parts: Buffer[];
  private readonly slots: number[];
  readonly bytes: number;

  constructor(text: string) {
    this.parts = [];
    this.slots = [];
    let last = 0;
    for (const m of text.matchAll(PLACEHOLDER_RE)) {
      this.parts.push(Buffer.from(text.slice(last, m.index)));
      this.slots.push(Number(m[1]));
      last = m.index! + m[0].length;
    }
    this.parts.push(Buffer.from(text.slice(last)));
    this.bytes = Buffer.byteLength(text);
  }

  render(ids: readonly string[]): Buffer {
    const pieces: Buffer[] = [];
    for (let i = 0; i < this.slots.length; i++) {
      pieces.push(this.parts[i], Buffer.from(ids[this.slots[i]], 'latin1'));
    }
    pieces.push(this.parts[this.parts.length - 1]);
    return Buffer.concat(pieces, this.bytes);
  }
}

/** Parameters of a multi-row INSERT with the trace-id cells marked for replacement. */
export class SplicedParams {
  private readonly params: Cell[];
  private readonly slots: [position: number, trace: number][] = [];

  constructor(params: Cell[]) {
    this.params = params;
    params.forEach((p, i) => {
      const m = p === null ? null : /^@@T(\d{6})@+$/.exec(p);
      if (m) this.slots.push([i, Number(m[1])]);
    });
  }

  render(ids: readonly string[]): Cell[] {
    const out = this.params.slice();
    for (const [pos, k] of this.slots) out[pos] = ids[k];
    return out;
  }
}

/** A batch of traces ready to be sent many times, each time under fresh trace ids. */
export interface BatchTemplate {
  traces: number;
  records: number;
  body: Spliced;
  copy: Record<Table, Spliced>;
  inserts: Record<Table, { text: string; params: SplicedParams }[]>;
  jsonb: Record<Table, { text: string; param: Spliced }>;
}

export function buildTemplate(traces: GenTrace[]): BatchTemplate {
  const withPlaceholders = traces.map((t, k) => ({ ...t, id: placeholder(k) }));
  const rows = traceRows(withPlaceholders);
  const copy = {} as BatchTemplate['copy'];
  const inserts = {} as BatchTemplate['inserts'];
  const jsonb = {} as BatchTemplate['jsonb'];
  for (const table of TABLES) {
    const j = jsonbStatement(table, rows[table]);
    jsonb[table] = { text: j.text, param: new Spliced(j.param) };
    copy[table] = new Spliced(copyText(rows[table]));
    inserts[table] = insertStatements(table, rows[table]).map((s) => ({ text: s.text, params: new SplicedParams(s.params) }));
  }
  return {
    traces: traces.length,
    records: TABLES.reduce((n, t) => n + rows[t].length, 0),
    body: new Spliced(JSON.stringify({ traces: withPlaceholders })),
    copy,
    inserts,
    jsonb,
  };
}

/** Fresh, unique, random-looking 32-hex trace ids (random ids spread index inserts like real clients do). */
export class IdSource {
  private counter = 0;
  constructor(private readonly seed: number) {}

  next(n: number): string[] {
    return Array.from({ length: n }, () => new Rng(this.seed, 0x1d5, this.counter++).hex(32));
  }
}
