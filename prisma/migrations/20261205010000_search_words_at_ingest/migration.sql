-- A JSON batch writes its traces' search words in its own statement, instead of queueing
-- them for the indexer.
--
-- Why. The indexer spent 3.6-5.3 ms of database CPU a trace (crossroads_trace_words)
-- reading back, printing and splitting ~70 KB of text that the ingest request had just
-- held; under saturation the queue lagged up to a minute. The server now gives each trace's
-- distinct words as written (lib/traces/trace-words.ts, exact to what this function reads
-- back: jsonb's printing rules), and the statement lower-cases, filters and sorts those few
-- hundred words here, with the database's own lower().
--
-- How.
-- - crossroads_search_words(text): the second half of crossroads_trace_words (both sorts,
--   their limits and fallbacks, unchanged), for any text of words; crossroads_trace_words
--   now builds the trace's text and calls it. The distinct words of a text give the same
--   result as the text (the first step keeps only the distinct words).
-- - The ingest statement writes "SearchDoc" rows for its traces, and, through its
--   RETURNING, sets crossroads.search_words_at to its statement_timestamp() for the rest of
--   its transaction. The search queue's INSERT trigger then queues nothing for rows
--   inserted by a statement whose start time is that value: those rows belong to traces the
--   same statement created (a duplicate id fails it) and wrote the words of. A later
--   statement of the same transaction is received after this one ended, so its start time
--   differs, as long as the clock has moved since this one started: the value is set only
--   when clock_timestamp() is past statement_timestamp(); otherwise the rows are queued as
--   before (indexed twice, never missed). Every other writer queues as before.
CREATE FUNCTION "crossroads_search_words"("t" text) RETURNS text
LANGUAGE plpgsql STABLE PARALLEL UNSAFE AS $$
DECLARE
  lowered text;
  v tsvector;
  lexemes text[];
BEGIN
  IF t IS NULL THEN
    RETURN NULL;
  END IF;
  IF octet_length(t) < 1048576 THEN
    BEGIN
      -- The distinct words as written; then lower-cased, and distinct again.
      v := array_to_tsvector(array_remove(string_to_array(t, ' '), ''));
      lexemes := tsvector_to_array(v);
      -- A tsvector is 8 bytes of header, 4 per lexeme, then the lexemes' bytes.
      IF pg_column_size(v) = 8 + 4 * cardinality(lexemes) + (SELECT coalesce(sum(octet_length(l)), 0) FROM unnest(lexemes) l) THEN
        lowered := lower(array_to_string(lexemes, ' '));
        IF octet_length(lowered) < 1048576 THEN
          v := array_to_tsvector(string_to_array(lowered, ' '));
          lexemes := tsvector_to_array(v);
          IF pg_column_size(v) = 8 + 4 * cardinality(lexemes) + (SELECT coalesce(sum(octet_length(l)), 0) FROM unnest(lexemes) l) THEN
            RETURN (SELECT string_agg(l, ' ' ORDER BY n) FROM unnest(lexemes) WITH ORDINALITY AS u(l, n) WHERE length(l) >= 3);
          END IF;
        END IF;
      END IF;
    EXCEPTION WHEN program_limit_exceeded THEN
      -- Newer PostgreSQL refuses a long lexeme instead (PGlite: "word is too long").
      NULL;
    END;
  END IF;
  -- Anything else: a row per word, as before.
  RETURN (SELECT string_agg(w, ' ' ORDER BY w COLLATE "C")
            FROM (SELECT DISTINCT w FROM string_to_table(lower(t), ' ') AS w WHERE length(w) >= 3) words);
END $$;

CREATE OR REPLACE FUNCTION "crossroads_trace_words"("trace_id" text) RETURNS text
LANGUAGE plpgsql STABLE PARALLEL UNSAFE AS $$
DECLARE
  t text;
BEGIN
  SELECT replace(string_agg(s, ' '), E'\n', ' ') INTO t FROM (
    SELECT coalesce(x."name", '') || E'\n' || coalesce(x."metadata"::text, '') AS s FROM "Trace" x WHERE x."id" = $1
    UNION ALL
    SELECT coalesce(x."name", '') || E'\n' || coalesce(x."input"::text, '') || E'\n' || coalesce(x."output"::text, '') || E'\n' ||
           coalesce(x."statusMessage", '') || E'\n' || coalesce(x."metadata"::text, '')
      FROM "Span" x WHERE x."traceId" = $1
    UNION ALL
    SELECT coalesce(x."reasoning", '') || E'\n' || coalesce(x."chosen"::text, '') || E'\n' || coalesce(x."alternatives"::text, '')
      FROM "DecisionPoint" x WHERE x."traceId" = $1
    UNION ALL
    SELECT coalesce(x."name", '') || E'\n' || coalesce(x."metadata"::text, '') FROM "Event" x WHERE x."traceId" = $1
  ) texts;
  RETURN "crossroads_search_words"(t);
END $$;

CREATE OR REPLACE FUNCTION "crossroads_search_queue"() RETURNS trigger
LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  changed text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- Rows of traces whose words this statement wrote (see above).
    IF current_setting('crossroads.search_words_at', true) = statement_timestamp()::text THEN
      RETURN NULL;
    END IF;
    EXECUTE format('INSERT INTO "SearchQueue" ("traceId") SELECT DISTINCT n.%I FROM new_rows n', TG_ARGV[0]);
  ELSE
    SELECT string_agg(format('n.%1$I IS DISTINCT FROM o.%1$I', c), ' OR ') INTO changed FROM unnest(TG_ARGV) AS c;
    EXECUTE format('INSERT INTO "SearchQueue" ("traceId") SELECT DISTINCT n.%1$I FROM new_rows n JOIN old_rows o ON o.%1$I = n.%1$I AND o."id" = n."id" WHERE ', TG_ARGV[0]) || changed;
  END IF;
  RETURN NULL;
END $$;
