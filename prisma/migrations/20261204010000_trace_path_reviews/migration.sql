-- The fleet's paths count decision reviews per path (judgedRightShare): each trace's row in
-- "TracePath" now holds how many `decision.correct` boolean scores on its decisions it has
-- ("reviewed") and how many say right ("judgedRight"), in the covering indexes too, so the
-- read over every name stays one index scan instead of also reading every review score and
-- looking up its trace.
--
-- Kept as the other copies (migration trace_path_figures): statement triggers on "Score"
-- mark the traces of the decision reviews a statement inserts, deletes or changes;
-- paths_compact() recounts a marked trace's reviews with its row.

ALTER TABLE "TracePath" ADD COLUMN "reviewed" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "TracePath" ADD COLUMN "judgedRight" INTEGER NOT NULL DEFAULT 0;

UPDATE "TracePath" tp SET "reviewed" = c.reviewed, "judgedRight" = c.judged_right
  FROM (SELECT sc."traceId", count(*)::int AS reviewed, count(*) FILTER (WHERE sc."value" = 1)::int AS judged_right
          FROM "Score" sc
         WHERE sc."traceId" IS NOT NULL AND sc."decisionPointId" IS NOT NULL AND sc."name" = 'decision.correct' AND sc."dataType" = 'BOOLEAN'
         GROUP BY sc."traceId") c
 WHERE tp."traceId" = c."traceId";

DROP INDEX "TracePath_startedAt_idx";
DROP INDEX "TracePath_name_startedAt_idx";
CREATE INDEX "TracePath_startedAt_idx" ON "TracePath" ("startedAt")
  INCLUDE ("traceId", "pathId", "status", "costUsd", "durationMs", "reviewed", "judgedRight");
CREATE INDEX "TracePath_name_startedAt_idx" ON "TracePath" ("name", "startedAt")
  INCLUDE ("traceId", "pathId", "status", "costUsd", "durationMs", "reviewed", "judgedRight");

-- A trace's decision reviews as the paths read counts them.
CREATE FUNCTION "paths_trace_reviews"(trace_id text, OUT reviewed integer, OUT judged_right integer)
LANGUAGE sql STABLE AS $$
  SELECT count(*)::int, count(*) FILTER (WHERE sc."value" = 1)::int
    FROM "Score" sc
   WHERE sc."traceId" = trace_id AND sc."decisionPointId" IS NOT NULL AND sc."name" = 'decision.correct' AND sc."dataType" = 'BOOLEAN'
$$;

CREATE FUNCTION "paths_mark_scores_new"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId")
  SELECT DISTINCT n."traceId" FROM new_rows n WHERE n."traceId" IS NOT NULL AND n."name" = 'decision.correct';
  RETURN NULL;
END $$;

CREATE FUNCTION "paths_mark_scores_old"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId")
  SELECT DISTINCT o."traceId" FROM old_rows o WHERE o."traceId" IS NOT NULL AND o."name" = 'decision.correct';
  RETURN NULL;
END $$;

-- An update marks both sides of a review whose counted columns changed.
CREATE FUNCTION "paths_mark_scores_updated"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId")
  SELECT DISTINCT x.id FROM (
    SELECT n."traceId" AS id FROM new_rows n LEFT JOIN old_rows o ON o."id" = n."id"
     WHERE (n."name" = 'decision.correct' OR o."name" = 'decision.correct')
       AND (o."id" IS NULL OR (o."traceId", o."decisionPointId", o."name", o."dataType", o."value")
                              IS DISTINCT FROM (n."traceId", n."decisionPointId", n."name", n."dataType", n."value"))
    UNION ALL
    SELECT o."traceId" FROM old_rows o LEFT JOIN new_rows n ON n."id" = o."id"
     WHERE o."name" = 'decision.correct'
       AND (n."id" IS NULL OR (o."traceId", o."decisionPointId", o."name", o."dataType", o."value")
                              IS DISTINCT FROM (n."traceId", n."decisionPointId", n."name", n."dataType", n."value"))
  ) x
  WHERE x.id IS NOT NULL;
  RETURN NULL;
END $$;

CREATE FUNCTION "paths_on_scores_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId") SELECT tp."traceId" FROM "TracePath" tp WHERE tp."reviewed" > 0;
  RETURN NULL;
END $$;

CREATE TRIGGER "Score_paths_insert" AFTER INSERT ON "Score"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_scores_new"();
CREATE TRIGGER "Score_paths_delete" AFTER DELETE ON "Score"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_scores_old"();
CREATE TRIGGER "Score_paths_update" AFTER UPDATE ON "Score"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_scores_updated"();
CREATE TRIGGER "Score_paths_truncate" AFTER TRUNCATE ON "Score"
  FOR EACH STATEMENT EXECUTE FUNCTION "paths_on_scores_truncate"();

-- As in trace_path_figures, with each marked trace's reviews recounted.
CREATE OR REPLACE FUNCTION "paths_compact"(max_traces integer) RETURNS integer
LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  ids text[];
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('crossroads_paths_compact')) THEN
    RETURN -1;
  END IF;
  SELECT array_agg(DISTINCT m."traceId") INTO ids FROM (SELECT "traceId" FROM "TracePathDirty" LIMIT max_traces) m;
  IF ids IS NULL THEN
    RETURN 0;
  END IF;
  DELETE FROM "TracePathDirty" WHERE "traceId" = ANY (ids);
  WITH paths AS MATERIALIZED (
    SELECT p."traceId", md5(p."key") AS path_id, p."steps", p."forkIds" FROM "decision_paths"(ids) p
  ), computed AS MATERIALIZED (
    SELECT t."id" AS "traceId", coalesce(p.path_id, 'd41d8cd98f00b204e9800998ecf8427e') AS path_id, t."name", t."startedAt", t."status",
           "paths_trace_cost"(t."id", t."totalCost") AS cost, "paths_trace_duration"(t."status", t."startedAt", t."endedAt") AS duration,
           r.reviewed, r.judged_right
      FROM "Trace" t LEFT JOIN paths p ON p."traceId" = t."id" CROSS JOIN LATERAL "paths_trace_reviews"(t."id") r
     WHERE t."id" = ANY (ids)
  ), shapes AS (
    INSERT INTO "DecisionPath" ("id", "steps", "forkIds")
    SELECT DISTINCT ON (p.path_id) p.path_id, p."steps", p."forkIds" FROM paths p ORDER BY p.path_id
    ON CONFLICT ("id") DO NOTHING
  ), stored AS (
    INSERT INTO "TracePath" AS tp ("traceId", "pathId", "name", "startedAt", "status", "costUsd", "durationMs", "reviewed", "judgedRight")
    SELECT c."traceId", c.path_id, c."name", c."startedAt", c."status", c.cost, c.duration, c.reviewed, c.judged_right FROM computed c ORDER BY c."traceId"
    ON CONFLICT ("traceId") DO UPDATE
      SET "pathId" = excluded."pathId", "name" = excluded."name", "startedAt" = excluded."startedAt", "status" = excluded."status",
          "costUsd" = excluded."costUsd", "durationMs" = excluded."durationMs", "reviewed" = excluded."reviewed", "judgedRight" = excluded."judgedRight"
      WHERE (tp."pathId", tp."name", tp."startedAt", tp."status", tp."costUsd", tp."durationMs", tp."reviewed", tp."judgedRight")
            IS DISTINCT FROM (excluded."pathId", excluded."name", excluded."startedAt", excluded."status", excluded."costUsd", excluded."durationMs",
                              excluded."reviewed", excluded."judgedRight")
  )
  DELETE FROM "TracePath" tp
   WHERE tp."traceId" = ANY (ids) AND NOT EXISTS (SELECT 1 FROM computed c WHERE c."traceId" = tp."traceId");
  RETURN cardinality(ids);
END $$;
