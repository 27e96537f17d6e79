// The outline's columnar form (GET /api/traces/{id}/outline?format=columns): the spans as
// one list of column names and one array of values per span, instead of an object per
// span repeating 15 keys. For 10,000 spans that is less than half the JSON to build, send
// and parse. Shared by the server (which writes it) and the browser (which reads it back
// into span objects); no server module is imported here.
import type { ScoreRecord } from '@/lib/features/scores/shared';
import type { SpanSummary, TraceOutline } from './types';

/** The span fields of the outline, in the order of the columnar form's values. */
export const SPAN_COLUMNS = [
  'id',
  'parentSpanId',
  'name',
  'type',
  'tokenCount',
  'costUsd',
  'costSource',
  'pricedModel',
  'durationMs',
  'status',
  'statusMessage',
  'startedAt',
  'endedAt',
  'model',
  'toolCallId',
] as const satisfies ReadonlyArray<keyof SpanSummary>;

/** A span's scores ride in this extra last column when any span has some. */
export const SCORES_COLUMN = 'scores';

export const OUTLINE_FORMATS = ['objects', 'columns'] as const;
export type OutlineFormat = (typeof OUTLINE_FORMATS)[number];

/** The outline with its spans as columns: every other field as in the object form. */
export interface ColumnarOutline extends Omit<TraceOutline, 'spans'> {
  spanColumns: string[];
  spanRows: unknown[][];
}

/** Span objects from the columnar form; a null score column leaves `scores` out, as the object form does. */
export function spansFromColumns(columns: readonly string[], rows: readonly unknown[][]): SpanSummary[] {
  const spans: SpanSummary[] = new Array(rows.length);
  const n = columns.length;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const span: Record<string, unknown> = {};
    for (let c = 0; c < n; c++) {
      const value = row[c];
      if (value === null && columns[c] === SCORES_COLUMN) continue;
      span[columns[c]] = value;
    }
    spans[r] = span as unknown as SpanSummary;
  }
  return spans;
}

/** The columnar form of span objects (the score column only when a span has scores). */
export function spansToColumns(spans: readonly SpanSummary[]): { spanColumns: string[]; spanRows: unknown[][] } {
  const scored = spans.some((s) => s.scores !== undefined);
  const spanColumns: string[] = scored ? [...SPAN_COLUMNS, SCORES_COLUMN] : [...SPAN_COLUMNS];
  const spanRows = spans.map((span) => {
    const row: unknown[] = SPAN_COLUMNS.map((c) => span[c] ?? null);
    if (scored) row.push((span.scores as ScoreRecord[] | undefined) ?? null);
    return row;
  });
  return { spanColumns, spanRows };
}

/** The outline as the viewer uses it, from its columnar form. */
export function outlineFromColumns(wire: ColumnarOutline): TraceOutline {
  const { spanColumns, spanRows, ...rest } = wire;
  return { ...rest, spans: spansFromColumns(spanColumns, spanRows) };
}
