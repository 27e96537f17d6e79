-- A trace's search words lowered once per distinct word instead of over the whole text.
--
-- Why. After search_words_in_one_sort, lower() over the trace's whole text (~71 KB for 50
-- spans of 1-2 KB payloads) was half of building the text and ~10% of the indexer's time.
--
-- How. The distinct words are taken from the text as written, then lower-cased together
-- (a few hundred words instead of every word), then made distinct again (two words may
-- lower to one). The result is the same: lower() maps each character on its own, or, for
-- ICU, looks at context only within a word (final sigma, a dot above), never across a space
-- or a line break, so lower-casing each word equals lower-casing the text. The searchable
-- text of each table is crossroads_*_search_text (migration search_and_filters) without its
-- lower(); lib/traces/search-words.test.ts compares the result with that rule.
-- Every limit and fallback of search_words_in_one_sort holds for both sorts.
CREATE OR REPLACE FUNCTION "crossroads_trace_words"("trace_id" text) RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  t text;
  lowered text;
  v tsvector;
  lexemes text[];
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
