// Items from a file: JSON Lines (one item object a line) or CSV with a header row naming
// `input`, `expectedOutput`, `metadata` (and optionally `id`, `expectedDecisions`,
// `sourceTraceId`). A CSV cell is JSON-parsed when it parses ("42", "{...}", "\"text\""),
// else taken as text. csv-parse (the csv project's, maintained) reads the CSV: quoting,
// embedded newlines and a BOM are its business, not ours.
import { parse } from 'csv-parse/sync';
import { AppError } from '@/lib/core/errors';
import { parseJsonBody } from '@/lib/core/validate';
import { DATASET_LIMITS } from './limits';
import type { DatasetItemInput } from './types';
import { parseItem } from './validate';

export type UploadFormat = 'jsonl' | 'csv';

const COLUMNS = ['id', 'input', 'expectedOutput', 'expectedDecisions', 'metadata', 'sourceTraceId'] as const;

function fail(message: string): never {
  throw new AppError('VALIDATION', message);
}

/** A cell as JSON when it parses as JSON, else its text; an empty cell is absent. */
function cell(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function checkCount(n: number): void {
  if (n === 0) fail('The file holds no items');
  if (n > DATASET_LIMITS.itemsPerRequest) fail(`The file holds ${n} items; at most ${DATASET_LIMITS.itemsPerRequest} can be uploaded at once`);
}

function fromJsonl(text: string): DatasetItemInput[] {
  const lines = text.split(/\r?\n/).map((line, i) => ({ line: line.trim(), n: i + 1 })).filter((l) => l.line !== '');
  checkCount(lines.length);
  return lines.map(({ line, n }) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      fail(`line ${n} is not JSON`);
    }
    return parseItem(value, `line ${n}`);
  });
}

function fromCsv(text: string): DatasetItemInput[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: true, bom: true, skip_empty_lines: true, relax_column_count: false, trim: false });
  } catch (err) {
    fail(`The CSV cannot be read: ${(err as Error).message}`);
  }
  checkCount(rows.length);
  const header = Object.keys(rows[0]);
  if (!header.includes('input')) fail('The CSV needs an "input" column');
  const unknown = header.find((h) => !(COLUMNS as readonly string[]).includes(h));
  if (unknown !== undefined) fail(`Unknown CSV column "${unknown}": use ${COLUMNS.join(', ')}`);
  return rows.map((row, i) => {
    const item: Record<string, unknown> = {};
    for (const column of header) {
      const value = column === 'id' || column === 'sourceTraceId' ? row[column] || undefined : cell(row[column]);
      if (value !== undefined) item[column] = value;
    }
    if (!('input' in item)) item.input = null;
    return parseItem(item, `row ${i + 2}`);
  });
}

/** POST /api/datasets/{name}/items/upload: {"format": "jsonl" | "csv", "text"}. */
export function parseUploadBody(body: string): DatasetItemInput[] {
  const value = parseJsonBody(body) as { format?: unknown; text?: unknown } | null;
  if (typeof value !== 'object' || value === null) fail('Body must be a JSON object {"format", "text"}');
  if (value.format !== 'jsonl' && value.format !== 'csv') fail('format must be "jsonl" or "csv"');
  if (typeof value.text !== 'string') fail('text must be the file\'s text');
  const items = value.format === 'jsonl' ? fromJsonl(value.text) : fromCsv(value.text);
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (item.id === null) return;
    if (seen.has(item.id)) fail(`item ${i + 1}: id "${item.id}" appears more than once in the file`);
    seen.add(item.id);
  });
  return items;
}
