// Stores a validated batch on the raw driver: every table's rows are inserted by one
// statement of data-modifying CTEs, so a failure stores nothing and a batch costs one
// round trip. A large batch is stored as several such statements, each a run of whole
// traces, in one transaction (see STATEMENT_CHARS).
//
// Why this shape (measured with `npm run bench`, 100-trace batches of 7,100 records and
// 8.9 MB): Prisma's createMany reached ~1.2-2k records/s; one json_to_recordset INSERT
// per table through a Prisma transaction reached ~24k records/s, 0.37-0.42 of a raw
// multi-row INSERT, because the server's one JavaScript thread spent ~285 ms a batch
// re-serialising the payloads it had just parsed (JSON.stringify of every row 54 ms,
// Prisma's parameter handling 46 ms, the garbage of both 49 ms). Now:
// - the any-JSON payloads (span input/output, metadata, decision options...) are never
//   re-serialised: PostgreSQL reads them from the request's own JSON text (a statement's
//   traces as written), sent once as a jsonb parameter and addressed by path (`#>` walks
//   the document in place);
// - the other columns (ids, names, enums, numbers, dates) travel as one small JSON
//   array per table, written from the validated values, so dates and numbers are stored
//   exactly as validation understood them;
// - the raw driver (pg or PGlite) sends both as text, with no per-value processing.
// The same SQL runs on PGlite and PostgreSQL. Where the time goes, and why this stays
// below COPY, is in docs/benchmarks.md.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { clampNumber } from '@/lib/core/limits';
import { spanCost } from '@/lib/features/pricing';
import type { CustomPrice } from '@/lib/features/pricing/shared';
import type { SqlExecutor } from '@/lib/db/executor';
import { isUniqueViolation } from '@/lib/db/errors';
import { join, param, raw, sql, type Param, type Sql } from '@/lib/db/sql';
import { columnNames, columnValues, DECISION_POINT_TABLE, EVENT_TABLE, recordDefinition, SPAN_TABLE, TRACE_TABLE, type Column, type TableColumns } from '@/lib/db/columns';
import { iso, spanRow } from './rows';
import { plainPayloadNumbers, traceWordsAsWritten } from '@/lib/features/search';
import { runText, traceRanges, traceRuns, type TraceRange, type TraceRun } from './batch-chunks';
import { storableJson, type TraceInput, type ValidatedBatch } from './validate';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { actorKey, type Actor } from '@/lib/core/access/decide';
import { ingestWriter } from '@/lib/features/scores/shared';
import { readConfigsByName } from '@/lib/features/scores/shared';
import { feedbackScore } from '@/lib/features/scores/shared';
import { scoreRow, upsertScoresSql, type ScoreRow } from '@/lib/features/scores';
import { BATCH_REWRITE_RULE, checkRewrites } from '@/lib/features/scores';
import { checkScoresFitConfigs } from '@/lib/features/scores/shared';
import { checkTraceLinks, storeRunLinks, type ExperimentLink } from '@/lib/features/experiments';

interface TableSpec extends TableColumns {
  /** The child array of a trace in the request (null: the trace itself). */
  children: 'decisionPoints' | 'spans' | 'events' | null;
}

// The registry's columns (lib/db/columns.ts), each table fed from its array in the request.
// Children come first, the trace last: the per-status count trigger (trace_status_counts
// migration) fires on the trace insert and locks its counter rows only until the commit.
const TABLES = {
  DecisionPoint: { ...DECISION_POINT_TABLE, children: 'decisionPoints' },
  Span: { ...SPAN_TABLE, children: 'spans' },
  Event: { ...EVENT_TABLE, children: 'events' },
  Trace: { ...TRACE_TABLE, children: null },
} as const satisfies Record<string, TableSpec>;

type Table = keyof typeof TABLES;
const ORDER: readonly Table[] = ['DecisionPoint', 'Span', 'Event', 'Trace'];

// Each row carries its position in the request: `i` the trace, `j` the child.
const POSITION: readonly Column[] = [
  ['i', 'int4'],
  ['j', 'int4'],
];

function positionColumns(spec: TableSpec): readonly Column[] {
  return spec.children ? POSITION : POSITION.slice(0, 1);
}

/**
 * The SELECT that feeds one table from its rows and the request's text. The text is typed
 * jsonb, so PostgreSQL parses it once, when the statement's parameters are bound (one
 * parameter, read by every table); a CTE holding it instead spilled the 9 MB to a temp
 * file and read it back per table.
 */
function selectRows(spec: TableSpec, rows: string, request: Param): Sql {
  const path = raw(spec.children ? `'traces', r.i::text, '${spec.children}', r.j::text` : `'traces', r.i::text`);
  // JSON null and an absent field are both stored as SQL NULL and read back as null.
  const payloads = spec.payloads.map((field) => sql`, NULLIF(${request}::jsonb #> ARRAY[${path}, ${raw(`'${field}'`)}], 'null'::jsonb)`);
  return sql`SELECT ${raw(columnValues(spec, 'r'))}${join(payloads, '')} FROM json_to_recordset(${rows}::json) AS r(${raw(recordDefinition(spec, positionColumns(spec)))})`;
}

function insertInto(table: Table, rows: string, request: Param): Sql {
  return sql`INSERT INTO ${raw(`"${table}" (${columnNames(TABLES[table])})`)} ${selectRows(TABLES[table], rows, request)}`;
}

/**
 * One statement storing a run of traces: `json` the request's JSON text (the run's traces
 * as written), `rows` ORDER's tables' rows and then the scores' rows (sent with the traces,
 * and derived from USER_FEEDBACK events, upserted by id). One row back per trace stored
 * (see store).
 *
 * With `words`, each trace's search words (its distinct words as written, from
 * ./trace-words.ts) are written to "SearchDoc" in the statement instead of queueing the
 * traces for the indexer. The RETURNING then marks the statement for the search queue's
 * trigger (migration search_words_at_ingest): it runs before the statement's AFTER
 * triggers. OFFSET 0 keeps crossroads_search_words computed once per trace.
 */
function ingestSql(json: string, rows: readonly string[], words: string | null): Sql {
  const request = param(json);
  const children = ORDER.slice(0, -1).map((table, k) => sql`${raw(`"${table}Rows"`)} AS (${insertInto(table, rows[k], request)})`);
  const scores = sql`"ScoreRows" AS (${upsertScoresSql(rows[ORDER.length])})`;
  const trace = insertInto('Trace', rows[ORDER.length - 1], request);
  if (words === null) return sql`WITH ${join([...children, scores], ',\n')}\n${trace} RETURNING 1 AS stored`;
  return sql`WITH ${join([...children, scores], ',\n')},
  "SearchDocRows" AS (INSERT INTO "SearchDoc" ("traceId", "words")
    SELECT w."traceId", w."words" FROM (
      SELECT d."traceId", "crossroads_search_words"(d."words") AS "words"
        FROM json_to_recordset(${words}::json) AS d("traceId" text, "words" text) OFFSET 0) w
     WHERE w."words" IS NOT NULL)
${trace}
RETURNING set_config('crossroads.search_words_at', CASE WHEN clock_timestamp() > statement_timestamp() THEN statement_timestamp()::text ELSE '' END, true) AS stored`;
}

// The rows parameters. Each row is an object literal holding exactly its table's
// `columns` plus its position (a missing column would be stored as NULL, which the
// route tests' field-by-field round trip catches). Literals of strings and numbers keep
// JSON.stringify on its fast path: generic copies by column name, or Date values left
// for it to convert, made this ~84 ms instead of ~10 ms for a 100-trace batch.
function rowsJson(traces: readonly TraceInput[], prices: readonly CustomPrice[]): string[] {
  const rows: Record<Table, object[]> = { DecisionPoint: [], Span: [], Event: [], Trace: [] };
  traces.forEach((t, i) => {
    const traceId = t.id;
    // The trace's cost is the client's totalCost when sent; else, when a span's cost was
    // computed here, the sum of its spans' costs (each model call once), as OTLP keeps it.
    // Its tokens likewise: the client's totalTokens, else the sum of its spans' token
    // counts (each model call once), null when no span has one. A JSON trace is stored
    // whole by one request (its id again is a conflict, OTLP spans for it are refused),
    // so the sum is final.
    let spanCosts = 0;
    let computed = false;
    let spanTokens: number | null = null;
    let unpricedCalls = 0;
    t.decisionPoints.forEach((d, j) =>
      rows.DecisionPoint.push({
        i,
        j,
        traceId,
        id: d.id,
        type: d.type,
        reasoning: d.reasoning,
        durationMs: d.durationMs,
        costUsd: d.costUsd,
        parentSpanId: d.parentSpanId,
        timestamp: iso(d.timestamp),
      }),
    );
    t.spans.forEach((s, j) => {
      const cost = spanCost(s, prices);
      if (cost.counted && cost.costUsd !== null) spanCosts += cost.costUsd;
      if (cost.costSource === 'catalog' || cost.costSource === 'custom') computed = true;
      if (cost.unpriced) unpricedCalls++;
      if (cost.counted && s.tokenCount !== null) spanTokens = (spanTokens ?? 0) + s.tokenCount;
      rows.Span.push({ i, j, ...spanRow(traceId, s, cost) });
    });
    t.events.forEach((e, j) =>
      rows.Event.push({ i, j, traceId, id: e.id, spanId: e.spanId, type: e.type, name: e.name, timestamp: iso(e.timestamp) }),
    );
    rows.Trace.push({
      i,
      id: t.id,
      name: t.name,
      sessionId: t.sessionId,
      userId: t.userId,
      status: t.status,
      tags: t.tags,
      totalCost: t.totalCost ?? (computed ? spanCosts : null),
      totalTokens: t.totalTokens ?? (spanTokens === null ? null : clampNumber(spanTokens, 'tokens')),
      totalDuration: t.totalDuration,
      unpricedCalls,
      startedAt: iso(t.startedAt),
      endedAt: iso(t.endedAt),
      decisionPointCount: t.decisionPoints.length,
      spanCount: t.spans.length,
      eventCount: t.events.length,
    });
  });
  return ORDER.map((table) => JSON.stringify(rows[table]));
}

// The request text passed JSON.parse and validation, but PostgreSQL's jsonb input is
// stricter in places validation does not look (fields the API ignores, or numbers like
// 1e-999999 that JavaScript reads as 0): a \u0000 or unpaired-surrogate escape (22P05,
// 22P02), a number outside numeric's range (22003). jsonb input is the only thing in the
// statement that can fail so, and validation already refused those in stored fields.
const JSONB_INPUT_ERRORS = new Set(['22P05', '22P02', '22003']);

/** The score rows of a batch: those sent with its traces (SDK) and those its USER_FEEDBACK events give (FEEDBACK). */
function scoreRowsJson(traces: readonly TraceInput[], actor: Actor): string {
  const rows: ScoreRow[] = [];
  const sdk = ingestWriter(actor, 'SDK');
  const feedback = ingestWriter(actor, 'FEEDBACK');
  for (const t of traces) {
    for (const score of t.scores) rows.push(scoreRow(score, sdk));
    let spanIds: Set<string> | undefined;
    for (const event of t.events) {
      if (event.type !== 'USER_FEEDBACK') continue;
      spanIds ??= new Set(t.spans.map((s) => s.id));
      const score = feedbackScore(t.id, event, (id) => spanIds!.has(id));
      if (score) rows.push(scoreRow(score, feedback));
    }
  }
  return JSON.stringify(rows);
}

/**
 * Each trace's distinct words as written; null when one of them cannot be known exactly
 * here (then the batch is queued for the indexer, as other writers are).
 */
function searchWords(batch: ValidatedBatch, atIngest: boolean): string[] | null {
  if (!atIngest || !plainPayloadNumbers(batch.json)) return null;
  const words: string[] = [];
  for (const t of batch.traces) {
    const w = traceWordsAsWritten(t);
    if (w === undefined) return null;
    words.push(w);
  }
  return words;
}

/** The words parameter of the run's statement. */
function searchWordsJson(traces: readonly TraceInput[], words: readonly string[], run: TraceRun): string {
  const rows: { traceId: string; words: string }[] = [];
  for (let i = run.from; i < run.to; i++) rows.push({ traceId: traces[i].id, words: words[i] });
  return JSON.stringify(rows);
}

// The request text a statement carries at most (unless one trace is longer): PGlite's WASM
// memory grows to the largest statement it has run and keeps that size for good, and
// statements of this size leave it at its initial size. On PostgreSQL it keeps the rows the
// statement-level triggers see (transition tables) within work_mem instead of spilling to a
// temporary file, which costs less database CPU than one statement per batch.
const STATEMENT_CHARS = 1_000_000;

/** One statement's parameters: the JSON text is cut from the request's as it is sent. */
interface Statement {
  run: TraceRun;
  rows: string[];
  words: string | null;
}

export interface IngestOptions {
  /** Request text per statement (tests cut small batches into several statements). */
  statementChars?: number;
}

/** Stores every trace of the batch with its children and scores, or none; returns how many traces were stored. */
export async function ingestTraces(ctx: ServiceContext, batch: ValidatedBatch, options: IngestOptions = {}): Promise<number> {
  const actor = requireScope(ctx, 'ingest');
  const sql = ctx.db.sql;
  const sent = batch.traces.flatMap((t) => t.scores);
  if (sent.length > 0) checkScoresFitConfigs(sent, await readConfigsByName(sql, sent.map((s) => s.name)));
  await checkRewrites(sql, sent, { authorKey: actorKey(actor), anyAuthor: false, rule: BATCH_REWRITE_RULE });
  const maxChars = options.statementChars ?? STATEMENT_CHARS;
  const found = batch.json.length > maxChars ? traceRanges(batch.json) : null;
  // The text is the body the traces were validated from, so it has one range per trace.
  const ranges = found?.length === batch.traces.length ? found : null;
  const runs = ranges ? traceRuns(ranges, maxChars) : [{ from: 0, to: batch.traces.length }];
  // From here on only the text and the rows are needed, so the parsed body (~40 MB for a
  // 100-trace batch) can be collected while the database stores it.
  const prices = ctx.config.modelPrices;
  const words = searchWords(batch, ctx.config.searchWordsAtIngest);
  const statements = runs.map((run): Statement => {
    const traces = batch.traces.slice(run.from, run.to);
    return {
      run,
      rows: [...rowsJson(traces, prices), scoreRowsJson(traces, actor)],
      words: words && searchWordsJson(batch.traces, words, run),
    };
  });
  return store(sql, batch.json, ranges, statements, batch.traces.length, experimentLinks(batch.traces));
}

/** The experiment runs the batch's traces say they are, with where each was named. */
function experimentLinks(traces: readonly TraceInput[]): Array<ExperimentLink & { path: string }> {
  return traces.flatMap((t, i) =>
    t.experiment ? [{ experimentId: t.experiment.id, itemId: t.experiment.itemId, repetition: t.experiment.repetition, traceId: t.id, path: `traces[${i}].experiment` }] : [],
  );
}

async function store(
  sql: SqlExecutor,
  text: string,
  ranges: TraceRange[] | null,
  statements: Statement[],
  traces: number,
  links: ReadonlyArray<ExperimentLink & { path: string }>,
): Promise<number> {
  const storeOnce = async (exec: SqlExecutor, json: string, statement: Statement, withWords: boolean) => {
    const { rows, words, run } = statement;
    // Prepared once per connection: planning the statement's CTEs took 10-50 ms a batch.
    const stored = await exec.query(ingestSql(json, rows, withWords ? words : null), { prepared: withWords ? 'json_ingest_words' : 'json_ingest' });
    // Each statement is atomic; a short count means the driver lost the outcome (as
    // PGlite does on too-deep jsonb, see validate.ts), and a success must never be claimed for it.
    const expected = run.to - run.from;
    if (stored.length !== expected) throw new Error(`ingest statement reported ${stored.length} of ${expected} traces stored`);
  };
  // Every statement from one text; several, or experiment run links after them, run in one
  // transaction, so a failure in any stores nothing.
  const storeAll = async (json: string, jsonRanges: TraceRange[] | null, withWords: boolean) => {
    if (statements.length === 1 && links.length === 0) return storeOnce(sql, json, statements[0], withWords);
    await sql.transaction(async (tx) => {
      await checkTraceLinks(tx, links);
      if (statements.length === 1) await storeOnce(tx, json, statements[0], withWords);
      else for (const statement of statements) await storeOnce(tx, runText(json, jsonRanges!, statement.run), statement, withWords);
      await storeRunLinks(tx, links);
    });
  };
  try {
    try {
      await storeAll(text, ranges, statements[0].words !== null);
    } catch (err) {
      if (!JSONB_INPUT_ERRORS.has((err as { code?: string } | null)?.code ?? '')) throw err;
      // Nothing was stored: store from the validated values instead, and leave the words
      // to the indexer (they were read from the text refused).
      const storable = storableJson(text);
      await storeAll(storable, statements.length > 1 ? traceRanges(storable) : null, false);
    }
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'Duplicate trace ID detected');
    throw err;
  }
  return traces;
}
