// Full-text search (`q`) for the list's pages: which traces match, in the list's order,
// how many, and where in each the text was found.
//
// One trigram index per table serves a rare term: a capped probe of every table's index
// gives the complete set of matching trace ids, and the page is read from those. A
// common term would make that set (and its exact count) cost seconds: when the probe hits
// its cap, the page is found instead by walking the filtered traces in the list's order
// and testing each one's rows until the page is full, which a common term fills quickly.
// The total is then an estimate (`totalExact: false`), from the share of matches among
// the traces walked.
//
// The slow case that remains: a term matching more than PROBE_CAP rows concentrated in
// few traces (thousands of spans each) makes the walk long. Documented in the README.
import { Prisma } from '@/lib/generated/prisma/client';
import type { Db } from '@/lib/db';
import { LIST_COLUMNS, type ListRow } from './list-row';
import { CHILD_KINDS, SEARCH_TABLES, tableMatches, type SearchKind } from './search-sql';
import { searchNeedles } from './search-needles';
import type { SearchMatch } from './types';

/** Rows per table the index probe reads before it calls the term common. */
export const PROBE_CAP = 5000;
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

/**
 * The child rows of trace c.id, read through the table's traceId index and nothing else.
 * OFFSET 0 keeps the caller's search condition out of this scan (PostgreSQL pushes no
 * condition into a subquery with LIMIT/OFFSET): otherwise the planner, which has no
 * statistics for the search expressions (their values are wider than ANALYZE keeps) and
 * so believes any LIKE on them is rare, ANDs the trace's rows with a bitmap of the
 * trigram index, which a common term fills with nearly every row of the table, once per
 * trace tested (seconds per trace on millions of spans). Used where the term is common;
 * for a rare term that bitmap is small and the index is the cheaper way.
 */
function rowsOfTrace(kind: (typeof CHILD_KINDS)[number]): Prisma.Sql {
  return Prisma.sql`(SELECT x.* FROM ${Prisma.raw(SEARCH_TABLES[kind].table)} x WHERE x."traceId" = c.id OFFSET 0) x`;
}

/** A JSON array of ids as one parameter, read back as a set of rows (c.id, c.ord). */
function idRows(ids: string[]): Prisma.Sql {
  return Prisma.sql`jsonb_array_elements_text(CAST(${JSON.stringify(ids)} AS jsonb)) WITH ORDINALITY AS c(id, ord)`;
}

/** Rows of each big table the sample before the probe tests. */
export const SAMPLE_ROWS = 500;
/** Matches among them that make a term common without probing (4% of the sample). */
const SAMPLE_HITS = 20;

/**
 * Whether a random sample of some big table already shows q common. The index probe of a
 * common term costs what the term's trigram posting lists cost to read, every row of the
 * table (2 s at 5M spans), before its LIMIT can stop it; a sample of SAMPLE_ROWS random
 * rows (TABLESAMPLE SYSTEM: random pages) costs a few tens of milliseconds. It only
 * answers "common" where the probe would with near certainty: at least SAMPLE_HITS
 * matches (4%) in the sample, of a table where even 1% of its rows is more than `cap`
 * (below 4% true density, 20 or more hits in 500 draws is vanishingly unlikely). Small
 * tables are never sampled: their probe is cheap.
 */
export async function sampleSaysCommon(db: Db, q: string, cap = PROBE_CAP): Promise<boolean> {
  const kinds = ['trace', ...CHILD_KINDS] as SearchKind[];
  const sizes = await db.$queryRaw<Array<{ kind: SearchKind; rows: number }>>`
    SELECT k.kind, greatest(c.reltuples, 0)::float8 AS rows
    FROM jsonb_to_recordset(CAST(${JSON.stringify(kinds.map((kind) => ({ kind, rel: SEARCH_TABLES[kind].table })))} AS jsonb)) AS k(kind text, rel text)
    JOIN pg_class c ON c.oid = to_regclass(k.rel)`;
  const big = sizes.filter((s) => s.rows * 0.01 >= cap && s.rows >= SAMPLE_ROWS * 4);
  if (big.length === 0) return false;
  const parts = big.map(({ kind, rows }) => {
    // Twice the rows wanted, in percent of the table, so the LIMIT is usually reached.
    const percent = Math.min(100, (200 * SAMPLE_ROWS) / rows);
    return Prisma.sql`(SELECT count(*) FILTER (WHERE ${tableMatches(kind, q)})::int AS hits, count(*)::int AS sampled
      FROM (SELECT x.* FROM ${Prisma.raw(SEARCH_TABLES[kind].table)} x TABLESAMPLE SYSTEM (${percent}) LIMIT ${SAMPLE_ROWS}) x)`;
  });
  const rows = await db.$queryRaw<Array<{ hits: number; sampled: number }>>`${Prisma.join(parts, ' UNION ALL ')}`;
  return rows.some((r) => r.hits >= SAMPLE_HITS && r.sampled >= SAMPLE_ROWS / 2);
}

/**
 * Every trace id whose own text or child rows match, or null when some table has more
 * than PROBE_CAP matching rows (the term is common), or a sample shows it common first.
 */
export async function probeMatchingTraceIds(db: Db, q: string, cap = PROBE_CAP): Promise<string[] | null> {
  if (await sampleSaysCommon(db, q, cap)) return null;
  const parts = (['trace', ...CHILD_KINDS] as SearchKind[]).map((kind) => {
    const id = kind === 'trace' ? Prisma.raw('x."id"') : Prisma.raw('x."traceId"');
    return Prisma.sql`(SELECT CAST(${kind} AS text) AS kind, ${id} AS id FROM ${Prisma.raw(SEARCH_TABLES[kind].table)} x
      WHERE ${tableMatches(kind, q)} LIMIT ${cap})`;
  });
  const rows = await db.$queryRaw<Array<{ kind: SearchKind; id: string }>>`${Prisma.join(parts, ' UNION ALL ')}`;
  const perKind = new Map<SearchKind, number>();
  for (const row of rows) perKind.set(row.kind, (perKind.get(row.kind) ?? 0) + 1);
  if ([...perKind.values()].some((n) => n >= cap)) return null;
  return [...new Set(rows.map((r) => r.id))];
}

/**
 * Of the given trace ids (in order), those that match, in the same order. Each kind of
 * child is tested per trace with LIMIT 1 in a LATERAL subquery: the planner cannot turn
 * it into a hash of every matching row in the table (which a common term makes huge),
 * and the test stops at the trace's first matching row.
 */
async function matchingOf(db: Db, ids: string[], q: string): Promise<string[]> {
  if (ids.length === 0) return [];
  // matchingOf serves the walk, i.e. a common term: each trace's own rows are tested.
  const hits = CHILD_KINDS.map(
    (kind) => Prisma.sql`LEFT JOIN LATERAL (SELECT true AS hit FROM ${rowsOfTrace(kind)}
      WHERE ${tableMatches(kind, q)} LIMIT 1) ${Prisma.raw(kind)} ON true`,
  );
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT c.id FROM ${idRows(ids)}
    JOIN "Trace" x ON x."id" = c.id
    ${Prisma.join(hits, ' ')}
    WHERE ${tableMatches('trace', q)} OR span.hit OR decision.hit OR event.hit
    ORDER BY c.ord`;
  return rows.map((r) => r.id);
}

/** How many traces are walked per round of the scan-first plan, at least. */
const WALK_CHUNK = 200;

/**
 * The page of traces matching q and the other filters (`where`, over "Trace" t), in the
 * list's order (`orderBy`).
 */
export async function searchTracePage(
  db: Db,
  q: string,
  where: Prisma.Sql,
  orderBy: Prisma.Sql,
  page: { limit: number; offset: number },
  countFiltered: () => Promise<number>,
  options: { probeCap?: number; walkChunk?: number } = {},
): Promise<SearchPage> {
  const ids = await probeMatchingTraceIds(db, q, options.probeCap);
  if (ids) {
    const inIds = Prisma.sql`t."id" IN (SELECT c.id FROM ${idRows(ids)})`;
    const filtered = where === Prisma.empty ? Prisma.sql`WHERE ${inIds}` : Prisma.sql`${where} AND ${inIds}`;
    const [rows, [{ n }]] = await Promise.all([
      db.$queryRaw<ListRow[]>`SELECT ${LIST_COLUMNS} FROM "Trace" t ${filtered} ORDER BY ${orderBy}
        LIMIT ${page.limit} OFFSET ${page.offset}`,
      db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM "Trace" t ${filtered}`,
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
    const batch = await db.$queryRaw<Array<{ id: string }>>`SELECT t."id" FROM "Trace" t ${where} ORDER BY ${orderBy}
      LIMIT ${chunk} OFFSET ${walked}`;
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
    ? await db.$queryRaw<ListRow[]>`SELECT ${LIST_COLUMNS} FROM ${idRows(pageIds)} JOIN "Trace" t ON t."id" = c.id ORDER BY c.ord`
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
 * Up to MATCHES_PER_TRACE places q was found in each trace: the trace's own fields first,
 * then its spans (by start), decision points and events (by time), each row's fields in
 * the order SEARCH_TABLES lists them. Only the first MATCHES_PER_TRACE matching rows of
 * each kind are read per trace, and only a window of text around the match leaves the
 * database. `common`: the term was found common (the walk's plan), so each trace's rows
 * are read by trace id and tested, never through the trigram index (see rowsOfTrace).
 */
export async function findMatches(db: Db, traceIds: string[], q: string, options: { common?: boolean } = {}): Promise<Map<string, SearchMatch[]>> {
  const result = new Map<string, SearchMatch[]>(traceIds.map((id) => [id, []]));
  if (traceIds.length === 0) return result;
  const needles = searchNeedles(q);
  const snippetChars = SNIPPET_BEFORE + SNIPPET_AFTER + Array.from(q).length;
  const parts = (['trace', ...CHILD_KINDS] as SearchKind[]).map((kind, kindRank) => {
    const spec = SEARCH_TABLES[kind];
    const fields = Prisma.join(
      spec.fields.map(([name, sql], i) => Prisma.sql`(CAST(${name} AS text), ${i}::int, ${Prisma.raw(sql)})`),
      ', ',
    );
    const rows =
      kind === 'trace'
        ? Prisma.sql`SELECT x.* FROM "Trace" x WHERE x."id" = c.id AND ${tableMatches(kind, q)}`
        : options.common
          ? Prisma.sql`SELECT x.* FROM ${rowsOfTrace(kind)} WHERE ${tableMatches(kind, q)}
            ORDER BY ${Prisma.raw(spec.order)} LIMIT ${MATCHES_PER_TRACE}`
          : Prisma.sql`SELECT x.* FROM ${Prisma.raw(spec.table)} x WHERE x."traceId" = c.id AND ${tableMatches(kind, q)}
            ORDER BY ${Prisma.raw(spec.order)} LIMIT ${MATCHES_PER_TRACE}`;
    // The position of the first needle found in the field, in characters.
    const positions = needles.map((needle) => Prisma.sql`nullif(strpos(lower(f.text), lower(${needle})), 0)`);
    return Prisma.sql`
      SELECT c.id AS "traceId", CAST(${kind} AS text) AS kind, x."id" AS id, f.name AS field,
             ${Prisma.raw(String(kindRank * 1_000_000))} + row_number() OVER (PARTITION BY c.id ORDER BY ${Prisma.raw(spec.order)}) * 100 + f.i AS rank,
             m.pos, substr(f.text, greatest(m.pos - ${Prisma.raw(String(SNIPPET_BEFORE))}, 1), ${snippetChars}::int) AS snippet,
             length(f.text) AS length
      FROM ${idRows(traceIds)}
      CROSS JOIN LATERAL (${rows}) x
      CROSS JOIN LATERAL (VALUES ${fields}) f(name, i, text)
      CROSS JOIN LATERAL (SELECT coalesce(${Prisma.join(positions, ', ')}) AS pos) m
      WHERE m.pos IS NOT NULL`;
  });
  const rows = await db.$queryRaw<MatchRow[]>`
    SELECT * FROM (
      SELECT u.*, row_number() OVER (PARTITION BY u."traceId" ORDER BY u.rank) AS n
      FROM (${Prisma.join(parts, ' UNION ALL ')}) u
    ) ranked WHERE n <= ${MATCHES_PER_TRACE} ORDER BY "traceId", rank`;
  for (const row of rows) {
    const start = Math.max(Number(row.pos) - SNIPPET_BEFORE, 1);
    const end = start + Array.from(row.snippet).length - 1;
    const snippet = `${start > 1 ? '…' : ''}${row.snippet}${end < Number(row.length) ? '…' : ''}`;
    result.get(row.traceId)?.push({ kind: row.kind, id: row.id, field: row.field, snippet });
  }
  return result;
}
