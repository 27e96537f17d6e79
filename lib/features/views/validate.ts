// POST /api/views' body, checked field by field with messages that name the field.
import { AppError } from '@/lib/core/errors';
import { parseListParams } from '@/lib/features/query';
import { VIEW_LIMITS } from './limits';
import type { SaveViewInput } from './types';

const COLUMN_KEY = /^[A-Za-z][\w.:-]*$/;
// Control characters make a name that cannot be read back as typed.
const CONTROL = /[\u0000-\u001f\u007f]/;

export function parseSaveViewBody(text: string): SaveViewInput {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION', 'Invalid JSON body');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('VALIDATION', 'The body must be a JSON object');
  const { name, query, columns } = body as Record<string, unknown>;

  if (typeof name !== 'string') throw new AppError('VALIDATION', 'Invalid name: must be a string');
  const trimmed = name.trim();
  if (trimmed === '') throw new AppError('VALIDATION', 'Invalid name: must not be empty');
  if (Array.from(trimmed).length > VIEW_LIMITS.nameLength) {
    throw new AppError('VALIDATION', `Invalid name: at most ${VIEW_LIMITS.nameLength} characters`);
  }
  if (CONTROL.test(trimmed)) throw new AppError('VALIDATION', 'Invalid name: must not contain control characters');

  const rawQuery = query === undefined ? '' : query;
  if (typeof rawQuery !== 'string') throw new AppError('VALIDATION', 'Invalid query: must be a string');
  const q = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery;
  if (q.length > VIEW_LIMITS.queryLength) throw new AppError('VALIDATION', `Invalid query: at most ${VIEW_LIMITS.queryLength} characters`);
  const params = new URLSearchParams(q);
  // A view opens on the first page, whichever page it was saved from.
  params.delete('page');
  try {
    parseListParams(params);
  } catch (err) {
    if (err instanceof AppError) throw new AppError('VALIDATION', `Invalid query: ${err.message}`);
    throw err;
  }

  const rawColumns = columns === undefined ? [] : columns;
  if (!Array.isArray(rawColumns)) throw new AppError('VALIDATION', 'Invalid columns: must be an array of column keys');
  if (rawColumns.length > VIEW_LIMITS.columns) throw new AppError('VALIDATION', `Invalid columns: at most ${VIEW_LIMITS.columns}`);
  for (const c of rawColumns) {
    if (typeof c !== 'string' || c.length > VIEW_LIMITS.columnKeyLength || !COLUMN_KEY.test(c)) {
      throw new AppError('VALIDATION', `Invalid columns: each must be a column key (a letter, then letters, digits, _ . : -; at most ${VIEW_LIMITS.columnKeyLength} characters)`);
    }
  }
  return { name: trimmed, query: params.toString(), columns: [...new Set(rawColumns as string[])] };
}
