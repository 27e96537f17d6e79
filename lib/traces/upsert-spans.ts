// Stores spans that arrive piecemeal (OTLP): exporters send each span when it ends, in
// any order, one by one or in batches, and resend on failure. So children are upserted
// by (trace id, child id): a span sent twice is stored once. The trace row exists from
// its first span (RUNNING) and is kept true as they arrive: counts, tokens and cost grow
// by exactly what each request newly stored, startedAt is the earliest span start, and
// the root span (no parent) fixes name, status, end and duration whenever it comes.
//
// Two statements in one transaction:
// 1. upsert the trace rows, in id order, taking their row locks: concurrent requests for
//    one trace queue here, so the second sees the first's spans and never double-counts.
//    A trace the JSON API created (source API) is locked but not returned: its spans are
//    refused, and the seed contract's semantics for it stand.
// 2. insert the children with ON CONFLICT DO NOTHING and add what was really inserted
//    (RETURNING) to the trace row, with the root's fields when the root is here.
import type { SqlExecutor } from '@/lib/storage/sql';
import type { SpanBatchTrace, SpanRejection } from './span-batch';

export interface SpanBatchLimits {
  /** Decision points, spans and events per trace, each, over all requests. */
  maxChildrenPerTrace: number;
}

export interface SpanBatchResult {
  /** Spans accepted (stored now, or already stored by an earlier request). */
  acceptedSpans: number;
  rejected: SpanRejection[];
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

const LOCK_TRACES_SQL = `
INSERT INTO "Trace" ("id", "name", "status", "tags", "startedAt", "sessionId", "source", "lastSpanAt")
SELECT r."id", r."name", 'RUNNING', COALESCE(r."tags", '{}'), r."startedAt", r."sessionId", 'OTLP', now()
  FROM json_to_recordset($1::json) AS r("id" text, "name" text, "tags" text[], "startedAt" timestamptz, "sessionId" text)
 ORDER BY r."id"
ON CONFLICT ("id") DO UPDATE SET "lastSpanAt" = now() WHERE "Trace"."source" = 'OTLP'
RETURNING "id", "spanCount", "decisionPointCount", "eventCount"`;

// JSON null and an absent payload are both stored as SQL NULL, as POST /api/traces does.
const payload = (column: string) => `NULLIF(r."${column}", 'null'::jsonb)`;

const STORE_CHILDREN_SQL = `
WITH s AS (
  INSERT INTO "Span" ("traceId", "id", "parentSpanId", "name", "type", "tokenCount", "costUsd", "durationMs",
                      "status", "statusMessage", "startedAt", "endedAt", "input", "output", "metadata")
  SELECT r."traceId", r."id", r."parentSpanId", r."name", r."type", r."tokenCount", r."costUsd", r."durationMs",
         r."status", r."statusMessage", r."startedAt", r."endedAt", ${payload('input')}, ${payload('output')}, ${payload('metadata')}
    FROM json_to_recordset($1::json) AS r("traceId" text, "id" text, "parentSpanId" text, "name" text, "type" "SpanType",
         "tokenCount" float8, "costUsd" float8, "durationMs" float8, "status" "RunStatus", "statusMessage" text,
         "startedAt" timestamptz, "endedAt" timestamptz, "input" jsonb, "output" jsonb, "metadata" jsonb)
  ON CONFLICT ("traceId", "id") DO NOTHING
  RETURNING "traceId", "tokenCount", "costUsd", "startedAt"
), d AS (
  INSERT INTO "DecisionPoint" ("traceId", "id", "type", "reasoning", "durationMs", "costUsd", "parentSpanId",
                               "timestamp", "inferred", "chosen", "alternatives", "contextSnapshot")
  SELECT r."traceId", r."id", r."type", r."reasoning", r."durationMs", r."costUsd", r."parentSpanId",
         r."timestamp", r."inferred", ${payload('chosen')}, COALESCE(r."alternatives", '[]'::jsonb), ${payload('contextSnapshot')}
    FROM json_to_recordset($2::json) AS r("traceId" text, "id" text, "type" "DecisionType", "reasoning" text,
         "durationMs" float8, "costUsd" float8, "parentSpanId" text, "timestamp" timestamptz, "inferred" boolean,
         "chosen" jsonb, "alternatives" jsonb, "contextSnapshot" jsonb)
  ON CONFLICT ("traceId", "id") DO NOTHING
  RETURNING "traceId"
), e AS (
  INSERT INTO "Event" ("traceId", "id", "spanId", "type", "name", "timestamp", "metadata")
  SELECT r."traceId", r."id", r."spanId", r."type", r."name", r."timestamp", ${payload('metadata')}
    FROM json_to_recordset($3::json) AS r("traceId" text, "id" text, "spanId" text, "type" "EventType", "name" text,
         "timestamp" timestamptz, "metadata" jsonb)
  ON CONFLICT ("traceId", "id") DO NOTHING
  RETURNING "traceId"
),
sa AS (SELECT "traceId", count(*) AS n, sum("tokenCount") AS tokens, sum("costUsd") AS cost, min("startedAt") AS started
         FROM s GROUP BY "traceId"),
da AS (SELECT "traceId", count(*) AS n FROM d GROUP BY "traceId"),
ea AS (SELECT "traceId", count(*) AS n FROM e GROUP BY "traceId"),
tr AS (SELECT * FROM json_to_recordset($4::json) AS r("id" text, "hasRoot" boolean, "name" text, "status" "RunStatus",
         "endedAt" timestamptz, "totalDuration" float8, "metadata" jsonb, "sessionId" text, "tags" text[]))
UPDATE "Trace" t SET
  "spanCount" = t."spanCount" + COALESCE(sa.n, 0),
  "decisionPointCount" = t."decisionPointCount" + COALESCE(da.n, 0),
  "eventCount" = t."eventCount" + COALESCE(ea.n, 0),
  -- Totals stay NULL until some span carries a figure, like a JSON trace that sends none.
  "totalTokens" = CASE WHEN sa.tokens IS NULL THEN t."totalTokens" ELSE COALESCE(t."totalTokens", 0) + sa.tokens END,
  "totalCost" = CASE WHEN sa.cost IS NULL THEN t."totalCost" ELSE COALESCE(t."totalCost", 0) + sa.cost END,
  "startedAt" = LEAST(t."startedAt", sa.started),
  "name" = CASE WHEN tr."hasRoot" THEN tr."name" ELSE t."name" END,
  "status" = CASE WHEN tr."hasRoot" THEN tr."status" ELSE t."status" END,
  "endedAt" = CASE WHEN tr."hasRoot" THEN tr."endedAt" ELSE t."endedAt" END,
  "totalDuration" = CASE WHEN tr."hasRoot" THEN tr."totalDuration" ELSE t."totalDuration" END,
  "metadata" = CASE WHEN tr."hasRoot" THEN NULLIF(tr."metadata", 'null'::jsonb) ELSE t."metadata" END,
  "sessionId" = CASE WHEN tr."hasRoot" AND tr."sessionId" IS NOT NULL THEN tr."sessionId"
                     ELSE COALESCE(t."sessionId", tr."sessionId") END,
  "tags" = CASE WHEN tr."tags" IS NOT NULL AND (tr."hasRoot" OR cardinality(t."tags") = 0) THEN tr."tags" ELSE t."tags" END
FROM tr
  LEFT JOIN sa ON sa."traceId" = tr."id"
  LEFT JOIN da ON da."traceId" = tr."id"
  LEFT JOIN ea ON ea."traceId" = tr."id"
WHERE t."id" = tr."id"
RETURNING t."id"`;

interface LockedTrace {
  id: string;
  spanCount: number;
  decisionPointCount: number;
  eventCount: number;
}

function tally(rejected: Map<string, number>, reason: string, count: number): void {
  if (count > 0) rejected.set(reason, (rejected.get(reason) ?? 0) + count);
}

function earliestStart(trace: SpanBatchTrace): Date {
  let earliest = trace.spans[0].startedAt;
  for (const span of trace.spans) if (span.startedAt < earliest) earliest = span.startedAt;
  return earliest;
}

/**
 * Upserts the spans (with their events and decision points) of each trace, all in one
 * transaction. Spans of a trace the JSON API created, or that would take a trace past
 * the per-trace limits, are refused and reported; the rest are stored.
 */
export async function upsertSpanBatch(
  sql: SqlExecutor,
  traces: SpanBatchTrace[],
  limits: SpanBatchLimits,
): Promise<SpanBatchResult> {
  const rejected = new Map<string, number>();
  const withSpans = traces.filter((t) => t.spans.length > 0);
  if (withSpans.length === 0) return { acceptedSpans: 0, rejected: [] };

  const accepted = await sql.transaction(async (tx) => {
    const locked = await tx.query<LockedTrace>(LOCK_TRACES_SQL, [
      JSON.stringify(
        withSpans.map((t) => ({
          id: t.traceId,
          name: t.root?.name ?? t.provisionalName,
          tags: t.tags,
          startedAt: iso(earliestStart(t)),
          sessionId: t.sessionId,
        })),
      ),
    ]);
    const byId = new Map(locked.map((row) => [row.id, row]));
    const storable: SpanBatchTrace[] = [];
    for (const trace of withSpans) {
      const row = byId.get(trace.traceId);
      if (!row) {
        tally(rejected, 'trace id belongs to a trace sent whole to POST /api/traces', trace.spans.length);
      } else if (
        row.spanCount + trace.spans.length > limits.maxChildrenPerTrace ||
        row.eventCount + trace.events.length > limits.maxChildrenPerTrace ||
        row.decisionPointCount + trace.decisionPoints.length > limits.maxChildrenPerTrace
      ) {
        tally(
          rejected,
          `trace would exceed ${limits.maxChildrenPerTrace} spans, events or decision points (MAX_CHILDREN_PER_TRACE)`,
          trace.spans.length,
        );
      } else {
        storable.push(trace);
      }
    }
    if (storable.length === 0) return 0;
    const updated = await tx.query(STORE_CHILDREN_SQL, childRows(storable));
    if (updated.length !== storable.length) {
      throw new Error(`span upsert updated ${updated.length} of ${storable.length} traces`);
    }
    return storable.reduce((n, t) => n + t.spans.length, 0);
  });
  return { acceptedSpans: accepted, rejected: [...rejected].map(([reason, count]) => ({ reason, count })) };
}

/** The four JSON parameters of STORE_CHILDREN_SQL. */
function childRows(traces: SpanBatchTrace[]): string[] {
  const spans: object[] = [];
  const decisions: object[] = [];
  const events: object[] = [];
  const traceRows: object[] = [];
  for (const t of traces) {
    const traceId = t.traceId;
    for (const s of t.spans) {
      spans.push({
        traceId,
        id: s.id,
        parentSpanId: s.parentSpanId,
        name: s.name,
        type: s.type,
        tokenCount: s.tokenCount,
        costUsd: s.costUsd,
        durationMs: s.durationMs,
        status: s.status,
        statusMessage: s.statusMessage,
        startedAt: iso(s.startedAt),
        endedAt: iso(s.endedAt),
        input: s.input,
        output: s.output,
        metadata: s.metadata,
      });
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
    const root = t.root;
    traceRows.push({
      id: traceId,
      hasRoot: root !== null,
      name: root?.name ?? null,
      status: root?.status ?? null,
      endedAt: iso(root?.endedAt ?? null),
      totalDuration: root?.totalDuration ?? null,
      metadata: root?.metadata ?? null,
      sessionId: t.sessionId,
      tags: t.tags,
    });
  }
  return [JSON.stringify(spans), JSON.stringify(decisions), JSON.stringify(events), JSON.stringify(traceRows)];
}
