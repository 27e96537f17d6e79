// Export of every trace matching the list's filters, as NDJSON or CSV: the parameters,
// and the file's text produced batch by batch (lib/transports/http/stream.ts sends it as it comes).
import 'server-only';
import { stringify } from 'csv-stringify/sync';
import { everyScore, scoresOfTraces } from '@/lib/features/scores';
import type { ScoreRecord } from '@/lib/features/scores/shared';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { parseTraceFilters, TRACE_FILTER_NAMES } from '@/lib/features/query';
import type { TraceFilterParams, TraceListItem } from '@/lib/features/traces/types';
import { detailBatches, listRowBatches, type BatchOptions } from './batches';
import { TRACE_API_FIELDS } from '@/lib/db/columns';

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportParams {
  format: ExportFormat;
  /** Each NDJSON line is the full trace (GET /api/traces/{id}'s `trace`) instead of its list row. */
  children: boolean;
  filters: TraceFilterParams;
}

function invalid(name: string, why: string): AppError {
  return new AppError('VALIDATION', `Invalid ${name} parameter: ${why}`);
}

/**
 * `format` (default ndjson; an empty value is the default, as an empty filter is no
 * filter), `include=children` (NDJSON only), then every filter of the list, read by the
 * list's own parser so the same values are refused with the same messages. The list's
 * page, limit and sort parameters are ignored: an export holds every match, newest first.
 */
export function parseExportParams(query: URLSearchParams): ExportParams {
  const formatRaw = query.get('format') || 'ndjson';
  if (!(EXPORT_FORMATS as readonly string[]).includes(formatRaw)) throw invalid('format', `must be one of ${EXPORT_FORMATS.join(', ')}`);
  const format = formatRaw as ExportFormat;
  const include = query.get('include');
  if (include && include !== 'children') throw invalid('include', 'must be children');
  const children = include === 'children';
  if (children && format !== 'ndjson') throw invalid('include', 'children is only available with format=ndjson');
  return { format, children, filters: parseTraceFilters(query, TRACE_FILTER_NAMES) };
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
};

/** `crossroads-traces-20260102T030405Z.csv`; `-with-children` for full traces. ASCII only, safe in any header. */
export function exportFilename(params: ExportParams, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/\.\d{3}/, '').replace(/[-:]/g, '');
  return `crossroads-traces${params.children ? '-with-children' : ''}-${stamp}.${params.format}`;
}

/**
 * The CSV's columns: the list row's fields in the API's order. Nested values (tags,
 * metadata, _count) are their JSON text; null is an empty cell.
 */
export const CSV_COLUMNS = [...TRACE_API_FIELDS, '_count'] as const satisfies readonly (keyof TraceListItem)[];
// A field added to the list row but not to the CSV fails to compile here. `matches`
// (where a `q` search found its text) belongs to a page of search results, not to the
// trace: the export leaves it out, and the previews and models, which the list reads from
// spans for the page it shows (an export streams trace rows without touching spans), and
// the score summary of the list's score columns (the CSV's `scores` column has every score).
const allColumns: Record<
  Exclude<keyof TraceListItem, (typeof CSV_COLUMNS)[number] | 'matches' | 'inputPreview' | 'outputPreview' | 'models' | 'scoreSummary'>,
  never
> = {};
void allColumns;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

// RFC 4180: CRLF between records, a field quoted when it holds a comma, a quote or a line
// break, quotes doubled. No byte-order mark: the file is UTF-8, and parsers read it as is.
const CSV_OPTIONS = { record_delimiter: 'windows', eof: true } as const;

/** The CSV's header: the list row's columns, then `scores` (every score of the trace, its spans and decisions, as JSON). */
export const CSV_HEADER = [...CSV_COLUMNS, 'scores'] as const;

export function csvHeader(): string {
  return stringify([[...CSV_HEADER]], CSV_OPTIONS);
}

export function csvRows(rows: TraceListItem[], scores: ReadonlyMap<string, ScoreRecord[]> = new Map()): string {
  return stringify(
    rows.map((row) => [...CSV_COLUMNS.map((column) => csvCell(row[column])), JSON.stringify(scores.get(row.id) ?? [])]),
    CSV_OPTIONS,
  );
}

export function ndjsonLines(values: unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}

/**
 * The export file's text, one piece per batch (the CSV header first, even with no
 * match; an empty NDJSON export is an empty body). Pull-driven: the next statement runs
 * when the consumer asks for the next piece, so a slow client slows the queries down
 * instead of filling memory.
 */
export function exportTraces(ctx: ServiceContext, params: ExportParams, options: BatchOptions = {}): AsyncGenerator<string> {
  requireScope(ctx, 'read');
  return exportPieces(ctx, params, options);
}

async function* exportPieces(ctx: ServiceContext, params: ExportParams, options: BatchOptions): AsyncGenerator<string> {
  if (params.format === 'csv') {
    // The header goes out with the first batch: until that statement has succeeded the
    // answer can still be an error status (lib/transports/http/stream.ts).
    let header = csvHeader();
    for await (const rows of listRowBatches(ctx, params.filters, options)) {
      const scores = await scoresOfTraces(ctx.db.sql, rows.map((r) => r.id));
      yield header + csvRows(rows, new Map([...scores].map(([id, of]) => [id, everyScore(of)])));
      header = '';
    }
    if (header) yield header;
  } else if (params.children) {
    // The database's JSON text, sent as it is (see lib/features/traces/detail.ts).
    for await (const texts of detailBatches(ctx, params.filters, options)) yield texts.map((t) => `${t}\n`).join('');
  } else {
    for await (const rows of listRowBatches(ctx, params.filters, options)) yield ndjsonLines(rows);
  }
}
