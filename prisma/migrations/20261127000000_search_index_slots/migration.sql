-- Search indexing by several sessions at once (issue 13).
--
-- Why. crossroads_search_index() of 20261126000000_search_deferred_index let one session
-- index at a time, whatever the number of app instances and database cores: ~200-250
-- traces/s at the bench's shape, one core's worth. Ingest from several instances, or
-- the catch-up after a burst on an idle server, could use more.
--
-- How. The queue is split into `slots` partitions by a hash of the trace id, and each
-- partition has its own try-lock. A call takes the first partition it can lock that has
-- queued entries (starting at a random one, so concurrent callers spread out) and does
-- exactly what the single-session indexer did, for that partition's traces only. A trace
-- is always in the same partition, so two sessions never index the same trace, and the
-- guarantee of 20261126000000 holds per partition: queue rows are deleted and docs
-- rewritten in one transaction, the docs built in a later statement.
--
-- Returns how many traces it indexed; 0 when it locked every partition and all were
-- empty (the queue is empty); -1 when the partitions it could lock were empty and
-- another session holds one (that session is indexing: nothing for this one to do).
DROP FUNCTION "crossroads_search_index"(integer);

CREATE FUNCTION "crossroads_search_index"("max_traces" integer, "slots" integer) RETURNS integer
LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  start integer := floor(random() * slots)::integer;
  slot integer;
  busy boolean := false;
  ids text[];
  locked text[];
BEGIN
  FOR i IN 0 .. slots - 1 LOOP
    slot := (start + i) % slots;
    IF NOT pg_try_advisory_xact_lock(hashtext('crossroads_search_index'), slot) THEN
      busy := true;
      CONTINUE;
    END IF;
    SELECT array_agg(DISTINCT q."traceId") INTO ids
      FROM (SELECT "traceId" FROM "SearchQueue"
             WHERE abs(hashtext("traceId") % slots) = slot
             ORDER BY "queuedAt" LIMIT max_traces) q;
    EXIT WHEN ids IS NOT NULL;
  END LOOP;
  IF ids IS NULL THEN
    RETURN CASE WHEN busy THEN -1 ELSE 0 END;
  END IF;
  -- From here on, as in 20261126000000 (the reasons are there).
  DELETE FROM "SearchQueue" WHERE "traceId" = ANY (ids);
  SELECT coalesce(array_agg(l."id"), '{}') INTO locked
    FROM (SELECT t."id" FROM "Trace" t WHERE t."id" = ANY (ids) FOR KEY SHARE SKIP LOCKED) l;
  INSERT INTO "SearchQueue" ("traceId")
    SELECT u.id FROM unnest(ids) AS u(id)
     WHERE u.id <> ALL (locked) AND EXISTS (SELECT 1 FROM "Trace" t WHERE t."id" = u.id);
  DELETE FROM "SearchDoc" WHERE "traceId" = ANY (locked);
  INSERT INTO "SearchDoc" ("traceId", "words")
    SELECT w.id, w.words
      FROM (SELECT l.id, "crossroads_trace_words"(l.id) AS words FROM unnest(locked) AS l(id) OFFSET 0) w
     WHERE w.words IS NOT NULL;
  RETURN cardinality(ids);
END $$;
