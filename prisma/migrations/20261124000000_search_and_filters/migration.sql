-- Issue 13: full-text search (`q`) and the list's new filters and sorts.
--
-- Search text. Each searchable table gets one IMMUTABLE function that lower-cases the
-- concatenation of its searchable columns (JSON as PostgreSQL prints it, so a value
-- inside a tool's JSON output is found), and one trigram GIN index on that expression.
-- Queries call the same function (lib/traces/search-sql.ts), so the planner matches the
-- index; SQL functions are inlined, the index stores the same expression. One index per
-- table rather than one per column: a fifth of the index maintenance at ingest, and a
-- search is a single bitmap scan per table. Nothing is stored twice: the expression is
-- computed from the row's own columns, so deletes and upserts keep it exact by
-- construction. Fields are joined by a newline, which a query never needs to span.
--
-- lower() in a UTF-8 database folds every script (Ä/ä, Σ/σ); pg_trgm indexes letters and
-- digits of any script (German, Japanese), so those queries use the index. Emoji and
-- punctuation produce no trigrams: such queries, and ones under 3 characters, still
-- match (LIKE is the rule) but are answered by the capped probe and scans described in
-- lib/traces/search.ts rather than by the index alone.
CREATE FUNCTION "crossroads_trace_search_text"("name" text, "metadata" jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(coalesce($1, '') || E'\n' || coalesce($2::text, ''))
$$;

CREATE FUNCTION "crossroads_span_search_text"("name" text, "input" jsonb, "output" jsonb, "statusMessage" text, "metadata" jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(coalesce($1, '') || E'\n' || coalesce($2::text, '') || E'\n' || coalesce($3::text, '') || E'\n' ||
               coalesce($4, '') || E'\n' || coalesce($5::text, ''))
$$;

CREATE FUNCTION "crossroads_decision_search_text"("reasoning" text, "chosen" jsonb, "alternatives" jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(coalesce($1, '') || E'\n' || coalesce($2::text, '') || E'\n' || coalesce($3::text, ''))
$$;

CREATE FUNCTION "crossroads_event_search_text"("name" text, "metadata" jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(coalesce($1, '') || E'\n' || coalesce($2::text, ''))
$$;

CREATE INDEX "Trace_search_trgm_idx" ON "Trace"
  USING GIN ("crossroads_trace_search_text"("name", "metadata") gin_trgm_ops);
CREATE INDEX "Span_search_trgm_idx" ON "Span"
  USING GIN ("crossroads_span_search_text"("name", "input", "output", "statusMessage", "metadata") gin_trgm_ops);
CREATE INDEX "DecisionPoint_search_trgm_idx" ON "DecisionPoint"
  USING GIN ("crossroads_decision_search_text"("reasoning", "chosen", "alternatives") gin_trgm_ops);
CREATE INDEX "Event_search_trgm_idx" ON "Event"
  USING GIN ("crossroads_event_search_text"("name", "metadata") gin_trgm_ops);

-- sort=duration|cost, both orders, NULLS LAST either way (a trace without a duration is
-- not the longest nor the shortest); the id breaks ties in the same direction. The
-- min/max filters use the same indexes.
CREATE INDEX "Trace_totalDuration_asc_idx" ON "Trace"("totalDuration" ASC NULLS LAST, "id" ASC);
CREATE INDEX "Trace_totalDuration_desc_idx" ON "Trace"("totalDuration" DESC NULLS LAST, "id" DESC);
CREATE INDEX "Trace_totalCost_asc_idx" ON "Trace"("totalCost" ASC NULLS LAST, "id" ASC);
CREATE INDEX "Trace_totalCost_desc_idx" ON "Trace"("totalCost" DESC NULLS LAST, "id" DESC);

-- hasErrors=true: the trace's status is served by the status index; failed spans and
-- ERROR events are few, so partial indexes of their trace ids stay small and cheap.
CREATE INDEX "Span_error_traceId_idx" ON "Span"("traceId") WHERE "status" = 'ERROR';
CREATE INDEX "Event_error_traceId_idx" ON "Event"("traceId") WHERE "type" = 'ERROR';

-- metadata.<key>=<value>: containment on the trace's metadata.
CREATE INDEX "Trace_metadata_idx" ON "Trace" USING GIN ("metadata" jsonb_path_ops);

-- tag (repeatable, all must match): tags @> ARRAY[...].
CREATE INDEX "Trace_tags_idx" ON "Trace" USING GIN ("tags");
