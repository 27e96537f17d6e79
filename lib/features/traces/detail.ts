// GET /api/traces/{id}: one trace with every child, in the spec's order.
//
// PostgreSQL builds the response JSON itself on the raw driver, and the route sends that
// text as it is (a large trace page by page, as it is read). Measured here for a 10,000-span trace (16 MB of
// JSON): loading it through Prisma rows and re-serialising took ~250 ms on PostgreSQL
// and ~450-900 ms on PGlite, nearly all of it materialising and re-encoding JSON values
// in Node; the raw driver also skips Prisma's handling of the 16 MB result.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { processBudget } from '@/lib/core/budget';
import { getLimits } from '@/lib/core/config';
import { AppError } from '@/lib/core/errors';
import type { SqlExecutor } from '@/lib/db/executor';
import { raw, sql, type Sql } from '@/lib/db/sql';
import { attachScores, scoresOfTraces, type ScoresOfTrace } from '@/lib/features/scores';
import type { ScoreRecord } from '@/lib/features/scores/shared';
import type { TraceDetail } from './types';
import { isValidId } from '@/lib/features/ingest/shared';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import type { Database } from '@/lib/db';
import { DECISION_POINT_TABLE, EVENT_TABLE, jsonObjectSql, SPAN_TABLE, TRACE_TABLE } from '@/lib/db/columns';

/** Empty, longer than 256 characters, or holding control characters: not an id we could have stored. */
export function isValidTraceId(id: string): boolean {
  return isValidId(id);
}


export const TRACE_JSON = jsonObjectSql('t', TRACE_TABLE.api);
export const DECISION_JSON = jsonObjectSql('c', DECISION_POINT_TABLE.api);
export const SPAN_JSON = jsonObjectSql('c', SPAN_TABLE.api);
export const EVENT_JSON = jsonObjectSql('c', EVENT_TABLE.api);

/** A JSON array of the trace's children, in the API's order (the aggregate sorts, so the order is guaranteed). */
export const childArray = (table: string, json: string, orderBy: string) =>
  `(SELECT coalesce(json_agg(${json} ORDER BY c."${orderBy}", c."id"), '[]') FROM "${table}" c WHERE c."traceId" = t."id")::text`;

// The fixed parts of the statements below, built once.
const TRACE_JSON_SQL = raw(TRACE_JSON);
export const SPAN_JSON_SQL = raw(SPAN_JSON);
const DECISION_ARRAY_SQL = raw(childArray('DecisionPoint', DECISION_JSON, 'timestamp'));
const EVENT_ARRAY_SQL = raw(childArray('Event', EVENT_JSON, 'timestamp'));
const SPAN_ARRAY_SQL = raw(childArray('Span', SPAN_JSON, 'startedAt'));

// The trace with its decision points and events; its spans come in the same statement
// when it has at most `spansUpTo` of them (null: any number), else NULL and read in pages.
const detailSql = (id: string, spansUpTo: number | null) => sql`
SELECT ${TRACE_JSON_SQL}::text AS trace,
       ${DECISION_ARRAY_SQL} AS "decisionPoints",
       ${EVENT_ARRAY_SQL} AS events,
       t."spanCount" AS "spanCount",
       CASE WHEN ${spansUpTo}::int IS NULL OR t."spanCount" <= ${spansUpTo}::int THEN ${SPAN_ARRAY_SQL} END AS spans
  FROM "Trace" t WHERE t."id" = ${id}`;

// The key of every `pageSpans`-th span in the API's order, from the first: where each page starts.
const pageStartsSql = (id: string, pageSpans: number) => sql`
SELECT "startedAt", "id" FROM (
  SELECT "startedAt", "id", row_number() OVER (ORDER BY "startedAt", "id") AS n FROM "Span" WHERE "traceId" = ${id}
) s WHERE (n - 1) % ${pageSpans} = 0 ORDER BY n`;
const pageRange = (id: string, from: PageStart, to: PageStart | undefined) => sql`
  FROM "Span" c
 WHERE c."traceId" = ${id}
   AND (c."startedAt", c."id") >= (${from.startedAt}::timestamptz, ${from.id}::text)
   AND (${to?.startedAt ?? null}::timestamptz IS NULL OR (c."startedAt", c."id") < (${to?.startedAt ?? null}::timestamptz, ${to?.id ?? null}::text))`;
// A page's spans as their JSON objects joined by commas; with their ids when scores go on them.
const pageSql = (range: Sql) => sql`SELECT coalesce(string_agg(${SPAN_JSON_SQL}::text, ',' ORDER BY c."startedAt", c."id"), '') AS spans ${range}`;
const pageRowsSql = (range: Sql) => sql`SELECT c."id", ${SPAN_JSON_SQL}::text AS span ${range} ORDER BY c."startedAt", c."id"`;

// A trace with more spans than this is read in pages of this many spans and sent as each
// page arrives, so the server never holds its whole JSON, and PostgreSQL (which spends most
// of the time writing the payloads' jsonb out as text, on one core per statement) builds
// the pages on two connections at once. Smaller traces are one statement.
const SPANS_IN_ONE_STATEMENT = 2_000;
const PAGE_SPANS = 500;

// At most this many large traces are read at once per process; the others wait their turn
// (503 after ADMISSION_WAIT_MS). Each takes two pool connections, and two reads already
// keep two cores busy, so more would only queue inside PostgreSQL while adding memory.
const LARGE_READS_AT_ONCE = 2;

// A large settled trace's pages are stored by its first read (migration
// 20261205010000_stored_span_pages says how they stay exact) and sent from there after:
// building them costs the database ~30 us of CPU per span, sending stored text a tenth.
// A trace still RUNNING is not stored: its spans still change, and each change would
// throw the pages away. A claim whose read died is taken over after this long.
const STORED_CLAIM_EXPIRES = raw("interval '60 seconds'");
const storedStateSql = (id: string) => sql`
SELECT t."status" <> 'RUNNING' AS settled,
       h."traceId" IS NOT NULL AND h."token" IS NULL AS ready,
       h."traceId" IS NULL OR (h."token" IS NOT NULL AND h."claimedAt" < now() - ${STORED_CLAIM_EXPIRES}) AS claimable
  FROM "Trace" t LEFT JOIN "StoredSpanPages" h ON h."traceId" = t."id"
 WHERE t."id" = ${id}`;
const claimSql = (id: string, token: string) => sql`
INSERT INTO "StoredSpanPages" ("traceId", "token") VALUES (${id}, ${token})
ON CONFLICT ("traceId") DO UPDATE SET "token" = excluded."token", "claimedAt" = now()
 WHERE "StoredSpanPages"."token" IS NOT NULL AND "StoredSpanPages"."claimedAt" < now() - ${STORED_CLAIM_EXPIRES}
RETURNING 1 AS claimed`;
const storedPagesSql = (id: string) => sql`
SELECT count(p."page")::int AS pages
  FROM "StoredSpanPages" h LEFT JOIN "StoredSpanPage" p ON p."traceId" = h."traceId"
 WHERE h."traceId" = ${id} AND h."token" IS NULL
 GROUP BY h."traceId"`;
const storedPageSql = (id: string, page: number) => sql`SELECT "spans" FROM "StoredSpanPage" WHERE "traceId" = ${id} AND "page" = ${page}`;
// The isolation of a paged read, and the import of its snapshot by the second connection.
const REPEATABLE_READ_SQL = sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`;
const SNAPSHOT_ID = /^[0-9A-F]+-[0-9A-F]+(-[0-9]+)?$/i;
/** SET TRANSACTION SNAPSHOT takes no parameter: the id pg_export_snapshot gave, checked to be one, is spelled in the text. */
function setSnapshotSql(snapshot: string): Sql {
  if (!SNAPSHOT_ID.test(snapshot)) throw new Error(`unexpected snapshot id ${JSON.stringify(snapshot)}`);
  return sql`SET TRANSACTION SNAPSHOT '${raw(snapshot)}'`;
}
// PostgreSQL's lock_not_available: the trace row is locked by a span writer right now.
const LOCK_NOT_AVAILABLE = '55P03';

interface Head {
  trace: string;
  decisionPoints: string;
  events: string;
  spanCount: number;
  spans: string | null;
}

type PageStart = { startedAt: Date; id: string };

/** The trace's JSON in pieces, text or its UTF-8 bytes, in order; joined, they are a TraceDetail. */
export type TraceJsonChunks = AsyncIterable<string | Uint8Array>;

/** A large read sent stored pages, built and stored them, or built them only. */
export type StoredPagesOutcome = 'sent stored' | 'stored' | 'built';

export interface TraceJsonOptions {
  /** Spans per page for a trace read in pages (tests use small pages on small traces). */
  pageSpans?: number;
  /** Largest trace read in one statement. */
  spansInOneStatement?: number;
  /** Called when a large read has settled: what it did with stored pages (tests). */
  onSettled?: (outcome: StoredPagesOutcome) => void;
}

/**
 * The trace as JSON text chunks, built by the database: a small trace in one statement, a
 * large one in pages of spans read in one snapshot, each yielded as soon as it is read.
 * An unknown or invalid id throws before the first chunk.
 */
export async function streamTraceJsonOrThrow(ctx: ServiceContext, id: string, options: TraceJsonOptions = {}): Promise<TraceJsonChunks> {
  requireScope(ctx, 'read');
  return traceJsonChunks(ctx.db, id, options);
}

/** The trace as the JSON text of a TraceDetail, built by the database. */
export async function getTraceJsonOrThrow(ctx: ServiceContext, id: string, options: TraceJsonOptions = {}): Promise<string> {
  requireScope(ctx, 'read');
  return joinChunks(await traceJsonChunks(ctx.db, id, options));
}

async function joinChunks(chunks: TraceJsonChunks): Promise<string> {
  const parts: string[] = [];
  // Each chunk of bytes is whole values' text, so it decodes on its own.
  for await (const part of chunks) parts.push(typeof part === 'string' ? part : Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('utf8'));
  return parts.join('');
}

async function traceJsonChunks(db: Database, id: string, options: TraceJsonOptions): Promise<TraceJsonChunks> {
  if (!isValidTraceId(id)) throw new AppError('VALIDATION', 'Invalid trace ID');
  const oneStatementUpTo = options.spansInOneStatement ?? SPANS_IN_ONE_STATEMENT;
  const [head] = await db.sql.query<Head>(detailSql(id, oneStatementUpTo));
  if (!head) throw new AppError('NOT_FOUND', 'Trace not found');
  const scores = (await scoresOfTraces(db.sql, [id])).get(id);
  if (head.spans !== null) return oneChunk(withScores(traceJsonText(head.trace, head.decisionPoints, head.spans, head.events), scores));
  const release = await processBudget('large detail reads', LARGE_READS_AT_ONCE).acquire(1, getLimits().admissionWaitMs);
  let read: PagedRead | null;
  try {
    // Scores on spans go inside the span objects: such a trace is built each time.
    const withIds = scores !== undefined && scores.spans.size > 0;
    const claim = withIds ? null : await claimStoredPages(db, id);
    read = await readInPages(db, id, options.pageSpans ?? PAGE_SPANS, withIds ? scores : undefined, claim, options);
  } catch (err) {
    release();
    throw err;
  }
  if (!read) {
    // Deleted since the first statement: as if it had not been found.
    release();
    throw new AppError('NOT_FOUND', 'Trace not found');
  }
  void read.done.then(release, release);
  return pagedChunks(read, scores);
}

/**
 * Claims the filling of the trace's stored pages when it is settled and has none (nor a
 * live claim): the token the pages are stored under, or null. The claim commits before
 * the read's snapshot is taken, so any span writer that snapshot misses deletes it.
 */
async function claimStoredPages(db: Database, id: string): Promise<string | null> {
  const [state] = await db.sql.query<{ settled: boolean; ready: boolean; claimable: boolean }>(storedStateSql(id));
  if (!state || !state.settled || state.ready || !state.claimable) return null;
  const token = randomUUID();
  try {
    return await db.sql.transaction(async (tx) => {
      // NOWAIT: a span writer holds the row (FOR KEY SHARE) until it commits; this read
      // does not wait for it, it just does not store.
      const locked = await tx.query(sql`SELECT 1 FROM "Trace" WHERE "id" = ${id} FOR UPDATE NOWAIT`);
      if (locked.length === 0) return null;
      if ((await tx.query(claimSql(id, token))).length === 0) return null;
      await tx.query(sql`DELETE FROM "StoredSpanPage" WHERE "traceId" = ${id}`);
      return token;
    });
  } catch (err) {
    if ((err as { code?: string }).code === LOCK_NOT_AVAILABLE) return null;
    throw err;
  }
}

/** Stores the pages a claimed read built, if no span writer has deleted the claim since. */
async function storePages(db: Database, id: string, token: string, pages: Uint8Array[]): Promise<boolean> {
  return db.sql.transaction(async (tx) => {
    const claimed = await tx.query(sql`UPDATE "StoredSpanPages" SET "token" = NULL WHERE "traceId" = ${id} AND "token" = ${token} RETURNING 1 AS claimed`);
    if (claimed.length === 0) return false;
    // A statement per page: PGlite's WASM memory grows to the largest message it is sent
    // and never shrinks, so one 16 MB INSERT would stay in the server's memory for good.
    for (const [page, spans] of pages.entries()) {
      await tx.queryBytes(sql`INSERT INTO "StoredSpanPage" ("traceId", "page", "spans") VALUES (${id}, ${page}, ${spans})`);
    }
    return true;
  });
}

/** Gives up a claim whose read failed, so the next read may fill. */
async function dropClaim(db: Database, id: string, token: string): Promise<void> {
  await db.sql.query(sql`DELETE FROM "StoredSpanPages" WHERE "traceId" = ${id} AND "token" = ${token}`);
}

async function* oneChunk(text: string): TraceJsonChunks {
  yield text;
}

interface PagedRead {
  head: Head;
  /** Each page's spans as JSON objects joined by commas (UTF-8), in order. */
  pages: Array<Promise<Uint8Array>>;
  /** Settles when every page has been read and the snapshot released. */
  done: Promise<void>;
}

async function* pagedChunks(read: PagedRead, scores: ScoresOfTrace | undefined): TraceJsonChunks {
  const { head } = read;
  const decisionPoints = scores && scores.decisionPoints.size > 0 ? decisionPointsWithScores(head.decisionPoints, scores) : head.decisionPoints;
  // trace is a JSON object text: its children go before its closing brace.
  yield `${head.trace.slice(0, -1)}, "decisionPoints": ${decisionPoints}, "spans": [`;
  let first = true;
  for (const page of read.pages) {
    const bytes = await page;
    if (bytes.byteLength === 0) continue;
    if (!first) yield ',';
    yield bytes;
    first = false;
  }
  const traceScores = scores && scores.trace.length > 0 ? `, "scores": ${JSON.stringify(scores.trace)}` : '';
  yield `], "events": ${head.events}${traceScores}}`;
}

/**
 * Reads the trace's head and its span pages in one REPEATABLE READ snapshot, each page
 * resolved as soon as it is read: stored pages when the snapshot has them ready, else
 * built, on PostgreSQL on two connections (the second imports the first's snapshot), and
 * stored afterwards when this read holds the claim. Null when the trace is gone by then.
 */
function readInPages(
  db: Database,
  id: string,
  pageSpans: number,
  scores: ScoresOfTrace | undefined,
  claim: string | null,
  options: TraceJsonOptions,
): Promise<PagedRead | null> {
  const lanes = db.kind === 'postgres' ? 2 : 1;
  return new Promise((resolveRead, rejectRead) => {
    const pages: Array<Deferred<Uint8Array>> = [];
    let started = false;
    let built = false;
    const read = db.sql.transaction(async (tx) => {
      await tx.query(REPEATABLE_READ_SQL);
      const [head] = await tx.query<Head>(detailSql(id, -1));
      if (!head) return resolveRead(null);
      const [stored] = scores ? [] : await tx.query<{ pages: number }>(storedPagesSql(id));
      if (stored) {
        for (let i = 0; i < stored.pages; i++) pages.push(deferred());
        started = true;
        resolveRead({ head, pages: pages.map((p) => p.promise), done });
        for (let i = 0; i < stored.pages; i++) pages[i].resolve(firstValue(await tx.queryBytes(storedPageSql(id, i))));
        return;
      }
      built = true;
      const starts = await tx.query<PageStart>(pageStartsSql(id, pageSpans));
      const snapshot = lanes > 1 && starts.length > 1 ? (await tx.query<{ s: string }>(sql`SELECT pg_export_snapshot() AS s`))[0].s : null;
      for (let i = 0; i < starts.length; i++) pages.push(deferred());
      started = true;
      resolveRead({ head, pages: pages.map((p) => p.promise), done });
      const lane = async (exec: SqlExecutor, from: number, step: number) => {
        for (let i = from; i < starts.length; i += step) {
          pages[i].resolve(await readPage(exec, id, starts[i], starts[i + 1], scores));
        }
      };
      if (snapshot === null) return lane(tx, 0, 1);
      await Promise.all([
        lane(tx, 0, 2),
        db.sql.transaction(async (other) => {
          await other.query(REPEATABLE_READ_SQL);
          await other.query(setSnapshotSql(snapshot));
          await lane(other, 1, 2);
        }),
      ]);
    });
    // The pages this read built are stored once all are read (the response may still be
    // sending them); the claim is given up when the read failed or found pages stored.
    const done: Promise<void> = read
      .then(async (): Promise<StoredPagesOutcome> => {
        if (!built) {
          if (claim !== null) await dropClaim(db, id, claim);
          return 'sent stored';
        }
        if (claim === null) return 'built';
        const bytes = await Promise.all(pages.map((p) => p.promise));
        return (await storePages(db, id, claim, bytes.filter((page) => page.byteLength > 0))) ? 'stored' : 'built';
      })
      .then((outcome) => options.onSettled?.(outcome));
    read.catch((err: unknown) => {
      if (!started) rejectRead(err);
      for (const page of pages) page.reject(err);
      if (claim !== null) dropClaim(db, id, claim).catch(() => undefined);
    });
  });
}

async function readPage(exec: SqlExecutor, id: string, from: PageStart, to: PageStart | undefined, scores: ScoresOfTrace | undefined): Promise<Uint8Array> {
  const range = pageRange(id, from, to);
  if (!scores) return firstValue(await exec.queryBytes(pageSql(range)));
  const rows = await exec.query<{ id: string; span: string }>(pageRowsSql(range));
  return Buffer.from(rows.map((row) => withScoresOn(row.span, scores.spans.get(row.id))).join(','), 'utf8');
}

/** The first row's first value of a statement that always answers one non-NULL value. */
function firstValue(rows: Array<Array<Uint8Array | null>>): Uint8Array {
  const value = rows[0]?.[0];
  if (!value) throw new Error('expected one value');
  return value;
}

/** A JSON object's text with a `scores` key appended, when there are any. */
function withScoresOn(objectText: string, scores: ScoreRecord[] | undefined): string {
  return scores ? `${objectText.slice(0, -1)}, "scores": ${JSON.stringify(scores)}}` : objectText;
}

function decisionPointsWithScores(arrayText: string, scores: ScoresOfTrace): string {
  const decisions = JSON.parse(arrayText) as Array<{ id: string; scores?: ScoreRecord[] }>;
  for (const decision of decisions) {
    const of = scores.decisionPoints.get(decision.id);
    if (of) decision.scores = of;
  }
  return JSON.stringify(decisions);
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A page nobody awaits any more (the reader stopped) must not be an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * The trace's JSON with its scores on the trace, spans and decision points that have any.
 * Most traces have none: then the text is sent as built, unparsed.
 */
function withScores(text: string, scores: ScoresOfTrace | undefined): string {
  if (!scores) return text;
  const trace = JSON.parse(text) as TraceDetail;
  attachScores(trace, scores);
  return JSON.stringify(trace);
}

/** A TraceDetail's JSON text from the trace object's and its child arrays' (export builds many at once). */
export function traceJsonText(trace: string, decisionPoints: string, spans: string, events: string): string {
  // trace is a JSON object text: append the children before its closing brace.
  return `${trace.slice(0, -1)}, "decisionPoints": ${decisionPoints}, "spans": ${spans}, "events": ${events}}`;
}

export async function getTraceOrThrow(ctx: ServiceContext, id: string): Promise<TraceDetail> {
  return JSON.parse(await getTraceJsonOrThrow(ctx, id)) as TraceDetail;
}

/**
 * The trace a writer has just saved, as stored: SOAP's save answers with the record it
 * wrote, so this needs the ingest scope, not read. Only a save's answer calls it.
 */
export async function getSavedTraceOrThrow(ctx: ServiceContext, id: string): Promise<TraceDetail> {
  requireScope(ctx, 'ingest');
  return JSON.parse(await joinChunks(await traceJsonChunks(ctx.db, id, {}))) as TraceDetail;
}
