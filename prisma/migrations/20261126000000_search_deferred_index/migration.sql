-- Issue 13: full-text search indexed after ingest, not during it.
--
-- Why. The four trigram indexes of 20261124000000 made every ingest statement pull ~300
-- trigrams out of each 1-2 KB payload and insert them into a GIN index. Ingest fell to
-- 0.35-0.58 of its rate without them (docs/benchmarks.md, "Full-text search"); the issue
-- allows 0.85. The trigram extraction alone is most of that cost (0.14 ms of 0.17 ms per
-- 2 KB span, measured), so no index setting helps: the work has to leave the ingest
-- statement.
--
-- How.
-- - Writers only note which traces changed. The statement triggers below append one
--   "SearchQueue" row per changed trace. The table has no unique key, so concurrent
--   writers never wait for each other.
-- - The indexer, crossroads_search_index(), takes queued traces in batches. It is called
--   by lib/traces/search-index.ts from the housekeeping timer and after ingest requests.
--   For each trace it rewrites one "SearchDoc" row: the distinct words of all the
--   trace's searchable text, trigram-indexed.
-- - The text is the same lower-cased text the search functions of 20261124000000 give.
-- - A word repeated by many spans of a trace (an agent's LLM calls repeat the
--   conversation) is indexed once per trace, not once per span.
--
-- The guarantee lib/traces/search.ts relies on. A trace that is not queued either has a
-- doc made of the words of its current rows, or has no doc because it has no word of 3+
-- characters. Two things make that hold in every snapshot:
-- - writers queue a trace in the same transaction that changes its rows;
-- - the indexer deletes queue rows and rewrites docs in one transaction, and builds the
--   docs in a later statement than the one that deletes the queue rows, so the docs see
--   at least every write whose queue row was deleted.
-- Searches test queued traces row by row, so a trace the indexer has not reached yet is
-- still found.
--
-- Words. The text is split at spaces and line breaks, and words of 3+ characters are
-- kept. jsonb prints a line break inside a string as the two characters \n, so the only
-- raw line breaks are the separators between fields. Each piece of a search term between
-- characters that are not letters or digits lies inside one word, because spaces and line
-- breaks are such characters. So "every piece of 3+ characters occurs in a word of the
-- doc" holds for any trace that matches: the words are a complete filter
-- (lib/traces/search-sql.ts).
--
-- Deletes. Deleting a trace cascades to its doc. The app deletes traces whole. A child row
-- deleted on its own (by hand) leaves its words in the doc until the trace is indexed
-- again. That can only add a trace to an answer, never drop one, and it is documented.

CREATE TABLE "SearchQueue" (
    "traceId" TEXT NOT NULL,
    "queuedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX "SearchQueue_traceId_idx" ON "SearchQueue"("traceId");
CREATE INDEX "SearchQueue_queuedAt_idx" ON "SearchQueue"("queuedAt");

CREATE TABLE "SearchDoc" (
    "traceId" TEXT NOT NULL,
    "words" TEXT NOT NULL,

    CONSTRAINT "SearchDoc_pkey" PRIMARY KEY ("traceId"),
    CONSTRAINT "SearchDoc_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "SearchDoc_words_trgm_idx" ON "SearchDoc" USING GIN ("words" gin_trgm_ops);

-- The distinct words (3+ characters) of one trace's searchable text, space-separated in
-- byte order (so equal sets give equal text); NULL when it has none.
CREATE FUNCTION "crossroads_trace_words"("trace_id" text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT string_agg(w, ' ' ORDER BY w COLLATE "C") FROM (
    SELECT DISTINCT w
      FROM (
        SELECT "crossroads_trace_search_text"(x."name", x."metadata") AS s FROM "Trace" x WHERE x."id" = $1
        UNION ALL
        SELECT "crossroads_span_search_text"(x."name", x."input", x."output", x."statusMessage", x."metadata") FROM "Span" x WHERE x."traceId" = $1
        UNION ALL
        SELECT "crossroads_decision_search_text"(x."reasoning", x."chosen", x."alternatives") FROM "DecisionPoint" x WHERE x."traceId" = $1
        UNION ALL
        SELECT "crossroads_event_search_text"(x."name", x."metadata") FROM "Event" x WHERE x."traceId" = $1
      ) texts
      CROSS JOIN LATERAL string_to_table(replace(texts.s, E'\n', ' '), ' ') AS w
     WHERE length(w) >= 3
  ) words
$$;

-- Indexes the traces of up to max_traces queue entries (the oldest first) and returns how
-- many traces; 0 when the queue is empty, -1 when another session is indexing (one at a
-- time: two indexers would rewrite the same docs for nothing).
--
-- A trace being deleted meanwhile: its row is locked (FOR KEY SHARE) before its doc is
-- written, so a delete waits for this transaction instead of making the doc's foreign key
-- fail. Rows another session holds are skipped, never waited for (no deadlock with delete
-- batches), and queued again when the trace is still there, so none is left unqueued
-- without a doc.
CREATE FUNCTION "crossroads_search_index"("max_traces" integer) RETURNS integer
LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  ids text[];
  locked text[];
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('crossroads_search_index')) THEN
    RETURN -1;
  END IF;
  SELECT array_agg(DISTINCT q."traceId") INTO ids
    FROM (SELECT "traceId" FROM "SearchQueue" ORDER BY "queuedAt" LIMIT max_traces) q;
  IF ids IS NULL THEN
    RETURN 0;
  END IF;
  DELETE FROM "SearchQueue" WHERE "traceId" = ANY (ids);
  SELECT coalesce(array_agg(l."id"), '{}') INTO locked
    FROM (SELECT t."id" FROM "Trace" t WHERE t."id" = ANY (ids) FOR KEY SHARE SKIP LOCKED) l;
  INSERT INTO "SearchQueue" ("traceId")
    SELECT u.id FROM unnest(ids) AS u(id)
     WHERE u.id <> ALL (locked) AND EXISTS (SELECT 1 FROM "Trace" t WHERE t."id" = u.id);
  DELETE FROM "SearchDoc" WHERE "traceId" = ANY (locked);
  -- OFFSET 0 keeps the words computed once per trace: flattened, the filter and the
  -- insert would each call the function (measured: twice the time).
  INSERT INTO "SearchDoc" ("traceId", "words")
    SELECT w.id, w.words
      FROM (SELECT l.id, "crossroads_trace_words"(l.id) AS words FROM unnest(locked) AS l(id) OFFSET 0) w
     WHERE w.words IS NOT NULL;
  RETURN cardinality(ids);
END $$;

-- The triggers: queue every trace whose searchable text a statement may have changed.
-- Arguments: the column holding the trace id ("id" on "Trace", "traceId" on its children),
-- then the table's searchable columns. An UPDATE queues only rows where one of them changed
-- (an OTLP span sent again, the trace's counters and totals: nothing to reindex).
CREATE FUNCTION "crossroads_search_queue"() RETURNS trigger
LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  changed text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('INSERT INTO "SearchQueue" ("traceId") SELECT DISTINCT n.%I FROM new_rows n', TG_ARGV[0]);
  ELSE
    SELECT string_agg(format('n.%1$I IS DISTINCT FROM o.%1$I', c), ' OR ') INTO changed FROM unnest(TG_ARGV) AS c;
    EXECUTE format('INSERT INTO "SearchQueue" ("traceId") SELECT DISTINCT n.%I FROM new_rows n JOIN old_rows o ON o."id" = n."id" WHERE ', TG_ARGV[0]) || changed;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Trace_search_insert" AFTER INSERT ON "Trace"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crossroads_search_queue"('id');
CREATE TRIGGER "Trace_search_update" AFTER UPDATE ON "Trace"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crossroads_search_queue"('id', 'name', 'metadata');
CREATE TRIGGER "Span_search_insert" AFTER INSERT ON "Span"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crossroads_search_queue"('traceId');
CREATE TRIGGER "Span_search_update" AFTER UPDATE ON "Span"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "crossroads_search_queue"('traceId', 'name', 'input', 'output', 'statusMessage', 'metadata');
CREATE TRIGGER "DecisionPoint_search_insert" AFTER INSERT ON "DecisionPoint"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crossroads_search_queue"('traceId');
CREATE TRIGGER "DecisionPoint_search_update" AFTER UPDATE ON "DecisionPoint"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "crossroads_search_queue"('traceId', 'reasoning', 'chosen', 'alternatives');
CREATE TRIGGER "Event_search_insert" AFTER INSERT ON "Event"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "crossroads_search_queue"('traceId');
CREATE TRIGGER "Event_search_update" AFTER UPDATE ON "Event"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "crossroads_search_queue"('traceId', 'name', 'metadata');

-- The per-row indexes go; what is stored already is queued for the indexer.
DROP INDEX "Trace_search_trgm_idx";
DROP INDEX "Span_search_trgm_idx";
DROP INDEX "DecisionPoint_search_trgm_idx";
DROP INDEX "Event_search_trgm_idx";
INSERT INTO "SearchQueue" ("traceId") SELECT "id" FROM "Trace";
