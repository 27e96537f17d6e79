// The SQL of full-text search (`q`), in one place: which text of each table is
// searchable, the patterns a query becomes, and the condition "this trace matches".
//
// Each table's searchable text is an IMMUTABLE SQL function of its columns, defined and
// trigram-indexed in the search_and_filters migration; calling the same function here is
// what lets the planner use that index.
import { Prisma } from '@/lib/generated/prisma/client';
import { escapeLike } from './like';
import { searchNeedles } from './search-needles';

/** Longest accepted `q`, in characters. */
export const MAX_QUERY_CHARS = 200;

export type SearchKind = 'trace' | 'span' | 'decision' | 'event';

interface SearchTable {
  table: string;
  /** The indexed expression, over the table's alias `x`. */
  text: string;
  /** The searchable columns one by one, for the snippets: [field name, SQL over `x`]. */
  fields: Array<[string, string]>;
  /** How a trace's matches of this kind are ordered (first = the one the viewer opens). */
  order: string;
}

export const SEARCH_TABLES: Record<SearchKind, SearchTable> = {
  trace: {
    table: '"Trace"',
    text: 'crossroads_trace_search_text(x."name", x."metadata")',
    fields: [
      ['name', 'x."name"'],
      ['metadata', 'x."metadata"::text'],
    ],
    order: 'x."id"',
  },
  span: {
    table: '"Span"',
    text: 'crossroads_span_search_text(x."name", x."input", x."output", x."statusMessage", x."metadata")',
    fields: [
      ['name', 'x."name"'],
      ['input', 'x."input"::text'],
      ['output', 'x."output"::text'],
      ['statusMessage', 'x."statusMessage"'],
      ['metadata', 'x."metadata"::text'],
    ],
    order: 'x."startedAt", x."id"',
  },
  decision: {
    table: '"DecisionPoint"',
    text: 'crossroads_decision_search_text(x."reasoning", x."chosen", x."alternatives")',
    fields: [
      ['reasoning', 'x."reasoning"'],
      ['chosen', 'x."chosen"::text'],
      ['alternatives', 'x."alternatives"::text'],
    ],
    order: 'x."timestamp", x."id"',
  },
  event: {
    table: '"Event"',
    text: 'crossroads_event_search_text(x."name", x."metadata")',
    fields: [
      ['name', 'x."name"'],
      ['metadata', 'x."metadata"::text'],
    ],
    order: 'x."timestamp", x."id"',
  },
};

export const CHILD_KINDS = ['span', 'decision', 'event'] as const satisfies readonly SearchKind[];

/** `<text> LIKE lower('%needle%') OR …` over an expression: `%`, `_` and `\` are literal. */
export function likeAny(text: Prisma.Sql, q: string): Prisma.Sql {
  const likes = searchNeedles(q).map((needle) => Prisma.sql`${text} LIKE lower(${`%${escapeLike(needle)}%`})`);
  return likes.length === 1 ? likes[0] : Prisma.sql`(${Prisma.join(likes, ' OR ')})`;
}

/** The table's searchable text over alias `x` matching `q`. */
export function tableMatches(kind: SearchKind, q: string): Prisma.Sql {
  return likeAny(Prisma.raw(SEARCH_TABLES[kind].text), q);
}

/**
 * "The trace matches q": its own text, or any of its spans', decision points' or events'.
 * Used where every matching trace is wanted (export, counts); the list's pages go through
 * lib/traces/search.ts, which picks an index-first or a scan-first plan by itself.
 */
export function traceMatchesSql(q: string, trace: Prisma.Sql): Prisma.Sql {
  const own = likeAny(Prisma.sql`crossroads_trace_search_text(${trace}."name", ${trace}."metadata")`, q);
  const children = CHILD_KINDS.map(
    (kind) =>
      Prisma.sql`EXISTS (SELECT 1 FROM ${Prisma.raw(SEARCH_TABLES[kind].table)} x WHERE x."traceId" = ${trace}."id" AND ${tableMatches(kind, q)})`,
  );
  return Prisma.sql`(${Prisma.join([own, ...children], ' OR ')})`;
}
