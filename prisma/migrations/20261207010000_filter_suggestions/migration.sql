-- Suggestions for the list's exact filters (GET /api/traces/suggest) and the list's
-- `model` filter. A suggestion is a prefix of stored values, found by a loose index scan:
-- one index probe per distinct value returned (the next value after the last one, inside
-- the prefix's range), so its cost grows with the values asked for, not with the traces
-- that carry them. Ranges of a prefix are contiguous only in bytewise order, hence
-- "C"-collated indexes whatever the database's collation. These tables and indexes are
-- kept here, outside schema.prisma, which cannot declare an index's collation.

-- name, sessionId, userId: the columns themselves, bytewise.
CREATE INDEX "Trace_name_c_idx" ON "Trace" ("name" COLLATE "C");
CREATE INDEX "Trace_sessionId_c_idx" ON "Trace" ("sessionId" COLLATE "C") WHERE "sessionId" IS NOT NULL;
CREATE INDEX "Trace_userId_c_idx" ON "Trace" ("userId" COLLATE "C") WHERE "userId" IS NOT NULL;

-- The model a span names, the rule of spanModelOf (lib/features/traces/span-model.ts: its
-- metadata keys, most precise first, then the priced model); a test compares the two.
CREATE FUNCTION "span_model"(metadata jsonb, priced text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(
    NULLIF(btrim(CASE WHEN jsonb_typeof(metadata -> 'gen_ai.response.model') = 'string' THEN metadata ->> 'gen_ai.response.model' END), ''),
    NULLIF(btrim(CASE WHEN jsonb_typeof(metadata -> 'gen_ai.request.model') = 'string' THEN metadata ->> 'gen_ai.request.model' END), ''),
    NULLIF(btrim(CASE WHEN jsonb_typeof(metadata -> 'llm.model_name') = 'string' THEN metadata ->> 'llm.model_name' END), ''),
    NULLIF(btrim(CASE WHEN jsonb_typeof(metadata -> 'ai.response.model') = 'string' THEN metadata ->> 'ai.response.model' END), ''),
    NULLIF(btrim(CASE WHEN jsonb_typeof(metadata -> 'ai.model.id') = 'string' THEN metadata ->> 'ai.model.id' END), ''),
    NULLIF(btrim(CASE WHEN jsonb_typeof(metadata -> 'langfuse.observation.model.name') = 'string' THEN metadata ->> 'langfuse.observation.model.name' END), ''),
    NULLIF(btrim(CASE WHEN jsonb_typeof(metadata -> 'model') = 'string' THEN metadata ->> 'model' END), ''),
    priced)
$$;

-- A trace's tags, a row each, for the tag suggestions (the tag filter keeps the GIN index
-- on "Trace"."tags"). Rows go with their trace (the foreign key).
CREATE TABLE "TraceTag" (
    "traceId" TEXT NOT NULL,
    "tag" TEXT COLLATE "C" NOT NULL,
    CONSTRAINT "TraceTag_pkey" PRIMARY KEY ("traceId", "tag")
);
CREATE INDEX "TraceTag_tag_idx" ON "TraceTag" ("tag");
ALTER TABLE "TraceTag" ADD CONSTRAINT "TraceTag_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The models a trace's model calls (LLM_CALL spans) named, a row each: the `model` filter
-- probes (traceId, model) per candidate trace, or reads a rare model's traces from
-- (model, traceId); the suggestions walk (model).
CREATE TABLE "TraceModel" (
    "traceId" TEXT NOT NULL,
    "model" TEXT COLLATE "C" NOT NULL,
    CONSTRAINT "TraceModel_pkey" PRIMARY KEY ("traceId", "model")
);
CREATE INDEX "TraceModel_model_traceId_idx" ON "TraceModel" ("model", "traceId");
-- Checked at commit: OTLP stores a batch's spans before its traces (Span_traceId_fkey is
-- deferred there), and the spans' trigger writes these rows at once.
ALTER TABLE "TraceModel" ADD CONSTRAINT "TraceModel_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;

INSERT INTO "TraceTag" ("traceId", "tag") SELECT DISTINCT t."id", u.tag FROM "Trace" t, unnest(t."tags") AS u(tag);
INSERT INTO "TraceModel" ("traceId", "model")
SELECT DISTINCT s."traceId", "span_model"(s."metadata", s."pricedModel") FROM "Span" s
 WHERE s."type" = 'LLM_CALL' AND "span_model"(s."metadata", s."pricedModel") IS NOT NULL;

-- Statement triggers keep both for every write path. Rows are only ever added for the
-- traces the statement wrote, so writers of different traces never wait on each other.
CREATE FUNCTION "trace_tags_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "TraceTag" ("traceId", "tag")
  SELECT DISTINCT r."id", u.tag FROM new_rows r, unnest(r."tags") AS u(tag) ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- Tags dropped from a trace lose their rows, added ones gain theirs.
CREATE FUNCTION "trace_tags_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "TraceTag" g USING new_rows n JOIN old_rows o ON o."id" = n."id"
   WHERE g."traceId" = n."id" AND o."tags" IS DISTINCT FROM n."tags" AND NOT (g."tag" = ANY (n."tags"));
  INSERT INTO "TraceTag" ("traceId", "tag")
  SELECT DISTINCT n."id", u.tag FROM new_rows n JOIN old_rows o ON o."id" = n."id", unnest(n."tags") AS u(tag)
   WHERE o."tags" IS DISTINCT FROM n."tags" ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "Trace_tags_insert" AFTER INSERT ON "Trace"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "trace_tags_on_insert"();
CREATE TRIGGER "Trace_tags_update" AFTER UPDATE ON "Trace"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "trace_tags_on_update"();

CREATE FUNCTION "trace_models_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "TraceModel" ("traceId", "model")
  SELECT DISTINCT r."traceId", "span_model"(r."metadata", r."pricedModel") FROM new_rows r
   WHERE r."type" = 'LLM_CALL' AND "span_model"(r."metadata", r."pricedModel") IS NOT NULL ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- A span's model or type may change on update (OTLP's upserts, the pricing of a later
-- batch), or a span may go: its trace's models are counted again from its spans. Traces
-- deleted with their spans have no rows left to count (their rows went with them).
CREATE FUNCTION "trace_models_recount"(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN RETURN; END IF;
  DELETE FROM "TraceModel" m WHERE m."traceId" = ANY (ids);
  INSERT INTO "TraceModel" ("traceId", "model")
  SELECT DISTINCT s."traceId", "span_model"(s."metadata", s."pricedModel") FROM "Span" s
   WHERE s."traceId" = ANY (ids) AND s."type" = 'LLM_CALL' AND "span_model"(s."metadata", s."pricedModel") IS NOT NULL ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
END $$;

CREATE FUNCTION "trace_models_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "trace_models_recount"(ARRAY(
    SELECT DISTINCT n."traceId" FROM new_rows n JOIN old_rows o ON o."traceId" = n."traceId" AND o."id" = n."id"
     WHERE o."type" IS DISTINCT FROM n."type"
        OR "span_model"(o."metadata", o."pricedModel") IS DISTINCT FROM "span_model"(n."metadata", n."pricedModel")
     ORDER BY 1));
  RETURN NULL;
END $$;

CREATE FUNCTION "trace_models_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "trace_models_recount"(ARRAY(
    SELECT DISTINCT o."traceId" FROM old_rows o
     WHERE o."type" = 'LLM_CALL' AND EXISTS (SELECT 1 FROM "Trace" t WHERE t."id" = o."traceId")
     ORDER BY 1));
  RETURN NULL;
END $$;

CREATE TRIGGER "Span_models_insert" AFTER INSERT ON "Span"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "trace_models_on_insert"();
CREATE TRIGGER "Span_models_update" AFTER UPDATE ON "Span"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "trace_models_on_update"();
CREATE TRIGGER "Span_models_delete" AFTER DELETE ON "Span"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "trace_models_on_delete"();
