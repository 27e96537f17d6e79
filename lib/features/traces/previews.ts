// What the list shows of each row's run beyond the trace record: its first input and last
// output as one-line previews, and the models its model calls used. Read for one page of
// ids only, after the page itself, so filters and counts never touch payloads.
import 'server-only';
import { previewOf } from '@/lib/features/conversation/shared';
import type { SqlExecutor } from '@/lib/db/executor';
import { MODEL_KEYS } from './span-model';
import type { JsonValue } from './types';
import { raw, sql } from '@/lib/db/sql';

export interface TracePreview {
  inputPreview: string | null;
  outputPreview: string | null;
  models: string[];
}

/** Payloads up to this size (as JSON text) are read whole for a preview. */
export const PREVIEW_READ_BYTES = 32_768;
/** Of a larger payload, the last message (or this many characters of its text) is read. */
const PREVIEW_FALLBACK_CHARS = 2_000;
/** Model calls looked at per trace for its models, and models listed. */
const MODEL_SPANS_READ = 200;
export const MAX_MODELS = 5;

/**
 * A payload column bounded before it leaves the database: whole when small; else only the
 * last message of a message list (where a preview looks); else the start of its text.
 */
function bounded(col: string): string {
  const reduced = `CASE WHEN octet_length(${col}::text) <= ${PREVIEW_READ_BYTES} THEN ${col}
    WHEN jsonb_typeof(${col}) = 'array' THEN jsonb_build_array(${col} -> -1)
    WHEN jsonb_typeof(${col} -> 'messages') = 'array' THEN jsonb_build_object('messages', jsonb_build_array(${col} -> 'messages' -> -1))
    ELSE ${col} END`;
  return `(SELECT CASE WHEN octet_length(r.v::text) <= ${PREVIEW_READ_BYTES} THEN r.v
      ELSE to_jsonb(left(CASE WHEN jsonb_typeof(r.v) = 'string' THEN r.v #>> '{}' ELSE r.v::text END, ${PREVIEW_FALLBACK_CHARS})) END
    FROM (SELECT NULLIF(${reduced}, 'null'::jsonb) AS v) r)`;
}

/** The model a span names, in spanModelOf's order (metadata keys, then the priced model). */
const MODEL_SQL = `COALESCE(${MODEL_KEYS.map(
  (k) => `NULLIF(btrim(CASE WHEN jsonb_typeof(s."metadata" -> '${k}') = 'string' THEN s."metadata" ->> '${k}' END), '')`,
).join(', ')}, s."pricedModel")`;

interface PreviewRow {
  id: string;
  input: JsonValue | null;
  output: JsonValue | null;
  models: string[] | null;
}

/**
 * Previews of the given traces. The input and output are the root span's (no parent, the
 * first by start), else the first model call's input and the last model call's output
 * (of those that have one), as a session's turns read them. Each lookup walks the (traceId, startedAt) index.
 */
export async function tracePreviews(db: SqlExecutor, ids: string[]): Promise<Map<string, TracePreview>> {
  const out = new Map<string, TracePreview>();
  if (ids.length === 0) return out;
  const rows = await db.query<PreviewRow>(sql`
    SELECT t."id",
      COALESCE(root."input",
        (SELECT ${raw(bounded('s."input"'))} FROM "Span" s WHERE s."traceId" = t."id" AND s."type" = 'LLM_CALL'
         AND s."input" IS NOT NULL AND s."input" <> 'null'::jsonb ORDER BY s."startedAt", s."id" LIMIT 1)) AS "input",
      COALESCE(root."output",
        (SELECT ${raw(bounded('s."output"'))} FROM "Span" s WHERE s."traceId" = t."id" AND s."type" = 'LLM_CALL'
         AND s."output" IS NOT NULL AND s."output" <> 'null'::jsonb ORDER BY s."startedAt" DESC, s."id" DESC LIMIT 1)) AS "output",
      (SELECT array_agg(DISTINCT m."model") FROM (
        SELECT ${raw(MODEL_SQL)} AS "model" FROM "Span" s WHERE s."traceId" = t."id" AND s."type" = 'LLM_CALL'
        ORDER BY s."startedAt" LIMIT ${MODEL_SPANS_READ}) m WHERE m."model" IS NOT NULL) AS "models"
    FROM "Trace" t
    LEFT JOIN LATERAL (
      SELECT ${raw(bounded('s."input"'))} AS "input", ${raw(bounded('s."output"'))} AS "output" FROM "Span" s
      WHERE s."traceId" = t."id" AND s."parentSpanId" IS NULL
      ORDER BY s."startedAt", s."id" LIMIT 1
    ) root ON true
    WHERE t."id" = ANY(${ids})`);
  for (const row of rows) {
    out.set(row.id, {
      inputPreview: previewOf(row.input ?? undefined, 'input'),
      outputPreview: previewOf(row.output ?? undefined, 'output'),
      models: (row.models ?? []).sort().slice(0, MAX_MODELS),
    });
  }
  return out;
}
