// Full-text search (`q`) for the list's pages: which traces match, in the list's order,
// how many, and where in each the text was found.
//
// Each trace's words are trigram-indexed once the indexer has reached it ("SearchDoc",
// migration search_deferred_index); traces written since are queued ("SearchQueue") and
// tested row by row (search-sql.ts, traceMatchesSql). A rare term: the words index gives
// every candidate trace up front, the queued traces are added, the exact rule keeps the
// matches, and the page and its exact count are read from those. A common term would make
// that set (and its exact count) cost seconds: when the candidates pass a cap, the page
// is found instead by walking the filtered traces in the list's order and testing each
// one (its words first) until the page is full, which a common term fills quickly. The
// total is then an estimate (`totalExact: false`), from the share of matches among the
// traces walked.
//
// The slow cases that remain: a term with no run of 3+ letters or digits (an emoji,
// punctuation) has no words to look up, so the walk tests every trace's rows until the
// page is full; and a large backlog of queued traces (ingest faster than the indexer) is
// tested row by row on every search. Both documented in docs/api.md.
import 'server-only';
import type { SqlExecutor } from '@/lib/db/executor';
import { LIST_COLUMNS, type ListRow } from '@/lib/features/query';
import { CHILD_KINDS, SEARCH_TABLES, rowsOfTrace, tableMatches, traceMatchesSql, wordsDecide, wordsMatchSql, type SearchKind } from '@/lib/features/query';
import { searchNeedles } from '@/lib/features/query/shared';
import type { SearchMatch } from '@/lib/features/traces/shared';
import { empty, join, raw, sql, type Sql } from '@/lib/db/sql';

/** Candidate traces the words index may give before the term counts as common. */
export const PROBE_CAP = 5000;
/** Candidate traces tested row by row (queued ones, or any when the words cannot decide) before the term counts as common. */
export const EXACT_CAP = 500;
/** Matches reported per trace. */
export const MATCHES_PER_TRACE = 3;
/** Characters of context kept before and after the match in a snippet. */
const SNIPPET_BEFORE = 40;
const SNIPPET_AFTER = 80;

export interface SearchPage {
  rows: ListRow[];
  total: number;
  totalExact: boolean;
  /** Which plan found the page: the index probe (a rare term) or the walk (a common one). */
  plan: 'probe' | 'walk';
}

/** A JSON array of ids as one parameter, read back as a set of rows (c.id, c.ord). */
function idRows(ids: string[]): Sql {
  return sql`jsonb_array_elements_text(CAST(${JSON.stringify(ids)} AS jsonb)) WITH ORDINALITY AS c(id, ord)`;
}

/**
 * Every trace id that matches q, or null when the term is common: more than `cap`
 * traces' words hold it, or more than `exactCap` candidates would have to be tested row
 * by row. Null too when q has no piece the words index can look up (see
 * wordsMatchSql): the walk then finds the page.
 */
export async function probeMatchingTraceIds(db: SqlExecutor, q: string, cap = PROBE_CAP, exactCap = EXACT_CAP): Promise<string[] | null> {
  const words = wordsMatchSql(raw('d."words"'), q);
  if (!words) return null;
  // One statement, one snapshot: the traces whose words hold the pieces, and the queued ones.
  const candidates = await db.query<{ id: string; queued: boolean }>(sql`
    (SELECT d."traceId" AS id, false AS queued FROM "SearchDoc" d WHERE ${words} LIMIT ${cap + 1})
    UNION ALL
    (SELECT DISTINCT sq."traceId" AS id, true AS queued FROM "SearchQueue" sq LIMIT ${exactCap + 1})`);
  const fromWords = candidates.filter((c) => !c.queued).map((c) => c.id);
  const queued = new Set(candidates.filter((c) => c.queued).map((c) => c.id));
  if (fromWords.length > cap || queued.size > exactCap) return null;
  if (wordsDecide(q)) {
    // The words of a trace that is not queued decide; only the queued ones are tested.
    const decided = fromWords.filter((id) => !queued.has(id));
    return [...decided, ...(await matchingOf(db, [...queued], q))];
  }
  const all = [...new Set([...fromWords, ...queued])];
  return all.length > exactCap ? null : matchingOf(db, all, q);
}

/** Of the given trace ids (in order), those that match, in the same order. */
async function matchingOf(db: SqlExecutor, ids: string[], q: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<{ id: string }>(sql`
    SELECT c.id FROM ${idRows(ids)}
    JOIN "Trace" t ON t."id" = c.id
    WHERE ${traceMatchesSql(q, raw('t'))}
    ORDER BY c.ord`);
  return rows.map((r) => r.id);
}

/** How many traces are walked per round of the scan-first plan, at least. */
const WALK_CHUNK = 200;

/**
 * The page of traces matching q and the other filters (`where`, over "Trace" t), in the
 * list's order (`orderBy`).
 */
export async function searchTracePage(
  db: SqlExecutor,
  q: string,
  where: Sql,
  orderBy: Sql,
  page: { limit: number; offset: number },
  countFiltered: () => Promise<number>,
  options: { probeCap?: number; walkChunk?: number } = {},
): Promise<SearchPage> {
  const ids = await probeMatchingTraceIds(db, q, options.probeCap);
  if (ids) {
    const inIds = sql`t."id" IN (SELECT c.id FROM ${idRows(ids)})`;
    const filtered = where === empty ? sql`WHERE ${inIds}` : sql`${where} AND ${inIds}`;
    const [rows, [{ n }]] = await Promise.all([
      db.query<ListRow>(sql`SELECT ${LIST_COLUMNS} FROM "Trace" t ${filtered} ORDER BY ${orderBy}
        LIMIT ${page.limit} OFFSET ${page.offset}`),
      db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "Trace" t ${filtered}`),
    ]);
    return { rows, total: n, totalExact: true, plan: 'probe' };
  }

  // Scan-first: walk the filtered traces in order until offset + limit of them match.
  const wanted = page.offset + page.limit;
  const found: string[] = [];
  let walked = 0;
  let chunk = Math.max(options.walkChunk ?? WALK_CHUNK, wanted * 2);
  let exhausted = false;
  while (found.length < wanted) {
    const batch = await db.query<{ id: string }>(sql`SELECT t."id" FROM "Trace" t ${where} ORDER BY ${orderBy}
      LIMIT ${chunk} OFFSET ${walked}`);
    walked += batch.length;
    found.push(...(await matchingOf(db, batch.map((r) => r.id), q)));
    if (batch.length < chunk) {
      exhausted = true;
      break;
    }
    chunk *= 2;
  }
  const pageIds = found.slice(page.offset, wanted);
  const rows = pageIds.length
    ? await db.query<ListRow>(sql`SELECT ${LIST_COLUMNS} FROM ${idRows(pageIds)} JOIN "Trace" t ON t."id" = c.id ORDER BY c.ord`)
    : [];
  if (exhausted) return { rows, total: found.length, totalExact: true, plan: 'walk' };
  const filteredTotal = await countFiltered();
  const estimate = Math.round((found.length / walked) * filteredTotal);
  return { rows, total: Math.max(estimate, found.length), totalExact: false, plan: 'walk' };
}

interface MatchRow {
  traceId: string;
  kind: SearchKind;
  id: string;
  field: string;
  rank: number;
  pos: number;
  snippet: string;
  length: number;
}

/**
 * Up to `perTrace` places (MATCHES_PER_TRACE unless asked) q was found in each trace: the trace's own fields first,
 * then its spans (by start), decision points and events (by time), each row's fields in
 * the order SEARCH_TABLES lists them. Only the first `perTrace` matching rows of
 * each kind are read per trace, and only a window of text around the match leaves the
 * database. Each trace's rows are read by trace id (rowsOfTrace).
 */
export async function findMatches(db: SqlExecutor, traceIds: string[], q: string, perTrace = MATCHES_PER_TRACE): Promise<Map<string, SearchMatch[]>> {
  const result = new Map<string, SearchMatch[]>(traceIds.map((id) => [id, []]));
  if (traceIds.length === 0) return result;
  const needles = searchNeedles(q);
  const snippetChars = SNIPPET_BEFORE + SNIPPET_AFTER + Array.from(q).length;
  const parts = (['trace', ...CHILD_KINDS] as SearchKind[]).map((kind, kindRank) => {
    const spec = SEARCH_TABLES[kind];
    const fields = join(
      spec.fields.map(([name, expr], i) => sql`(CAST(${name} AS text), ${i}::int, ${raw(expr)})`),
      ', ',
    );
    const rows =
      kind === 'trace'
        ? sql`SELECT x.* FROM "Trace" x WHERE x."id" = c.id AND ${tableMatches(kind, q)}`
        : sql`SELECT x.* FROM ${rowsOfTrace(kind, raw('c'))} WHERE ${tableMatches(kind, q)}
            ORDER BY ${raw(spec.order)} LIMIT ${perTrace}`;
    // The position of the first needle found in the field, in characters.
    const positions = needles.map((needle) => sql`nullif(strpos(lower(f.text), lower(${needle})), 0)`);
    return sql`
      SELECT c.id AS "traceId", CAST(${kind} AS text) AS kind, x."id" AS id, f.name AS field,
             ${raw(String(kindRank * 1_000_000))} + row_number() OVER (PARTITION BY c.id ORDER BY ${raw(spec.order)}) * 100 + f.i AS rank,
             m.pos, substr(f.text, greatest(m.pos - ${raw(String(SNIPPET_BEFORE))}, 1), ${snippetChars}::int) AS snippet,
             length(f.text) AS length
      FROM ${idRows(traceIds)}
      CROSS JOIN LATERAL (${rows}) x
      CROSS JOIN LATERAL (VALUES ${fields}) f(name, i, text)
      CROSS JOIN LATERAL (SELECT coalesce(${join(positions, ', ')}) AS pos) m
      WHERE m.pos IS NOT NULL`;
  });
  const rows = await db.query<MatchRow>(sql`
    SELECT * FROM (
      SELECT u.*, row_number() OVER (PARTITION BY u."traceId" ORDER BY u.rank) AS n
      FROM (${join(parts, ' UNION ALL ')}) u
    ) ranked WHERE n <= ${perTrace} ORDER BY "traceId", rank`);
  for (const row of rows) {
    const start = Math.max(Number(row.pos) - SNIPPET_BEFORE, 1);
    const end = start + Array.from(row.snippet).length - 1;
    const snippet = `${start > 1 ? '…' : ''}${row.snippet}${end < Number(row.length) ? '…' : ''}`;
    result.get(row.traceId)?.push({ kind: row.kind, id: row.id, field: row.field, snippet });
  }
  return result;
}
