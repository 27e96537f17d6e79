-- The review queue's marker (lib/reviews/next.ts): each decision point keeps how many
-- `decision.correct` scores it has ("reviews"), so "not reviewed yet" is a column test and
-- the unreviewed decision points are one partial index, small once most are reviewed.
-- Before it, the queue tested every decision point for a score and walked all of them
-- when most were reviewed.
--
-- Kept exact by statement triggers on "Score" for every writer (POST /api/scores, JSON
-- batches, OTLP, SOAP, score and trace deletes, anything run by hand): the decision points
-- a statement's scores name are locked in key order, then recounted in a statement of
-- their own. The recount is absolute (not +1/-1), so it reads every score committed before
-- the lock was granted: two reviewers scoring one decision at once serialise on its row,
-- and the second counts the first's score. A decision point that arrives after scores
-- naming it (OTLP, where a score event may name a decision of a later request) is
-- recounted when it is inserted.
ALTER TABLE "DecisionPoint" ADD COLUMN "reviews" INTEGER NOT NULL DEFAULT 0;

UPDATE "DecisionPoint" d SET "reviews" = c.n
  FROM (SELECT "traceId", "decisionPointId", count(*)::int AS n FROM "Score"
         WHERE "name" = 'decision.correct' AND "traceId" IS NOT NULL AND "decisionPointId" IS NOT NULL
         GROUP BY 1, 2) c
 WHERE d."traceId" = c."traceId" AND d."id" = c."decisionPointId";

-- The queue's candidates: unreviewed decision points, probed per trace newest first, or
-- read whole when few are left.
CREATE INDEX "DecisionPoint_unreviewed_idx" ON "DecisionPoint" ("traceId") WHERE "reviews" = 0;

-- Recounts the markers of these decision points (pairs of trace and decision ids, stored or
-- not). Locks first, in key order (concurrent batches naming the same decisions cannot
-- deadlock), then counts in a new statement, which sees what committed while it waited.
CREATE FUNCTION "reviews_recount"(trace_ids text[], decision_ids text[]) RETURNS void
LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM 1 FROM "DecisionPoint" d
    JOIN (SELECT DISTINCT k.t, k.i FROM unnest(trace_ids, decision_ids) AS k(t, i)) k ON d."traceId" = k.t AND d."id" = k.i
   ORDER BY d."traceId", d."id" FOR NO KEY UPDATE OF d;
  UPDATE "DecisionPoint" d SET "reviews" = c.n
    FROM (SELECT k.t, k.i,
                 (SELECT count(*) FROM "Score" s
                   WHERE s."traceId" = k.t AND s."decisionPointId" = k.i AND s."name" = 'decision.correct')::int AS n
            FROM (SELECT DISTINCT k.t, k.i FROM unnest(trace_ids, decision_ids) AS k(t, i)) k) c
   WHERE d."traceId" = c.t AND d."id" = c.i AND d."reviews" <> c.n;
END $$;

-- The decision points whose decision.correct scores a statement wrote or removed.
CREATE FUNCTION "reviews_on_score_write"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  t text[];
  i text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n."traceId"), array_agg(n."decisionPointId") INTO t, i FROM new_rows n
     WHERE n."name" = 'decision.correct' AND n."traceId" IS NOT NULL AND n."decisionPointId" IS NOT NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(x."traceId"), array_agg(x."decisionPointId") INTO t, i
      FROM (SELECT n."traceId", n."decisionPointId", n."name" FROM new_rows n
            UNION ALL SELECT o."traceId", o."decisionPointId", o."name" FROM old_rows o) x
     WHERE x."name" = 'decision.correct' AND x."traceId" IS NOT NULL AND x."decisionPointId" IS NOT NULL;
  ELSE
    -- Scores cascading from a deleted trace go with its decision points: nothing to recount.
    SELECT array_agg(o."traceId"), array_agg(o."decisionPointId") INTO t, i FROM old_rows o
     WHERE o."name" = 'decision.correct' AND o."traceId" IS NOT NULL AND o."decisionPointId" IS NOT NULL
       AND EXISTS (SELECT 1 FROM "Trace" tr WHERE tr."id" = o."traceId");
  END IF;
  IF t IS NOT NULL THEN
    PERFORM "reviews_recount"(t, i);
  END IF;
  RETURN NULL;
END $$;

-- Decision points inserted after scores that name them (only OTLP can do that): most
-- inserts find no such score, one probe per trace.
CREATE FUNCTION "reviews_on_decision_insert"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  t text[];
  i text[];
BEGIN
  SELECT array_agg(n."traceId"), array_agg(n."id") INTO t, i FROM new_rows n
   WHERE n."traceId" IN (
     SELECT x."traceId" FROM (SELECT DISTINCT n2."traceId" FROM new_rows n2) x
      WHERE EXISTS (SELECT 1 FROM "Score" s WHERE s."traceId" = x."traceId" AND s."name" = 'decision.correct' OFFSET 0));
  IF t IS NOT NULL THEN
    PERFORM "reviews_recount"(t, i);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "reviews_on_score_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "DecisionPoint" SET "reviews" = 0 WHERE "reviews" <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER "Score_reviews_insert" AFTER INSERT ON "Score"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "reviews_on_score_write"();
CREATE TRIGGER "Score_reviews_update" AFTER UPDATE ON "Score"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "reviews_on_score_write"();
CREATE TRIGGER "Score_reviews_delete" AFTER DELETE ON "Score"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "reviews_on_score_write"();
CREATE TRIGGER "Score_reviews_truncate" AFTER TRUNCATE ON "Score"
  FOR EACH STATEMENT EXECUTE FUNCTION "reviews_on_score_truncate"();
CREATE TRIGGER "DecisionPoint_reviews_insert" AFTER INSERT ON "DecisionPoint"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "reviews_on_decision_insert"();

-- The search queue's UPDATE trigger (migration 20261126000000_search_deferred_index)
-- matched a child's old and new rows by "id" alone, which decision points, spans and
-- events share across traces: an UPDATE of many children compared every pair and queued
-- traces whose words had not changed. The marker's updates go through it; rows are now
-- matched by their whole key.
CREATE OR REPLACE FUNCTION "crossroads_search_queue"() RETURNS trigger
LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  changed text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('INSERT INTO "SearchQueue" ("traceId") SELECT DISTINCT n.%I FROM new_rows n', TG_ARGV[0]);
  ELSE
    SELECT string_agg(format('n.%1$I IS DISTINCT FROM o.%1$I', c), ' OR ') INTO changed FROM unnest(TG_ARGV) AS c;
    EXECUTE format('INSERT INTO "SearchQueue" ("traceId") SELECT DISTINCT n.%1$I FROM new_rows n JOIN old_rows o ON o.%1$I = n.%1$I AND o."id" = n."id" WHERE ', TG_ARGV[0]) || changed;
  END IF;
  RETURN NULL;
END $$;
