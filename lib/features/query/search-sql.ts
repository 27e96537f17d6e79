// The SQL of full-text search (`q`), in one place: which text of each table is
// searchable, the patterns a query becomes, and the condition "this trace matches".
//
// Each table's searchable text is an IMMUTABLE SQL function of its columns (migration
// search_and_filters); the exact rule is `lower(text) LIKE lower('%needle%')` on it.
// Finding candidates fast goes through each trace's words (migration
// search_deferred_index): "SearchDoc" holds the distinct words of a trace's text, split
// at spaces and line breaks, trigram-indexed, kept by an indexer that runs after ingest;
// "SearchQueue" lists the traces written since they were last indexed, which are tested
// row by row instead.
import { escapeLike } from './like';
import { searchNeedles } from './search-needles';
import { join, raw, sql, type Sql } from '@/lib/db/sql';

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
export function likeAny(text: Sql, q: string): Sql {
  const likes = searchNeedles(q).map((needle) => sql`${text} LIKE lower(${`%${escapeLike(needle)}%`})`);
  return likes.length === 1 ? likes[0] : sql`(${join(likes, ' OR ')})`;
}

/** The table's searchable text over alias `x` matching `q`. */
export function tableMatches(kind: SearchKind, q: string): Sql {
  return likeAny(raw(SEARCH_TABLES[kind].text), q);
}

/**
 * The pieces of a needle a matching trace's words must contain: its runs of letters and
 * digits, lower-cased by the database, of 3 or more characters (shorter ones select
 * nothing through a trigram index). Words are split at spaces and line breaks, which
 * are neither letters nor digits, so a run of the needle never spans two words.
 */
export function needlePieces(needle: string): string[] {
  return needle.split(/[^\p{L}\p{N}]+/u).filter((piece) => Array.from(piece).length >= 3);
}

/**
 * `words` (a trace's SearchDoc words) may hold q: for some needle, every piece is in a
 * word. Null when a needle has no piece: then the words cannot narrow anything down.
 */
export function wordsMatchSql(words: Sql, q: string): Sql | null {
  const perNeedle: Sql[] = [];
  for (const needle of searchNeedles(q)) {
    const pieces = needlePieces(needle);
    if (pieces.length === 0) return null;
    const likes = pieces.map((piece) => sql`${words} LIKE lower(${`%${escapeLike(piece)}%`})`);
    perNeedle.push(likes.length === 1 ? likes[0] : sql`(${join(likes, ' AND ')})`);
  }
  return perNeedle.length === 1 ? perNeedle[0] : sql`(${join(perNeedle, ' OR ')})`;
}

/**
 * Whether the words alone decide q: q is one run of letters and digits (3+ characters),
 * so a word containing it means the text of some row of the trace contains it (a word
 * is a piece of one row's text, and the doc holds the words of the trace's current rows).
 */
export function wordsDecide(q: string): boolean {
  // Letters and digits only, so its JSON-escaped form (searchNeedles) is itself.
  const pieces = needlePieces(q);
  return pieces.length === 1 && pieces[0] === q;
}

/**
 * The child rows of the trace `trace` (an alias other than x and r), as `x`, read through the table's traceId index and nothing
 * else. OFFSET 0 keeps a search condition applied to the result out of this scan
 * (PostgreSQL pushes no condition into a subquery with LIMIT/OFFSET), so the planner
 * cannot turn "this trace has a matching span" into a scan of every span of the table.
 */
export function rowsOfTrace(kind: (typeof CHILD_KINDS)[number], trace: Sql): Sql {
  return sql`(SELECT r.* FROM ${raw(SEARCH_TABLES[kind].table)} r WHERE r."traceId" = ${trace}."id" OFFSET 0) x`;
}

/** The exact rule, row by row: the trace's own text, or any of its spans', decision points' or events'. */
export function traceTextMatchesSql(q: string, trace: Sql): Sql {
  const own = likeAny(sql`crossroads_trace_search_text(${trace}."name", ${trace}."metadata")`, q);
  const children = CHILD_KINDS.map((kind) => sql`EXISTS (SELECT 1 FROM ${rowsOfTrace(kind, trace)} WHERE ${tableMatches(kind, q)})`);
  return sql`(${join([own, ...children], ' OR ')})`;
}

/** The trace is waiting for the indexer: its words may be missing or out of date. */
function traceQueuedSql(trace: Sql): Sql {
  return sql`EXISTS (SELECT 1 FROM "SearchQueue" sq WHERE sq."traceId" = ${trace}."id")`;
}

/**
 * "The trace matches q", exactly, for one trace at a time (export, counts, the walk):
 * - a queued trace is tested row by row;
 * - any other trace has current words: when they do not hold q's pieces, it does not
 *   match (one index lookup, no row read);
 * - when they do, the words decide it if q is a single run of letters and digits
 *   (wordsDecide), and its rows are tested otherwise.
 * A term without a piece of 3+ letters or digits (emoji, punctuation, 1-2 characters)
 * is tested row by row on every trace.
 */
export function traceMatchesSql(q: string, trace: Sql): Sql {
  const exact = traceTextMatchesSql(q, trace);
  const words = wordsMatchSql(raw('d."words"'), q);
  if (!words) return exact;
  const inWords = sql`EXISTS (SELECT 1 FROM "SearchDoc" d WHERE d."traceId" = ${trace}."id" AND ${words})`;
  const indexed = wordsDecide(q) ? inWords : sql`(${inWords} AND ${exact})`;
  const queued = traceQueuedSql(trace);
  return sql`(CASE WHEN ${queued} THEN ${exact} ELSE ${indexed} END)`;
}
