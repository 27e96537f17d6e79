-- A trace's search words computed with one sort in C instead of a row per word.
--
-- Why. The indexer spends most of its time in crossroads_trace_words, and most of that in
-- DISTINCT over one executor row per word (~10k words for a trace of 50 spans with 1-2 KB
-- payloads); building the text is a fifth of it.
--
-- How. The trace's text is split into one array; array_to_tsvector sorts it and drops
-- duplicates in C, in byte order (memcmp, then length), which is the order of COLLATE "C"
-- that the words are joined in. The result is the same text as before, byte for byte.
--
-- array_to_tsvector in PostgreSQL 15 does not check tsvector's limits: a lexeme of 2,048
-- bytes or more, or lexemes of 1 MB or more in all, would be stored truncated without an
-- error (later versions, PGlite's included, refuse a long lexeme with an error). So it is
-- used only for texts under 1 MB (the lexemes are at most the text), and its result only
-- when the lexemes read back add up to the value's size (a truncated length would not);
-- anything else takes the row-per-word way, as before. The block that catches the error
-- writes nothing, so it takes no transaction id.
CREATE OR REPLACE FUNCTION "crossroads_trace_words"("trace_id" text) RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  t text;
  v tsvector;
  lexemes text[];
BEGIN
  SELECT replace(string_agg(s, ' '), E'\n', ' ') INTO t FROM (
    SELECT "crossroads_trace_search_text"(x."name", x."metadata") AS s FROM "Trace" x WHERE x."id" = $1
    UNION ALL
    SELECT "crossroads_span_search_text"(x."name", x."input", x."output", x."statusMessage", x."metadata") FROM "Span" x WHERE x."traceId" = $1
    UNION ALL
    SELECT "crossroads_decision_search_text"(x."reasoning", x."chosen", x."alternatives") FROM "DecisionPoint" x WHERE x."traceId" = $1
    UNION ALL
    SELECT "crossroads_event_search_text"(x."name", x."metadata") FROM "Event" x WHERE x."traceId" = $1
  ) texts;
  IF t IS NULL THEN
    RETURN NULL;
  END IF;
  IF octet_length(t) < 1048576 THEN
    BEGIN
      v := array_to_tsvector(array_remove(string_to_array(t, ' '), ''));
      lexemes := tsvector_to_array(v);
      -- A tsvector is 8 bytes of header, 4 per lexeme, then the lexemes' bytes.
      IF pg_column_size(v) = 8 + 4 * cardinality(lexemes) + (SELECT coalesce(sum(octet_length(l)), 0) FROM unnest(lexemes) l) THEN
        RETURN (SELECT string_agg(l, ' ' ORDER BY n) FROM unnest(lexemes) WITH ORDINALITY AS u(l, n) WHERE length(l) >= 3);
      END IF;
    EXCEPTION WHEN program_limit_exceeded THEN
      -- Newer PostgreSQL refuses a long lexeme instead (PGlite: "word is too long").
      NULL;
    END;
  END IF;
  RETURN (SELECT string_agg(w, ' ' ORDER BY w COLLATE "C")
            FROM (SELECT DISTINCT w FROM string_to_table(t, ' ') AS w WHERE length(w) >= 3) words);
END $$;
