-- A trace sent whole (JSON API, SOAP) without totalTokens gets the sum of its spans' token
-- counts at ingest (lib/features/ingest/ingest.ts), each model call once (a span with
-- metadata.duplicateOf is a second report of a call and is not counted), as OTLP keeps it.
-- Traces stored before are given the same sum once here; a trace none of whose spans has a
-- count keeps NULL. The rollups follow through the UPDATE triggers.
UPDATE "Trace" t SET "totalTokens" = LEAST(GREATEST(s."tokens", -1e12), 1e12)
  FROM (SELECT "traceId", sum("tokenCount") AS "tokens"
          FROM "Span"
         WHERE "tokenCount" IS NOT NULL
           AND NOT COALESCE(jsonb_typeof("metadata" -> 'duplicateOf') = 'string' AND "metadata" ->> 'duplicateOf' <> '', false)
         GROUP BY "traceId") s
 WHERE t."id" = s."traceId" AND t."source" = 'API' AND t."totalTokens" IS NULL;
