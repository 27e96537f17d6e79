// Stores spans that arrive piecemeal (OTLP): exporters send each span when it ends, in
// any order, one by one or in batches, and resend on failure. So children are upserted
// by (trace id, child id): a span sent twice is stored once. The trace row exists from
// its first span (RUNNING) and is kept true as they arrive: counts, tokens, cost and
// unpriced model calls grow by exactly what each request newly stored (a model call
// reported twice, metadata.duplicateOf, adds its tokens and cost once), startedAt is the earliest span start, and
// the root span (no parent) fixes name, status, end and duration whenever it comes.
//
// In one transaction, children first and the trace rows last, as POST /api/traces does:
// 1. read the traces' owners and counts (no lock): spans of a trace the JSON API created
//    are refused (its seed-contract semantics stand), and so are spans that would take a
//    trace past the per-trace limits;
// 2. the children, in chunks of whole traces (STORE_CHUNK_SPANS spans or more): one
//    statement per chunk inserts its spans, decision points and events with ON CONFLICT
//    DO NOTHING (sorted by key, and the chunks in trace id order, so concurrent requests
//    wait on each other's rows in one order and cannot deadlock; a span a concurrent
//    request is inserting is waited for, then skipped) and returns per trace what it
//    inserted (RETURNING). The statements are pipelined: a chunk is sent as soon as it is
//    mapped, and the next one is mapped while the database stores it, so a request costs
//    about the larger of the server's and the database's work rather than their sum;
// 3. one statement upserts each trace row adding exactly what was inserted, with the
//    root's fields when the root is here. The trace rows and the per-status counters are
//    locked only from this statement to commit: requests for different traces do not
//    queue behind each other for the whole request (measured: 4 clients' OTLP requests
//    ran one at a time when the trace row was written first, docs/benchmarks.md).
// Between 2 and 3 the transport may compare this request's model calls with the trace's
// other spans (a call reported twice, its reports sent apart) under a lock of its own per
// trace, and take the copies it finds out of what step 3 adds: the trace row is written
// once per request (its insights triggers count this transaction's children on that write).
// A JSON batch that creates the same trace id between 1 and 3 leaves the upsert with a
// row it must not touch: the transaction is rolled back and run again, and step 1 then
// refuses those spans.
import 'server-only';
import { getModelPrices } from '@/lib/core/config';
import { spanCost } from '@/lib/features/pricing';
import type { CustomPrice } from '@/lib/features/pricing/shared';
import type { SqlExecutor } from '@/lib/db/executor';
import { join, param, raw, sql, type Param, type Sql } from '@/lib/db/sql';
import { columnNames, columnValues, recordDefinition, SPAN_TABLE } from '@/lib/db/columns';
import { iso, spanRow } from './rows';
import type { Actor } from '@/lib/core/access/decide';
import { ingestWriter, type ScoreWriter } from '@/lib/features/scores/shared';
import { feedbackScore } from '@/lib/features/scores/shared';
import { scoreRow, upsertScoresSql, type ScoreRow } from '@/lib/features/scores';
import type { LazySpanBatch, SpanBatchTrace, SpanRejection } from './span-batch';
import type { JsonValue, RunStatus } from '@/lib/features/traces/shared';
import type { SpanInput } from './validate';

export interface SpanBatchLimits {
  /** Decision points, spans and events per trace, each, over all requests. */
  maxChildrenPerTrace: number;
}

/** A stored model call sent without its input or output (a transport may have them elsewhere, e.g. log records). */
export interface SpanKey {
  traceId: string;
  spanId: string;
}

/** A model call (LLM_CALL with a token count) of a request, as mapped, stored by step 2 (its payloads left out). */
export interface StoredModelCall {
  traceId: string;
  span: Pick<SpanInput, 'id' | 'parentSpanId' | 'type' | 'startedAt' | 'endedAt' | 'metadata' | 'usage'>;
}

/** What a trace's totals count of the calls found to be copies of others. */
export interface UncountedCalls {
  tokens: number;
  cost: number;
  unpriced: number;
}

export interface SpanBatchOptions {
  /** Spans of this many records per statement. */
  chunkSpans?: number;
  /** Run in the batch's transaction once its rows are stored, with the model calls that came without input or output. */
  completeModelCalls?: (tx: SqlExecutor, spans: SpanKey[]) => Promise<void>;
  /** Who sent the spans: the author of the scores they carry. */
  actor?: Actor;
  /** Run in the batch's transaction before the trace rows are written: per trace, what the totals must no longer count. */
  compareModelCalls?: (tx: SqlExecutor, calls: StoredModelCall[]) => Promise<Map<string, UncountedCalls>>;
  /** MODEL_PRICES_FILE's prices (the caller's ctx.config.modelPrices); default: the process's. */
  prices?: readonly CustomPrice[];
}

export interface SpanBatchResult {
  /** Spans accepted (stored now, or already stored by an earlier request). */
  acceptedSpans: number;
  rejected: SpanRejection[];
}

const ownersSql = (traceIds: string[]): Sql => sql`
SELECT "id", "source", "spanCount", "decisionPointCount", "eventCount" FROM "Trace" WHERE "id" = ANY(${traceIds}::text[])`;

// Children's foreign keys are checked at commit: the trace row is written last.
const DEFER_FKS_SQL = sql`SET CONSTRAINTS "Span_traceId_fkey", "Event_traceId_fkey", "DecisionPoint_traceId_fkey" DEFERRED`;

// JSON null and an absent payload are both stored as SQL NULL, as POST /api/traces does.
const payload = (column: string) => `NULLIF(r."${column}", 'null'::jsonb)`;

// Span payloads (input, output, metadata: nearly all the bytes) travel apart, as one
// jsonb parameter (payloads) = [[input, output, metadata], ...] addressed by the row's index k:
// PostgreSQL parses it once, when binding, instead of json_to_recordset scanning the
// bytes as json and then each payload again as jsonb (the span statement took ~115 ms
// per 1,000 spans of 1-2 KB that way, against ~61 ms for a JSON batch of the same runs).
const spanPayloads = (payloads: Param) =>
  join(SPAN_TABLE.payloads.map((_, i) => sql`NULLIF(${payloads}::jsonb -> r."k" -> ${raw(String(i))}, 'null'::jsonb)`));

/** The statement of one chunk; its parameters are chunkRows' five JSON texts. */
function storeChunkSql([spans, decisions, events, payloadRows, apart]: readonly string[]): Sql {
  const payloads = param(payloadRows);
  return sql`
WITH s AS (
  INSERT INTO "Span" (${raw(columnNames(SPAN_TABLE))})
  SELECT ${raw(columnValues(SPAN_TABLE, 'r'))}, ${spanPayloads(payloads)}
    FROM json_to_recordset(${spans}::json) AS r(${raw(recordDefinition(SPAN_TABLE, [['k', 'int4']]))})
   ORDER BY r."traceId", r."id"
  ON CONFLICT ("traceId", "id") DO NOTHING
  RETURNING "traceId", "id", "tokenCount", "costUsd", "startedAt"
), d AS (
  INSERT INTO "DecisionPoint" ("traceId", "id", "type", "reasoning", "durationMs", "costUsd", "parentSpanId",
                               "timestamp", "inferred", "chosen", "alternatives", "contextSnapshot")
  SELECT r."traceId", r."id", r."type", r."reasoning", r."durationMs", r."costUsd", r."parentSpanId",
         r."timestamp", r."inferred", ${raw(payload('chosen'))}, COALESCE(r."alternatives", '[]'::jsonb), ${raw(payload('contextSnapshot'))}
    FROM json_to_recordset(${decisions}::json) AS r("traceId" text, "id" text, "type" "DecisionType", "reasoning" text,
         "durationMs" float8, "costUsd" float8, "parentSpanId" text, "timestamp" timestamptz, "inferred" boolean,
         "chosen" jsonb, "alternatives" jsonb, "contextSnapshot" jsonb)
   ORDER BY r."traceId", r."id"
  ON CONFLICT ("traceId", "id") DO NOTHING
  RETURNING "traceId"
), e AS (
  INSERT INTO "Event" ("traceId", "id", "spanId", "type", "name", "timestamp", "metadata")
  SELECT r."traceId", r."id", r."spanId", r."type", r."name", r."timestamp", ${raw(payload('metadata'))}
    FROM json_to_recordset(${events}::json) AS r("traceId" text, "id" text, "spanId" text, "type" "EventType", "name" text,
         "timestamp" timestamptz, "metadata" jsonb)
   ORDER BY r."traceId", r."id"
  ON CONFLICT ("traceId", "id") DO NOTHING
  RETURNING "traceId"
),
-- f: the few spans the totals treat apart (lib/features/pricing/span-cost.ts): double reports of a
-- model call, left out of tokens and cost, and unpriced model calls, counted.
f AS (SELECT * FROM json_to_recordset(${apart}::json) AS f("traceId" text, "id" text, "uncounted" boolean, "unpriced" boolean)),
sa AS (SELECT s."traceId", count(*) AS n, sum(s."tokenCount") FILTER (WHERE f."uncounted" IS NOT TRUE) AS tokens,
              sum(s."costUsd") FILTER (WHERE f."uncounted" IS NOT TRUE) AS cost, count(*) FILTER (WHERE f."unpriced") AS unpriced,
              min(s."startedAt") AS started
         FROM s LEFT JOIN f ON f."traceId" = s."traceId" AND f."id" = s."id" GROUP BY s."traceId"),
da AS (SELECT "traceId", count(*) AS n FROM d GROUP BY "traceId"),
ea AS (SELECT "traceId", count(*) AS n FROM e GROUP BY "traceId")
-- Only traces that had something inserted; the others add nothing.
SELECT "traceId", COALESCE(sa.n, 0)::int AS "spans", COALESCE(da.n, 0)::int AS "decisions", COALESCE(ea.n, 0)::int AS "events",
       sa.tokens, sa.cost, COALESCE(sa.unpriced, 0)::int AS unpriced, sa.started
  FROM sa FULL JOIN da USING ("traceId") FULL JOIN ea USING ("traceId")`;
}

// rows: one row per trace, with what the chunks inserted for it (zeros and nulls when nothing).
// A row's status is RUNNING unless the root span is in this request: the root is never RUNNING,
// so "EXCLUDED.status <> 'RUNNING'" below reads "this request holds the root".
const upsertTracesSql = (rows: string): Sql => sql`
INSERT INTO "Trace" AS t ("id", "name", "status", "tags", "startedAt", "endedAt", "totalDuration", "metadata", "sessionId",
                          "userId", "source", "lastSpanAt", "spanCount", "decisionPointCount", "eventCount", "totalTokens",
                          "totalCost", "unpricedCalls")
SELECT r."id", r."name", r."status", COALESCE(r."tags", '{}'), LEAST(r."startedAt", r."insertedStart"), r."endedAt",
       r."totalDuration", NULLIF(r."metadata", 'null'::jsonb), r."sessionId", r."userId", 'OTLP', now(),
       r."spans", r."decisions", r."events", r."tokens", r."cost", r."unpriced"
  FROM json_to_recordset(${rows}::json) AS r("id" text, "name" text, "status" "RunStatus", "startedAt" timestamptz,
       "endedAt" timestamptz, "totalDuration" float8, "metadata" jsonb, "sessionId" text, "userId" text, "tags" text[],
       "spans" int4, "decisions" int4, "events" int4, "tokens" float8, "cost" float8, "unpriced" int4, "insertedStart" timestamptz)
 ORDER BY r."id"
ON CONFLICT ("id") DO UPDATE SET
  "lastSpanAt" = now(),
  "spanCount" = t."spanCount" + EXCLUDED."spanCount",
  "decisionPointCount" = t."decisionPointCount" + EXCLUDED."decisionPointCount",
  "eventCount" = t."eventCount" + EXCLUDED."eventCount",
  -- Totals stay NULL until some span carries a figure, like a JSON trace that sends none.
  "totalTokens" = CASE WHEN EXCLUDED."totalTokens" IS NULL THEN t."totalTokens" ELSE COALESCE(t."totalTokens", 0) + EXCLUDED."totalTokens" END,
  "totalCost" = CASE WHEN EXCLUDED."totalCost" IS NULL THEN t."totalCost" ELSE COALESCE(t."totalCost", 0) + EXCLUDED."totalCost" END,
  "unpricedCalls" = t."unpricedCalls" + EXCLUDED."unpricedCalls",
  "startedAt" = LEAST(t."startedAt", EXCLUDED."startedAt"),
  "name" = CASE WHEN EXCLUDED."status" <> 'RUNNING' THEN EXCLUDED."name" ELSE t."name" END,
  "status" = CASE WHEN EXCLUDED."status" <> 'RUNNING' THEN EXCLUDED."status" ELSE t."status" END,
  "endedAt" = CASE WHEN EXCLUDED."status" <> 'RUNNING' THEN EXCLUDED."endedAt" ELSE t."endedAt" END,
  "totalDuration" = CASE WHEN EXCLUDED."status" <> 'RUNNING' THEN EXCLUDED."totalDuration" ELSE t."totalDuration" END,
  "metadata" = CASE WHEN EXCLUDED."status" <> 'RUNNING' THEN EXCLUDED."metadata" ELSE t."metadata" END,
  "userId" = CASE WHEN EXCLUDED."status" <> 'RUNNING' AND EXCLUDED."userId" IS NOT NULL THEN EXCLUDED."userId" ELSE t."userId" END,
  "sessionId" = CASE WHEN EXCLUDED."status" <> 'RUNNING' AND EXCLUDED."sessionId" IS NOT NULL THEN EXCLUDED."sessionId"
                     ELSE COALESCE(t."sessionId", EXCLUDED."sessionId") END,
  "tags" = CASE WHEN cardinality(EXCLUDED."tags") > 0 AND (EXCLUDED."status" <> 'RUNNING' OR cardinality(t."tags") = 0)
                THEN EXCLUDED."tags" ELSE t."tags" END
WHERE t."source" = 'OTLP'
RETURNING t."id"`;

interface TraceOwner {
  id: string;
  source: 'API' | 'OTLP';
  spanCount: number;
  decisionPointCount: number;
  eventCount: number;
}

/** A JSON batch took a trace id between the owner check and the upsert: run again. */
class TraceTakenMeanwhile extends Error {}

function tally(rejected: Map<string, number>, reason: string, count: number): void {
  if (count > 0) rejected.set(reason, (rejected.get(reason) ?? 0) + count);
}

/**
 * A chunk stores at least this many spans (whole traces), while the next chunk is mapped.
 * Measured with the bench's 1,000-span requests (docs/benchmarks.md): 50 overlapped more
 * at 1 client but cost the database more statements at 4; 250 overlapped less; 100 did
 * best at both.
 */
export const STORE_CHUNK_SPANS = 100;

/** What one chunk statement inserted for a trace. */
interface Inserted {
  traceId: string;
  spans: number;
  decisions: number;
  events: number;
  tokens: number | null;
  cost: number | null;
  unpriced: number;
  started: Date | string | null;
}

/**
 * Upserts the spans (with their events and decision points) of each trace, all in one
 * transaction. Spans of a trace the JSON API created, or that would take a trace past
 * the per-trace limits, are refused and reported; the rest are stored.
 */
export async function upsertSpanBatch(
  sql: SqlExecutor,
  batch: SpanBatchTrace[] | LazySpanBatch,
  limits: SpanBatchLimits,
  options: SpanBatchOptions = {},
): Promise<SpanBatchResult> {
  let lazy: LazySpanBatch;
  if (Array.isArray(batch)) {
    // In trace id order, as a lazy batch yields them: every request locks rows in one order.
    const sorted = [...batch].sort((a, b) => (a.traceId < b.traceId ? -1 : a.traceId > b.traceId ? 1 : 0));
    lazy = { traceIds: sorted.map((t) => t.traceId), traces: () => sorted };
  } else {
    lazy = batch;
  }
  if (lazy.traceIds.length === 0) return { acceptedSpans: 0, rejected: [] };
  for (let attempt = 1; ; attempt++) {
    try {
      return await sql.transaction((tx) => storeOnce(tx, lazy, limits, options));
    } catch (err) {
      if (!(err instanceof TraceTakenMeanwhile) || attempt === 2) throw err;
    }
  }
}

async function storeOnce(tx: SqlExecutor, batch: LazySpanBatch, limits: SpanBatchLimits, options: SpanBatchOptions): Promise<SpanBatchResult> {
  const chunkSpans = options.chunkSpans ?? STORE_CHUNK_SPANS;
  const rejected = new Map<string, number>();
  const withoutPayload: SpanKey[] = [];
  const modelCalls: StoredModelCall[] = [];
  const prices = options.prices ?? getModelPrices();
  const owners = await tx.query<TraceOwner>(ownersSql(batch.traceIds), { prepared: 'otlp_trace_owners' });
  const byId = new Map(owners.map((row) => [row.id, row]));
  await tx.query(DEFER_FKS_SQL);

  let acceptedSpans = 0;
  // The trace rows' fields only: a chunk's records are garbage once it is sent, instead of
  // the whole request's payloads staying alive (and being copied by the collector) until
  // the last statement.
  const storable: TraceFields[] = [];
  const scores: ScoreRow[] = [];
  const actor: Actor = options.actor ?? { kind: 'system', task: 'otlp' };
  const writers = { sdk: ingestWriter(actor, 'SDK'), feedback: ingestWriter(actor, 'FEEDBACK') };
  const inserted = new Map<string, Inserted>();
  // One statement at a time on the connection: the next chunk is mapped and serialised
  // while the database runs this one, then awaited before it is sent.
  let inFlight: Promise<Inserted[]> | undefined;
  const settle = async () => {
    if (inFlight) for (const row of await inFlight) inserted.set(row.traceId, row);
  };
  const send = async (chunk: SpanBatchTrace[]) => {
    const params = chunkRows(chunk, prices, withoutPayload, modelCalls);
    await settle();
    inFlight = tx.query<Inserted>(storeChunkSql(params), { prepared: 'otlp_store_chunk' });
    // Awaited by the next send or below; a failure meanwhile must not count as unhandled.
    inFlight.catch(() => undefined);
  };
  let chunk: SpanBatchTrace[] = [];
  let chunkSize = 0;
  for (const trace of batch.traces()) {
    if (trace.spans.length === 0) continue;
    const row = byId.get(trace.traceId);
    if (row?.source === 'API') {
      tally(rejected, 'trace id belongs to a trace sent whole to POST /api/traces', trace.spans.length);
    } else if (
      (row?.spanCount ?? 0) + trace.spans.length > limits.maxChildrenPerTrace ||
      (row?.eventCount ?? 0) + trace.events.length > limits.maxChildrenPerTrace ||
      (row?.decisionPointCount ?? 0) + trace.decisionPoints.length > limits.maxChildrenPerTrace
    ) {
      tally(
        rejected,
        `trace would exceed ${limits.maxChildrenPerTrace} spans, events or decision points (MAX_CHILDREN_PER_TRACE)`,
        trace.spans.length,
      );
    } else {
      storable.push(traceFieldsOf(trace));
      scores.push(...scoreRowsOf(trace, writers));
      acceptedSpans += trace.spans.length;
      chunk.push(trace);
      chunkSize += trace.spans.length;
      if (chunkSize >= chunkSpans) {
        await send(chunk);
        chunk = [];
        chunkSize = 0;
      }
    }
  }
  if (chunk.length > 0) await send(chunk);
  await settle();

  const result = { acceptedSpans, rejected: [...rejected].map(([reason, count]) => ({ reason, count })) };
  if (storable.length === 0) return result;
  if (options.compareModelCalls && modelCalls.length > 0) {
    for (const [traceId, less] of await options.compareModelCalls(tx, modelCalls)) {
      const row = inserted.get(traceId) ?? { traceId, spans: 0, decisions: 0, events: 0, tokens: null, cost: null, unpriced: 0, started: null };
      row.tokens = (row.tokens ?? 0) - less.tokens;
      if (less.cost !== 0) row.cost = (row.cost ?? 0) - less.cost;
      row.unpriced -= less.unpriced;
      inserted.set(traceId, row);
    }
  }
  const upserted = await tx.query(upsertTracesSql(traceRows(storable, inserted)), { prepared: 'otlp_upsert_traces' });
  if (upserted.length !== storable.length) throw new TraceTakenMeanwhile();
  if (withoutPayload.length > 0 && options.completeModelCalls) await options.completeModelCalls(tx, withoutPayload);
  // After the trace rows, which the scores' foreign key needs. By id: a retried request updates them.
  if (scores.length > 0) await tx.query(upsertScoresSql(JSON.stringify(scores)));
  return result;
}

/** The scores a trace's spans carry, and those its USER_FEEDBACK events give (on the event's own span). */
function scoreRowsOf(trace: SpanBatchTrace, writers: { sdk: ScoreWriter; feedback: ScoreWriter }): ScoreRow[] {
  const rows = (trace.scores ?? []).map((s) => scoreRow(s, writers.sdk));
  for (const event of trace.events) {
    const score = feedbackScore(trace.traceId, event, () => true);
    if (score) rows.push(scoreRow(score, writers.feedback));
  }
  return rows;
}

/** The trace row's fields a batch sets (the counts and totals come from what the chunks inserted). */
interface TraceFields {
  id: string;
  name: string;
  status: RunStatus;
  startedAt: string | null;
  endedAt: string | null;
  totalDuration: number | null;
  metadata: JsonValue;
  sessionId: string | null;
  userId: string | null;
  tags: string[] | null;
}

function traceFieldsOf(t: SpanBatchTrace): TraceFields {
  const root = t.root;
  const earliest = t.spans.reduce((min, s) => (s.startedAt < min ? s.startedAt : min), t.spans[0].startedAt);
  return {
    id: t.traceId,
    name: root?.name ?? t.provisionalName,
    status: root?.status ?? 'RUNNING',
    startedAt: iso(earliest),
    endedAt: iso(root?.endedAt ?? null),
    totalDuration: root?.totalDuration ?? null,
    metadata: root?.metadata ?? null,
    sessionId: t.sessionId,
    userId: root?.userId ?? null,
    tags: t.tags,
  };
}

/** The five JSON parameters of storeChunkSql; each span's cost is decided here, before storage. */
function chunkRows(traces: SpanBatchTrace[], prices: readonly CustomPrice[], withoutPayload: SpanKey[], modelCalls: StoredModelCall[]): string[] {
  const spans: object[] = [];
  const payloads: JsonValue[][] = [];
  const decisions: object[] = [];
  const events: object[] = [];
  const apart: object[] = [];
  for (const t of traces) {
    const traceId = t.traceId;
    for (const s of t.spans) {
      const cost = spanCost(s, prices);
      if (!cost.counted || cost.unpriced) apart.push({ traceId, id: s.id, uncounted: !cost.counted, unpriced: cost.unpriced });
      spans.push({ k: payloads.length, ...spanRow(traceId, s, cost) });
      // In SPAN_TABLE.payloads' order.
      payloads.push([s.input, s.output, s.metadata]);
      if (s.type === 'LLM_CALL' && (s.input === null || s.output === null)) withoutPayload.push({ traceId, spanId: s.id });
      if (s.type === 'LLM_CALL' && s.tokenCount !== null) {
        const { id, parentSpanId, type, startedAt, endedAt, metadata, usage } = s;
        modelCalls.push({ traceId, span: { id, parentSpanId, type, startedAt, endedAt, metadata, usage } });
      }
    }
    for (const d of t.decisionPoints) {
      decisions.push({
        traceId,
        id: d.id,
        type: d.type,
        reasoning: d.reasoning,
        durationMs: d.durationMs,
        costUsd: d.costUsd,
        parentSpanId: d.parentSpanId,
        timestamp: iso(d.timestamp),
        inferred: d.inferred,
        chosen: d.chosen,
        alternatives: d.alternatives,
        contextSnapshot: d.contextSnapshot,
      });
    }
    for (const e of t.events) {
      events.push({ traceId, id: e.id, spanId: e.spanId, type: e.type, name: e.name, timestamp: iso(e.timestamp), metadata: e.metadata });
    }
  }
  return [JSON.stringify(spans), JSON.stringify(decisions), JSON.stringify(events), JSON.stringify(payloads), JSON.stringify(apart)];
}

/** The parameter of upsertTracesSql: each trace's fields and what the chunks inserted for it. */
function traceRows(traces: TraceFields[], inserted: Map<string, Inserted>): string {
  return JSON.stringify(
    traces.map((t) => {
      const added = inserted.get(t.id);
      return {
        ...t,
        spans: added?.spans ?? 0,
        decisions: added?.decisions ?? 0,
        events: added?.events ?? 0,
        tokens: added?.tokens ?? null,
        cost: added?.cost ?? null,
        unpriced: added?.unpriced ?? 0,
        insertedStart: added?.started ?? null,
      };
    }),
  );
}
