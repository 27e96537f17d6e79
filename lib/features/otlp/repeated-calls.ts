// A model call reported twice whose two reports arrive in different export requests: an
// SDK exporting each span as it ends (OpenLLMetry with disableBatch) sends the openai
// client's span, which ends first, and LangChain's span beside it apart, often at once.
// The mapper marks copies within a request (conventions/duplicates.ts); this applies the
// same rule to a request's model calls together with the trace's stored spans around
// them: a copy found among either gets metadata.duplicateOf, and the trace's totals stop
// counting it. Runs in the store's transaction before the trace rows are written
// (lib/features/ingest/upsert-spans.ts), holding a lock per trace until commit, so of two requests
// holding the two reports the later one to take the lock sees the other's spans.
import 'server-only';
import type { SqlExecutor } from '@/lib/db/executor';
import { raw, sql } from '@/lib/db/sql';
import type { JsonValue, SpanType } from '@/lib/features/traces/shared';
import type { StoredModelCall, UncountedCalls } from '@/lib/features/ingest';
import { DUPLICATE_OF, markDuplicateCalls, type CallSpan } from '@/lib/features/otlp/conventions/duplicates';

// Transaction-scoped, in trace id order (as every request takes its row locks); a
// namespace of its own so no other advisory lock of the app can collide with it.
const lockSql = (traceIds: string[]) => sql`
SELECT count(pg_advisory_xact_lock(hashtextextended('crossroads.repeated-calls:' || l.id, 0)))::int AS locked
  FROM (SELECT DISTINCT id FROM unnest(${traceIds}::text[]) AS u(id) ORDER BY id) AS l`;

// $1: per trace, the span ids whose children and siblings may repeat a call (the request's
// calls and their parents), the calls' parents, the request's own span ids (known already)
// and the time the calls span. Only LLM_CALL spans with a token count report a call.
const neighboursSql = (windows: string) => sql`
SELECT s."traceId", s."id", s."parentSpanId", s."type", s."startedAt", s."endedAt", s."metadata"
  FROM json_to_recordset(${windows}::json) AS w("traceId" text, "near" text[], "parents" text[], "own" text[], "from" timestamptz, "to" timestamptz)
  JOIN "Span" s ON s."traceId" = w."traceId"
 WHERE s."type" = 'LLM_CALL' AND s."tokenCount" IS NOT NULL AND NOT s."id" = ANY(w."own")
   AND (s."parentSpanId" = ANY(w."near") OR s."id" = ANY(w."parents"))
   AND s."startedAt" <= w."to" AND coalesce(s."endedAt", s."startedAt") >= w."from"`;

// $1: the copies found. Only spans not marked yet change, and what they counted comes back
// (one without a cost was counted unpriced: it has a model and tokens).
const DUPLICATE_OF_KEY = raw(DUPLICATE_OF);
const markCopiesSql = (copies: string) => sql`
UPDATE "Span" s SET "metadata" = jsonb_set(coalesce(s."metadata", '{}'::jsonb), '{${DUPLICATE_OF_KEY}}', to_jsonb(c."of"))
  FROM json_to_recordset(${copies}::json) AS c("traceId" text, "id" text, "of" text)
 WHERE s."traceId" = c."traceId" AND s."id" = c."id" AND NOT coalesce(s."metadata" ? '${DUPLICATE_OF_KEY}', false)
RETURNING s."traceId", s."tokenCount", s."costUsd"`;

interface Row {
  traceId: string;
  id: string;
  parentSpanId: string | null;
  type: SpanType;
  startedAt: Date | string;
  endedAt: Date | string | null;
  metadata: JsonValue;
}

const isMarked = (metadata: JsonValue): boolean =>
  typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) && Object.hasOwn(metadata, DUPLICATE_OF);

interface Window {
  traceId: string;
  near: Set<string>;
  parents: Set<string>;
  own: CallSpan[];
  from: number;
  to: number;
}

function windowsOf(calls: StoredModelCall[]): Map<string, Window> {
  const windows = new Map<string, Window>();
  for (const { traceId, span } of calls) {
    let w = windows.get(traceId);
    if (!w) windows.set(traceId, (w = { traceId, near: new Set(), parents: new Set(), own: [], from: Infinity, to: -Infinity }));
    w.own.push(span);
    w.near.add(span.id);
    if (span.parentSpanId !== null) {
      w.near.add(span.parentSpanId);
      w.parents.add(span.parentSpanId);
    }
    w.from = Math.min(w.from, span.startedAt.getTime());
    w.to = Math.max(w.to, (span.endedAt ?? span.startedAt).getTime());
  }
  return windows;
}

/** Marks the copies among a request's model calls and their stored neighbours; what each trace's totals must no longer count. */
export async function markCallsRepeatedAcrossRequests(tx: SqlExecutor, calls: StoredModelCall[]): Promise<Map<string, UncountedCalls>> {
  const uncounted = new Map<string, UncountedCalls>();
  const windows = windowsOf(calls);
  await tx.query(lockSql([...windows.keys()]));
  const param = [...windows.values()].map((w) => ({
    traceId: w.traceId,
    near: [...w.near],
    parents: [...w.parents],
    own: w.own.map((s) => s.id),
    from: new Date(w.from).toISOString(),
    to: new Date(w.to).toISOString(),
  }));
  const rows = await tx.query<Row>(neighboursSql(JSON.stringify(param)));
  // Nothing stored around the calls: the mapper compared the request's own.
  if (rows.length === 0) return uncounted;
  const stored = new Map<string, CallSpan[]>();
  for (const row of rows) {
    const span: CallSpan = {
      id: row.id,
      parentSpanId: row.parentSpanId,
      type: row.type,
      startedAt: new Date(row.startedAt),
      endedAt: row.endedAt === null ? null : new Date(row.endedAt),
      metadata: row.metadata,
    };
    const list = stored.get(row.traceId);
    if (list) list.push(span);
    else stored.set(row.traceId, [span]);
  }
  const copies: Array<{ traceId: string; id: string; of: JsonValue }> = [];
  for (const [traceId, neighbours] of stored) {
    const spans = [...windows.get(traceId)!.own, ...neighbours];
    const marked = markDuplicateCalls(spans);
    for (let i = 0; i < spans.length; i++) {
      if (marked[i] === spans[i] || isMarked(spans[i].metadata)) continue;
      copies.push({ traceId, id: spans[i].id, of: (marked[i].metadata as { [key: string]: JsonValue })[DUPLICATE_OF] });
    }
  }
  if (copies.length === 0) return uncounted;
  const changed = await tx.query<{ traceId: string; tokenCount: number | null; costUsd: number | null }>(markCopiesSql(JSON.stringify(copies)));
  for (const { traceId, tokenCount, costUsd } of changed) {
    let less = uncounted.get(traceId);
    if (!less) uncounted.set(traceId, (less = { tokens: 0, cost: 0, unpriced: 0 }));
    less.tokens += Number(tokenCount ?? 0);
    if (costUsd === null) less.unpriced++;
    else less.cost += Number(costUsd);
  }
  return uncounted;
}
