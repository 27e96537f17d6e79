// Stores the events OTLP log records add to spans, and the input/output their GenAI
// content gives a span that has none. Records and spans are exported apart (a log record
// usually comes before the span it names, which is sent when it ends), so, as for spans:
// events are upserted by (trace id, event id), the trace row is created RUNNING by the
// first record when no span has come yet and its event count grows by exactly what was
// inserted. A span's input and output are rebuilt from all its stored GenAI content
// events (records of one call come in several requests), but only where the span has
// none of its own: the sides so filled are listed in its metadata.payloadFromLogs. A
// model call stored after its records is filled the same way by the span store
// (receive.ts passes fillPayloadsFromLogs to it). Traces of the JSON API are
// refused, as are records that would take a trace past MAX_CHILDREN_PER_TRACE events.
// It lives beside the OTLP adapter rather than in lib/traces while that module's ingest
// is being reworked; it writes the same rows upsert-spans.ts does, in the same order
// (children sorted by key, then trace rows by id), so the two cannot deadlock.
import 'server-only';
import type { SqlExecutor } from '@/lib/db/executor';
import { raw, sql } from '@/lib/db/sql';
import type { SpanKey } from '@/lib/features/ingest';
import type { JsonValue } from '@/lib/core/json';
import { isContentEvent, spanPayloadOf, type ContentRecord, type LogTrace, type PlannedLogs } from '@/lib/features/otlp/logs';
import { DETAILS_EVENTS, MESSAGE_EVENTS } from '@/lib/features/otlp/conventions/log-events';
import { scoreRow, upsertScoresSql } from '@/lib/features/scores';
import type { ScoreWriter } from '@/lib/features/scores/shared';

/** The span metadata key listing the payload sides ('input', 'output') filled from log records. */
export const PAYLOAD_FROM_LOGS = 'payloadFromLogs';
const CONTENT_EVENT_NAMES = [...DETAILS_EVENTS, ...Object.keys(MESSAGE_EVENTS)];

export interface LogStoreResult {
  acceptedLogRecords: number;
  rejected: Array<{ count: number; reason: string }>;
}

const ownersSql = (traceIds: string[]) => sql`SELECT "id", "source", "eventCount" FROM "Trace" WHERE "id" = ANY(${traceIds}::text[])`;
const DEFER_FK_SQL = sql`SET CONSTRAINTS "Event_traceId_fkey" DEFERRED`;

const insertEventsSql = (events: string) => sql`
WITH e AS (
  INSERT INTO "Event" ("traceId", "id", "spanId", "type", "name", "timestamp", "metadata")
  SELECT r."traceId", r."id", r."spanId", r."type", r."name", r."timestamp", NULLIF(r."metadata", 'null'::jsonb)
    FROM json_to_recordset(${events}::json) AS r("traceId" text, "id" text, "spanId" text, "type" "EventType", "name" text,
         "timestamp" timestamptz, "metadata" jsonb)
   ORDER BY r."traceId", r."id"
  ON CONFLICT ("traceId", "id") DO NOTHING
  RETURNING "traceId"
)
SELECT "traceId", count(*)::int AS "events" FROM e GROUP BY "traceId"`;

// A trace no span has reached yet is created RUNNING, named by its first record until its
// spans name it. Its lastSpanAt stays NULL until a span comes (upsert-spans.ts sets it):
// the idle sweep closes a trace from its spans, and would pick one without any again and
// again.
const upsertTracesSql = (traces: string) => sql`
INSERT INTO "Trace" AS t ("id", "name", "status", "tags", "startedAt", "source", "eventCount")
SELECT r."id", r."name", 'RUNNING', '{}', r."startedAt", 'OTLP', r."events"
  FROM json_to_recordset(${traces}::json) AS r("id" text, "name" text, "startedAt" timestamptz, "events" int4)
 ORDER BY r."id"
ON CONFLICT ("id") DO UPDATE SET
  "eventCount" = t."eventCount" + EXCLUDED."eventCount",
  "startedAt" = LEAST(t."startedAt", EXCLUDED."startedAt")
WHERE t."source" = 'OTLP'
RETURNING t."id"`;

// The spans content arrived for, locked: whether each side is empty or was filled from logs.
const PAYLOAD_FROM_LOGS_KEY = raw(PAYLOAD_FROM_LOGS);
const contentSpansSql = (keys: string) => sql`
SELECT s."traceId", s."id", s."input" IS NULL AS "noInput", s."output" IS NULL AS "noOutput", s."metadata" -> '${PAYLOAD_FROM_LOGS_KEY}' AS "fromLogs"
  FROM "Span" AS s JOIN json_to_recordset(${keys}::json) AS r("traceId" text, "spanId" text) ON s."traceId" = r."traceId" AND s."id" = r."spanId"
 ORDER BY s."traceId", s."id"
   FOR UPDATE OF s`;

const contentEventsSql = (spans: string, names: string[]) => sql`
SELECT e."traceId", e."spanId", e."name", e."metadata"
  FROM "Event" AS e JOIN json_to_recordset(${spans}::json) AS r("traceId" text, "spanId" text) ON e."traceId" = r."traceId" AND e."spanId" = r."spanId"
 WHERE e."name" = ANY(${names}::text[])
 ORDER BY e."traceId", e."spanId", e."timestamp", e."id"`;

const setPayloadsSql = (rows: string) => sql`
UPDATE "Span" AS s SET
  "input" = CASE WHEN r."setInput" THEN r."input" ELSE s."input" END,
  "output" = CASE WHEN r."setOutput" THEN r."output" ELSE s."output" END,
  "metadata" = jsonb_set(COALESCE(s."metadata", '{}'::jsonb), '{${PAYLOAD_FROM_LOGS_KEY}}', r."fromLogs")
  FROM json_to_recordset(${rows}::json) AS r("traceId" text, "spanId" text, "setInput" boolean, "input" jsonb, "setOutput" boolean,
       "output" jsonb, "fromLogs" jsonb)
 WHERE s."traceId" = r."traceId" AND s."id" = r."spanId"`;

interface ContentSpan {
  traceId: string;
  id: string;
  noInput: boolean;
  noOutput: boolean;
  fromLogs: JsonValue;
}

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored event back as the record it came from: its body is metadata.log.body, its attributes the rest. */
function contentRecordOf(name: string, metadata: JsonValue): ContentRecord {
  const attributes: Obj = isObj(metadata) ? { ...metadata } : {};
  const log = attributes.log;
  delete attributes.log;
  if (isObj(log) && log.attribute !== undefined) attributes.log = log.attribute;
  return { name, body: isObj(log) ? (log.body ?? null) : null, attributes };
}

/** Rebuilds the input/output of the spans from their stored content events, where the span has none of its own. */
export async function fillPayloadsFromLogs(tx: SqlExecutor, keys: SpanKey[]): Promise<void> {
  if (keys.length === 0) return;
  const spans = await tx.query<ContentSpan>(contentSpansSql(JSON.stringify(keys)), { prepared: 'otlp_log_content_spans' });
  const open = spans.filter((s) => s.noInput || s.noOutput || (Array.isArray(s.fromLogs) && s.fromLogs.length > 0));
  if (open.length === 0) return;
  const events = await tx.query<{ traceId: string; spanId: string; name: string; metadata: JsonValue }>(
    contentEventsSql(JSON.stringify(open.map((s) => ({ traceId: s.traceId, spanId: s.id }))), CONTENT_EVENT_NAMES),
    { prepared: 'otlp_log_content_events' },
  );
  const bySpan = new Map<string, ContentRecord[]>();
  for (const e of events) {
    if (!isContentEvent(e.name)) continue;
    const key = `${e.traceId}/${e.spanId}`;
    const list = bySpan.get(key);
    const record = contentRecordOf(e.name, e.metadata);
    if (list) list.push(record);
    else bySpan.set(key, [record]);
  }
  const rows = [];
  for (const span of open) {
    const payload = spanPayloadOf(bySpan.get(`${span.traceId}/${span.id}`) ?? []);
    const filled = new Set(Array.isArray(span.fromLogs) ? span.fromLogs : []);
    const setInput = payload.input !== undefined && (span.noInput || filled.has('input'));
    const setOutput = payload.output !== undefined && (span.noOutput || filled.has('output'));
    if (!setInput && !setOutput) continue;
    if (setInput) filled.add('input');
    if (setOutput) filled.add('output');
    rows.push({ traceId: span.traceId, spanId: span.id, setInput, input: payload.input ?? null, setOutput, output: payload.output ?? null, fromLogs: [...filled].sort() });
  }
  if (rows.length > 0) await tx.query(setPayloadsSql(JSON.stringify(rows)), { prepared: 'otlp_log_set_payloads' });
}

interface Owner {
  id: string;
  source: 'API' | 'OTLP';
  eventCount: number;
}

/** A JSON batch took a trace id between the owner check and the upsert: run again. */
class TraceTakenMeanwhile extends Error {}

const iso = (date: Date) => date.toISOString();

/** `writer`: who the scores of gen_ai.evaluation.result records are by (the sender, source SDK). */
export async function storeLogEvents(sql: SqlExecutor, planned: PlannedLogs, limits: { maxChildrenPerTrace: number }, writer: ScoreWriter): Promise<LogStoreResult> {
  if (planned.traces.length === 0) return { acceptedLogRecords: 0, rejected: [] };
  for (let attempt = 1; ; attempt++) {
    try {
      return await sql.transaction((tx) => storeOnce(tx, planned, limits, writer));
    } catch (err) {
      if (!(err instanceof TraceTakenMeanwhile) || attempt === 2) throw err;
    }
  }
}

async function storeOnce(tx: SqlExecutor, planned: PlannedLogs, limits: { maxChildrenPerTrace: number }, writer: ScoreWriter): Promise<LogStoreResult> {
  const owners = new Map(
    (await tx.query<Owner>(ownersSql(planned.traces.map((t) => t.traceId)), { prepared: 'otlp_log_owners' })).map((o) => [o.id, o]),
  );
  const rejected = new Map<string, number>();
  const refuse = (reason: string, count: number) => rejected.set(reason, (rejected.get(reason) ?? 0) + count);
  const storable: LogTrace[] = [];
  let accepted = 0;
  for (const trace of planned.traces) {
    const owner = owners.get(trace.traceId);
    if (owner?.source === 'API') refuse('trace id belongs to a trace sent whole to POST /api/traces', trace.events.length);
    else if ((owner?.eventCount ?? 0) + trace.events.length > limits.maxChildrenPerTrace) {
      refuse(`trace would exceed ${limits.maxChildrenPerTrace} events (MAX_CHILDREN_PER_TRACE)`, trace.events.length);
    } else {
      storable.push(trace);
      accepted += trace.events.length;
    }
  }
  const result = (): LogStoreResult => ({ acceptedLogRecords: accepted, rejected: [...rejected].map(([reason, count]) => ({ reason, count })) });
  if (storable.length === 0) return result();

  await tx.query(DEFER_FK_SQL);
  const events = storable.flatMap((t) =>
    t.events.map((e) => ({ traceId: t.traceId, id: e.id, spanId: e.spanId, type: e.type, name: e.name, timestamp: iso(e.timestamp), metadata: e.metadata })),
  );
  const inserted = new Map(
    (await tx.query<{ traceId: string; events: number }>(insertEventsSql(JSON.stringify(events)), { prepared: 'otlp_log_events' })).map((r) => [r.traceId, r.events]),
  );
  const rows = storable.map((t) => ({ id: t.traceId, name: t.provisionalName, startedAt: iso(t.startedAt), events: inserted.get(t.traceId) ?? 0 }));
  const upserted = await tx.query(upsertTracesSql(JSON.stringify(rows)), { prepared: 'otlp_log_traces' });
  if (upserted.length !== rows.length) throw new TraceTakenMeanwhile();
  // After the trace rows, which the scores' foreign key needs. By id: a retried request updates them.
  const scores = storable.flatMap((t) => t.scores.map((s) => scoreRow(s, writer)));
  if (scores.length > 0) await tx.query(upsertScoresSql(JSON.stringify(scores)));
  await fillPayloadsFromLogs(tx, storable.flatMap((t) => t.contentSpans.map((spanId) => ({ traceId: t.traceId, spanId }))));
  return result();
}
