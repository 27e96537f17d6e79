// GET /api/traces/suggest: stored values of a filter's field that start with what was
// typed, for the list's exact-match filters. Each value is found by one index probe (a
// loose index scan over a bytewise index, migration filter_suggestions), so an answer
// costs `limit` probes however many traces share each value.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { enumParam, invalidParam, textParam } from '@/lib/features/query';
import { empty, raw, sql, type Sql } from '@/lib/db/sql';
import { SUGGEST_FIELDS, type SuggestField } from './types';

export const DEFAULT_SUGGESTIONS = 10;
export const MAX_SUGGESTIONS = 50;
/** Longer than any stored id or name: a longer prefix could match nothing. */
export const MAX_SUGGEST_CHARS = 1000;

export interface SuggestParams {
  field: SuggestField;
  /** The prefix; empty: the first values. */
  q: string;
  limit: number;
}

/** field (required), q (optional, case-sensitive prefix) and limit (1 to 50, default 10). */
export function parseSuggestParams(query: URLSearchParams): SuggestParams {
  const field = enumParam<SuggestField>(query, 'field', SUGGEST_FIELDS);
  if (!field) throw invalidParam('field', `must be one of ${SUGGEST_FIELDS.join(', ')}`);
  const q = textParam(query, 'q') ?? '';
  if (Array.from(q).length > MAX_SUGGEST_CHARS) throw invalidParam('q', `must be at most ${MAX_SUGGEST_CHARS} characters`);
  const rawLimit = query.get('limit');
  let limit = DEFAULT_SUGGESTIONS;
  if (rawLimit !== null && rawLimit.trim() !== '') {
    limit = /^\d+$/.test(rawLimit.trim()) ? Number(rawLimit.trim()) : NaN;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SUGGESTIONS) {
      throw new AppError('VALIDATION', `Invalid limit parameter: must be a whole number from 1 to ${MAX_SUGGESTIONS}`);
    }
  }
  return { field, q, limit };
}

/** Where each field's values are, as a bytewise-ordered expression with its index. */
const SOURCES: Record<SuggestField, { from: Sql; value: Sql }> = {
  name: { from: raw('"Trace" x'), value: raw('x."name" COLLATE "C"') },
  sessionId: { from: raw('"Trace" x'), value: raw('x."sessionId" COLLATE "C"') },
  userId: { from: raw('"Trace" x'), value: raw('x."userId" COLLATE "C"') },
  tag: { from: raw('"TraceTag" x'), value: raw('x."tag" COLLATE "C"') },
  model: { from: raw('"TraceModel" x'), value: raw('x."model" COLLATE "C"') },
};

/**
 * The smallest string after every string that starts with `prefix`, in code point order
 * (which is UTF-8's byte order): the prefix with its last code point raised by one, or
 * null when there is none (a prefix of U+10FFFF only).
 */
export function prefixEnd(prefix: string): string | null {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (points.length) {
    let last = points.pop()! + 1;
    if (last === 0xd800) last = 0xe000;
    if (last <= 0x10ffff) return String.fromCodePoint(...points, last);
  }
  return null;
}

/** Up to `limit` distinct stored values of the field starting with `q`, in bytewise order. */
export async function suggestValues(ctx: ServiceContext, params: SuggestParams): Promise<{ values: string[] }> {
  requireScope(ctx, 'read');
  const { from, value } = SOURCES[params.field];
  const end = params.q === '' ? null : prefixEnd(params.q);
  const range = sql`${params.q === '' ? sql`${value} IS NOT NULL` : sql`${value} >= ${params.q}`}${end === null ? empty : sql` AND ${value} < ${end}`}`;
  const rows = await ctx.db.sql.query<{ v: string }>(sql`
    WITH RECURSIVE walk(v) AS (
      (SELECT ${value} FROM ${from} WHERE ${range} ORDER BY 1 LIMIT 1)
      UNION ALL
      SELECT (SELECT ${value} FROM ${from} WHERE ${range} AND ${value} > w.v ORDER BY 1 LIMIT 1) FROM walk w WHERE w.v IS NOT NULL
    )
    SELECT v FROM walk WHERE v IS NOT NULL LIMIT ${params.limit}`);
  return { values: rows.map((r) => r.v) };
}
