-- Score insights rollups: per UTC hour of the trace's startedAt and per trace status, what
-- the score figures of GET /api/insights/decisions add up (lib/insights/reviews.ts), so a
-- 30-day window reads a few tens of thousands of rollup rows instead of every score of its
-- traces; and the review queue's progress (lib/reviews/next.ts) reads the reviewed
-- decisions from them. Same design as the decision rollups (migration
-- 20261125000000_insights_rollups): writers append differences to delta tables, which
-- insights_compact folds in; readers sum rollup and delta rows and add the window's partial
-- edge hours from rows; a trace's deletion subtracts everything it held (insights_forget).
--
-- What each figure is, per (hour, status, ...):
-- - "InsightsScoreHour" per score name, data type and category (BOOLEAN: 'true'/'false';
--   CATEGORICAL: the value; NUMERIC: ''): scores, and the sum and count of their values.
-- - "InsightsReviewHour" per decision type and chosen label of the scored decision point:
--   BOOLEAN decision.correct scores, how many are true, and the decision points with at
--   least one decision.correct score (of any type: the queue's "reviewed").
-- - "InsightsBetterHour" per decision type, chosen label and named better option: the
--   CATEGORICAL decision.better_option scores.
--
-- Kept exact by:
-- - statement triggers on "Score" (insert, update by id, delete): each changed score's
--   difference, keyed by its trace's hour and status as they are. Writers lock the trace
--   FOR SHARE first (lib/scores), which a trace update (FOR NO KEY UPDATE) waits for and is
--   waited for by, so no trace moves hour or status between a score's write and its record.
--   Scores of a trace deleted in the same statement (the cascade) are skipped: the trace's
--   delete subtracted them.
-- - a statement trigger on "Trace" UPDATE: a trace whose status or startedAt changed moves
--   everything its scores add from the old key to the new; a trace that got decision points
--   in this transaction pairs them with the scores that named them before they came (OTLP).
--   Its old side pairs only what was recorded: decision points of other transactions, or
--   scores of this one (writers store a trace's decision points, then its row, then scores).
-- - insights_subtract (trace deletes), TRUNCATE of "Trace" or "Score", insights_rebuild.

CREATE TABLE "InsightsScoreHour" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "status" "RunStatus" NOT NULL,
    "name" TEXT NOT NULL,
    "dataType" "ScoreDataType" NOT NULL,
    "category" TEXT NOT NULL,
    "scores" INTEGER NOT NULL DEFAULT 0,
    "valueSum" DECIMAL NOT NULL DEFAULT 0,
    "valueCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "InsightsScoreHour_pkey" PRIMARY KEY ("hour", "status", "name", "dataType", "category")
);

CREATE TABLE "InsightsReviewHour" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "status" "RunStatus" NOT NULL,
    "type" "DecisionType" NOT NULL,
    "label" TEXT NOT NULL,
    "reviews" INTEGER NOT NULL DEFAULT 0,
    "judgedRight" INTEGER NOT NULL DEFAULT 0,
    "decisions" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "InsightsReviewHour_pkey" PRIMARY KEY ("hour", "status", "type", "label")
);

CREATE TABLE "InsightsBetterHour" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "status" "RunStatus" NOT NULL,
    "type" "DecisionType" NOT NULL,
    "label" TEXT NOT NULL,
    "better" TEXT NOT NULL,
    "scores" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "InsightsBetterHour_pkey" PRIMARY KEY ("hour", "status", "type", "label", "better")
);

CREATE TABLE "InsightsScoreDelta" (LIKE "InsightsScoreHour" INCLUDING DEFAULTS);
CREATE TABLE "InsightsReviewDelta" (LIKE "InsightsReviewHour" INCLUDING DEFAULTS);
CREATE TABLE "InsightsBetterDelta" (LIKE "InsightsBetterHour" INCLUDING DEFAULTS);
CREATE INDEX "InsightsScoreDelta_hour_idx" ON "InsightsScoreDelta" ("hour");
CREATE INDEX "InsightsReviewDelta_hour_idx" ON "InsightsReviewDelta" ("hour");
CREATE INDEX "InsightsBetterDelta_hour_idx" ON "InsightsBetterDelta" ("hour");

-- A score's category, as the score summary counts them.
CREATE FUNCTION "insights_score_category"(data_type "ScoreDataType", value double precision, string_value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE data_type WHEN 'BOOLEAN' THEN CASE WHEN value <> 0 THEN 'true' ELSE 'false' END
                        WHEN 'CATEGORICAL' THEN coalesce(string_value, '') ELSE '' END
$$;

-- What the traces' scores add (with_own: unused, the signature every rollup's rows share).
CREATE FUNCTION "insights_score_rows"(traces "insights_trace"[], with_own boolean) RETURNS SETOF "InsightsScoreHour"
LANGUAGE sql STABLE AS $$
  SELECT "insights_hour"(t."startedAt"), t."status", s."name", s."dataType",
         "insights_score_category"(s."dataType", s."value", s."stringValue"),
         count(*)::int, coalesce(sum(s."value"::numeric), 0), count(s."value")::int
    FROM unnest(traces) t
    CROSS JOIN LATERAL (SELECT * FROM "Score" s0 WHERE s0."traceId" = t."id" OFFSET 0) s
   GROUP BY 1, 2, 3, 4, 5
$$;

-- The traces' decision points paired with the review scores on them: all pairs (with_own),
-- or those recorded before this transaction's trace update (a decision point of another
-- transaction, or a score of this one).
CREATE FUNCTION "insights_review_pairs"(traces "insights_trace"[], with_own boolean)
RETURNS TABLE ("hour" timestamptz, "status" "RunStatus", "type" "DecisionType", "label" text, "name" text,
               "dataType" "ScoreDataType", "value" double precision, "stringValue" text, "traceId" text, "decisionPointId" text)
LANGUAGE sql STABLE AS $$
  SELECT "insights_hour"(t."startedAt"), t."status", d."type", "insights_option_label"(d."chosen"),
         s."name", s."dataType", s."value", s."stringValue", d."traceId", d."id"
    FROM unnest(traces) t
    CROSS JOIN LATERAL (
      SELECT s0.* , s0.xmin AS sx FROM "Score" s0
       WHERE s0."traceId" = t."id" AND s0."decisionPointId" IS NOT NULL AND s0."name" IN ('decision.correct', 'decision.better_option') OFFSET 0
    ) s
    JOIN "DecisionPoint" d ON d."traceId" = t."id" AND d."id" = s."decisionPointId"
   WHERE "insights_visible"(d.xmin, with_own) OR NOT "insights_visible"(s.sx, false)
$$;

CREATE FUNCTION "insights_review_rows"(traces "insights_trace"[], with_own boolean) RETURNS SETOF "InsightsReviewHour"
LANGUAGE sql STABLE AS $$
  SELECT p."hour", p."status", p."type", p."label", sum(p.reviews)::int, sum(p.judged_right)::int, count(*) FILTER (WHERE p.correct > 0)::int
    FROM (SELECT "hour", "status", "type", "label", "traceId", "decisionPointId",
                 count(*) FILTER (WHERE "name" = 'decision.correct' AND "dataType" = 'BOOLEAN') AS reviews,
                 count(*) FILTER (WHERE "name" = 'decision.correct' AND "dataType" = 'BOOLEAN' AND "value" <> 0) AS judged_right,
                 count(*) FILTER (WHERE "name" = 'decision.correct') AS correct
            FROM "insights_review_pairs"(traces, with_own)
           GROUP BY 1, 2, 3, 4, 5, 6) p
   GROUP BY 1, 2, 3, 4
  HAVING sum(p.reviews) <> 0 OR count(*) FILTER (WHERE p.correct > 0) <> 0
$$;

CREATE FUNCTION "insights_better_rows"(traces "insights_trace"[], with_own boolean) RETURNS SETOF "InsightsBetterHour"
LANGUAGE sql STABLE AS $$
  SELECT "hour", "status", "type", "label", coalesce("stringValue", ''), count(*)::int
    FROM "insights_review_pairs"(traces, with_own)
   WHERE "name" = 'decision.better_option' AND "dataType" = 'CATEGORICAL'
   GROUP BY 1, 2, 3, 4, 5
$$;

CREATE FUNCTION "insights_score_record"(
  score_rows "InsightsScoreHour"[], review_rows "InsightsReviewHour"[], better_rows "InsightsBetterHour"[]
) RETURNS void LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "InsightsScoreDelta" ("hour", "status", "name", "dataType", "category", "scores", "valueSum", "valueCount")
  SELECT "hour", "status", "name", "dataType", "category", sum("scores"), sum("valueSum"), sum("valueCount") FROM unnest(score_rows)
   GROUP BY 1, 2, 3, 4, 5 HAVING sum("scores") <> 0 OR sum("valueSum") <> 0 OR sum("valueCount") <> 0;

  INSERT INTO "InsightsReviewDelta" ("hour", "status", "type", "label", "reviews", "judgedRight", "decisions")
  SELECT "hour", "status", "type", "label", sum("reviews"), sum("judgedRight"), sum("decisions") FROM unnest(review_rows)
   GROUP BY 1, 2, 3, 4 HAVING sum("reviews") <> 0 OR sum("judgedRight") <> 0 OR sum("decisions") <> 0;

  INSERT INTO "InsightsBetterDelta" ("hour", "status", "type", "label", "better", "scores")
  SELECT "hour", "status", "type", "label", "better", sum("scores") FROM unnest(better_rows)
   GROUP BY 1, 2, 3, 4, 5 HAVING sum("scores") <> 0;
END $$;

CREATE FUNCTION "insights_negate_scores"(rows_ "InsightsScoreHour"[]) RETURNS "InsightsScoreHour"[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(ROW(r."hour", r."status", r."name", r."dataType", r."category", -r."scores", -r."valueSum", -r."valueCount")::"InsightsScoreHour"), '{}')
    FROM unnest(rows_) r
$$;
CREATE FUNCTION "insights_negate_reviews"(rows_ "InsightsReviewHour"[]) RETURNS "InsightsReviewHour"[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(ROW(r."hour", r."status", r."type", r."label", -r."reviews", -r."judgedRight", -r."decisions")::"InsightsReviewHour"), '{}')
    FROM unnest(rows_) r
$$;
CREATE FUNCTION "insights_negate_betters"(rows_ "InsightsBetterHour"[]) RETURNS "InsightsBetterHour"[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(ROW(r."hour", r."status", r."type", r."label", r."better", -r."scores")::"InsightsBetterHour"), '{}')
    FROM unnest(rows_) r
$$;

-- The review marker's trigger (migration review_marker), which also records what the
-- statement's scores add and remove. Per decision point, whether it counts as reviewed
-- comes from its recounted marker (every committed score, read under its row lock), and
-- from the marker less this statement's change for before.
CREATE OR REPLACE FUNCTION "reviews_on_score_write"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  added "Score"[] := '{}';
  removed "Score"[] := '{}';
  t text[];
  i text[];
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    added := ARRAY(SELECT n FROM new_rows n WHERE n."traceId" IS NOT NULL);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    removed := ARRAY(SELECT o FROM old_rows o WHERE o."traceId" IS NOT NULL);
  END IF;
  IF cardinality(added) = 0 AND cardinality(removed) = 0 THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(x."traceId"), array_agg(x."decisionPointId") INTO t, i
    FROM (SELECT * FROM unnest(added) UNION ALL SELECT * FROM unnest(removed)) x
   WHERE x."name" = 'decision.correct' AND x."decisionPointId" IS NOT NULL;
  IF t IS NOT NULL THEN
    PERFORM "reviews_recount"(t, i);
  END IF;
  PERFORM "insights_score_changes"(added, removed);
  RETURN NULL;
END $$;

-- A changed score, signed (+1 written, -1 removed), with its trace's hour and status.
CREATE TYPE "insights_score_change" AS (
    "sign" INTEGER, "hour" TIMESTAMPTZ, "status" "RunStatus", "traceId" TEXT, "decisionPointId" TEXT, "name" TEXT,
    "dataType" "ScoreDataType", "value" DOUBLE PRECISION, "stringValue" TEXT
);

CREATE FUNCTION "insights_score_changes"(added "Score"[], removed "Score"[]) RETURNS void LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  -- Scores of a trace deleted by this statement find no trace and are left out.
  ch "insights_score_change"[] := ARRAY(
    SELECT ROW(c.sign, "insights_hour"(tr."startedAt"), tr."status", c."traceId", c."decisionPointId", c."name", c."dataType", c."value", c."stringValue")::"insights_score_change"
      FROM (SELECT 1 AS sign, a.* FROM unnest(added) a UNION ALL SELECT -1, r.* FROM unnest(removed) r) c
      JOIN "Trace" tr ON tr."id" = c."traceId");
BEGIN
  IF cardinality(ch) = 0 THEN
    RETURN;
  END IF;
  PERFORM "insights_score_record"(
    ARRAY(SELECT ROW(c."hour", c."status", c."name", c."dataType", "insights_score_category"(c."dataType", c."value", c."stringValue"),
                     sum(c.sign), coalesce(sum(c.sign * c."value"::numeric), 0), sum(c.sign * (c."value" IS NOT NULL)::int))::"InsightsScoreHour"
            FROM unnest(ch) c
           GROUP BY c."hour", c."status", c."name", c."dataType", "insights_score_category"(c."dataType", c."value", c."stringValue")),
    ARRAY(SELECT ROW(p."hour", p."status", d."type", "insights_option_label"(d."chosen"), p.reviews, p.judged_right,
                     (d."reviews" > 0)::int - (d."reviews" - p.correct > 0)::int)::"InsightsReviewHour"
            FROM (SELECT c."hour", c."status", c."traceId", c."decisionPointId",
                         coalesce(sum(c.sign) FILTER (WHERE c."dataType" = 'BOOLEAN'), 0)::int AS reviews,
                         coalesce(sum(c.sign) FILTER (WHERE c."dataType" = 'BOOLEAN' AND c."value" <> 0), 0)::int AS judged_right,
                         sum(c.sign)::int AS correct
                    FROM unnest(ch) c
                   WHERE c."decisionPointId" IS NOT NULL AND c."name" = 'decision.correct'
                   GROUP BY 1, 2, 3, 4) p
            JOIN "DecisionPoint" d ON d."traceId" = p."traceId" AND d."id" = p."decisionPointId"),
    ARRAY(SELECT ROW(c."hour", c."status", d."type", "insights_option_label"(d."chosen"), coalesce(c."stringValue", ''), sum(c.sign))::"InsightsBetterHour"
            FROM unnest(ch) c
            JOIN "DecisionPoint" d ON d."traceId" = c."traceId" AND d."id" = c."decisionPointId"
           WHERE c."name" = 'decision.better_option' AND c."dataType" = 'CATEGORICAL'
           GROUP BY c."hour", c."status", d."type", "insights_option_label"(d."chosen"), coalesce(c."stringValue", '')));
END $$;

-- Moves what the traces' scores add from their old key to their new one (a status or
-- startedAt change), and pairs decision points this transaction inserted with the scores
-- that named them already.
CREATE FUNCTION "insights_scores_on_trace_update"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  changed text[];
  old_t "insights_trace"[];
  new_t "insights_trace"[];
BEGIN
  SELECT coalesce(array_agg(n."id"), '{}') INTO changed
    FROM new_rows n JOIN old_rows o ON o."id" = n."id"
   WHERE (o."status", o."startedAt") IS DISTINCT FROM (n."status", n."startedAt")
      OR EXISTS (SELECT 1 FROM "Score" s WHERE s."traceId" = n."id" AND s."decisionPointId" IS NOT NULL OFFSET 0)
         AND EXISTS (SELECT 1 FROM "DecisionPoint" d WHERE d."traceId" = n."id" AND NOT "insights_visible"(d.xmin, false) OFFSET 0);
  IF cardinality(changed) = 0 THEN
    RETURN NULL;
  END IF;
  -- Only traces with any score: the others add nothing either way.
  old_t := ARRAY(SELECT ROW(o."id", o."name", o."status", o."startedAt", o."totalCost", o."totalTokens")::"insights_trace"
                   FROM old_rows o WHERE o."id" = ANY (changed) AND EXISTS (SELECT 1 FROM "Score" s WHERE s."traceId" = o."id" OFFSET 0));
  IF cardinality(old_t) = 0 THEN
    RETURN NULL;
  END IF;
  new_t := ARRAY(SELECT ROW(n."id", n."name", n."status", n."startedAt", n."totalCost", n."totalTokens")::"insights_trace"
                   FROM new_rows n WHERE n."id" IN (SELECT (x)."id" FROM unnest(old_t) x));
  PERFORM "insights_score_record"(
    ARRAY(SELECT r FROM "insights_score_rows"(new_t, true) r) || "insights_negate_scores"(ARRAY(SELECT r FROM "insights_score_rows"(old_t, true) r)),
    ARRAY(SELECT r FROM "insights_review_rows"(new_t, true) r) || "insights_negate_reviews"(ARRAY(SELECT r FROM "insights_review_rows"(old_t, false) r)),
    ARRAY(SELECT r FROM "insights_better_rows"(new_t, true) r) || "insights_negate_betters"(ARRAY(SELECT r FROM "insights_better_rows"(old_t, false) r)));
  RETURN NULL;
END $$;

CREATE TRIGGER "Trace_insights_scores_update" AFTER UPDATE ON "Trace"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insights_scores_on_trace_update"();

-- insights_subtract (migration 20261125000000_insights_rollups) with the scores: a deleted
-- trace takes what its scores add with it.
CREATE OR REPLACE FUNCTION "insights_subtract"(t "insights_trace"[]) RETURNS void LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM "insights_record"(
    "insights_negate_traces"(ARRAY(SELECT r FROM "insights_trace_rows"(t, true) r)),
    "insights_negate_types"(ARRAY(SELECT r FROM "insights_type_rows"(t, true) r)),
    "insights_negate_options"(ARRAY(SELECT r FROM "insights_option_rows"(t, true) r)),
    "insights_negate_names"(ARRAY(SELECT r FROM "insights_name_rows"(t, true) r)));
  PERFORM "insights_score_record"(
    "insights_negate_scores"(ARRAY(SELECT r FROM "insights_score_rows"(t, true) r)),
    "insights_negate_reviews"(ARRAY(SELECT r FROM "insights_review_rows"(t, true) r)),
    "insights_negate_betters"(ARRAY(SELECT r FROM "insights_better_rows"(t, true) r)));
END $$;

-- Folds the score deltas (called by insights_compact, in its transaction). Keys that went
-- back to zero are dropped: only those the fold touched, not a scan of each table.
CREATE FUNCTION "insights_compact_scores"() RETURNS bigint LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  moved bigint := 0;
  n bigint;
  zero_scores "InsightsScoreHour"[];
  zero_reviews "InsightsReviewHour"[];
  zero_betters "InsightsBetterHour"[];
BEGIN
  WITH d AS (DELETE FROM "InsightsScoreDelta" RETURNING *), s AS (
    INSERT INTO "InsightsScoreHour" AS r ("hour", "status", "name", "dataType", "category", "scores", "valueSum", "valueCount")
    SELECT "hour", "status", "name", "dataType", "category", sum("scores"), sum("valueSum"), sum("valueCount")
      FROM d GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("hour", "status", "name", "dataType", "category") DO UPDATE
       SET "scores" = r."scores" + excluded."scores", "valueSum" = r."valueSum" + excluded."valueSum", "valueCount" = r."valueCount" + excluded."valueCount"
    RETURNING r.*
  ) SELECT (SELECT count(*) FROM d), ARRAY(SELECT s FROM s WHERE s."scores" = 0 AND s."valueSum" = 0 AND s."valueCount" = 0) INTO n, zero_scores;
  moved := moved + n;

  WITH d AS (DELETE FROM "InsightsReviewDelta" RETURNING *), s AS (
    INSERT INTO "InsightsReviewHour" AS r ("hour", "status", "type", "label", "reviews", "judgedRight", "decisions")
    SELECT "hour", "status", "type", "label", sum("reviews"), sum("judgedRight"), sum("decisions")
      FROM d GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("hour", "status", "type", "label") DO UPDATE
       SET "reviews" = r."reviews" + excluded."reviews", "judgedRight" = r."judgedRight" + excluded."judgedRight",
           "decisions" = r."decisions" + excluded."decisions"
    RETURNING r.*
  ) SELECT (SELECT count(*) FROM d), ARRAY(SELECT s FROM s WHERE s."reviews" = 0 AND s."judgedRight" = 0 AND s."decisions" = 0) INTO n, zero_reviews;
  moved := moved + n;

  WITH d AS (DELETE FROM "InsightsBetterDelta" RETURNING *), s AS (
    INSERT INTO "InsightsBetterHour" AS r ("hour", "status", "type", "label", "better", "scores")
    SELECT "hour", "status", "type", "label", "better", sum("scores") FROM d GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("hour", "status", "type", "label", "better") DO UPDATE SET "scores" = r."scores" + excluded."scores"
    RETURNING r.*
  ) SELECT (SELECT count(*) FROM d), ARRAY(SELECT s FROM s WHERE s."scores" = 0) INTO n, zero_betters;
  moved := moved + n;

  DELETE FROM "InsightsScoreHour" r USING unnest(zero_scores) z
   WHERE (r."hour", r."status", r."name", r."dataType", r."category") = (z."hour", z."status", z."name", z."dataType", z."category")
     AND r."scores" = 0 AND r."valueSum" = 0 AND r."valueCount" = 0;
  DELETE FROM "InsightsReviewHour" r USING unnest(zero_reviews) z
   WHERE (r."hour", r."status", r."type", r."label") = (z."hour", z."status", z."type", z."label")
     AND r."reviews" = 0 AND r."judgedRight" = 0 AND r."decisions" = 0;
  DELETE FROM "InsightsBetterHour" r USING unnest(zero_betters) z
   WHERE (r."hour", r."status", r."type", r."label", r."better") = (z."hour", z."status", z."type", z."label", z."better")
     AND r."scores" = 0;
  RETURN moved;
END $$;

-- insights_compact (migration 20261128000000_insights_name_totals) with the score deltas.
CREATE OR REPLACE FUNCTION "insights_compact"() RETURNS bigint LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  moved bigint := 0;
  n bigint;
  emptied text[];
BEGIN
  WITH d AS (DELETE FROM "InsightsTraceDelta" RETURNING *), s AS (
    INSERT INTO "InsightsTraceHour" AS r ("hour", "status", "traces", "costUsd", "tokens")
    SELECT "hour", "status", sum("traces"), sum("costUsd"), sum("tokens") FROM d GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("hour", "status") DO UPDATE
       SET "traces" = r."traces" + excluded."traces", "costUsd" = r."costUsd" + excluded."costUsd", "tokens" = r."tokens" + excluded."tokens"
  ) SELECT count(*) INTO n FROM d;
  moved := moved + n;

  WITH d AS (DELETE FROM "InsightsTypeDelta" RETURNING *), s AS (
    INSERT INTO "InsightsTypeHour" AS r ("hour", "status", "type", "decisions", "traces", "durationSum", "durationCount", "costSum", "costCount")
    SELECT "hour", "status", "type", sum("decisions"), sum("traces"), sum("durationSum"), sum("durationCount"), sum("costSum"), sum("costCount")
      FROM d GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("hour", "status", "type") DO UPDATE
       SET "decisions" = r."decisions" + excluded."decisions", "traces" = r."traces" + excluded."traces",
           "durationSum" = r."durationSum" + excluded."durationSum", "durationCount" = r."durationCount" + excluded."durationCount",
           "costSum" = r."costSum" + excluded."costSum", "costCount" = r."costCount" + excluded."costCount"
  ) SELECT count(*) INTO n FROM d;
  moved := moved + n;

  WITH d AS (DELETE FROM "InsightsOptionDelta" RETURNING *), s AS (
    INSERT INTO "InsightsOptionHour" AS r ("hour", "status", "type", "label", "chosen", "offered", "chosenTraces")
    SELECT "hour", "status", "type", "label", sum("chosen"), sum("offered"), sum("chosenTraces") FROM d GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("hour", "status", "type", "label") DO UPDATE
       SET "chosen" = r."chosen" + excluded."chosen", "offered" = r."offered" + excluded."offered",
           "chosenTraces" = r."chosenTraces" + excluded."chosenTraces"
  ) SELECT count(*) INTO n FROM d;
  moved := moved + n;

  WITH d AS (DELETE FROM "InsightsNameDelta" RETURNING *), s AS (
    INSERT INTO "InsightsNameHour" AS r ("hour", "status", "name", "traces", "retries", "escalations")
    SELECT "hour", "status", "name", sum("traces"), sum("retries"), sum("escalations") FROM d GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("hour", "status", "name") DO UPDATE
       SET "traces" = r."traces" + excluded."traces", "retries" = r."retries" + excluded."retries",
           "escalations" = r."escalations" + excluded."escalations"
  ), total AS (
    INSERT INTO "InsightsNameTotal" AS r ("name", "traces")
    SELECT "name", sum("traces") FROM d GROUP BY 1 HAVING sum("traces") <> 0 ORDER BY 1
    ON CONFLICT ("name") DO UPDATE SET "traces" = r."traces" + excluded."traces"
    RETURNING r."name", r."traces"
  ) SELECT (SELECT count(*) FROM d), ARRAY(SELECT "name" FROM total WHERE "traces" = 0) INTO n, emptied;
  moved := moved + n;
  -- Names whose every trace is gone are dropped (their rows only, not a scan of the table).
  DELETE FROM "InsightsNameTotal" WHERE "name" = ANY (emptied) AND "traces" = 0;

  -- Keys that went back to zero (their traces deleted) are dropped.
  DELETE FROM "InsightsTraceHour" WHERE "traces" = 0 AND "costUsd" = 0 AND "tokens" = 0;
  DELETE FROM "InsightsTypeHour" WHERE "decisions" = 0 AND "traces" = 0 AND "durationSum" = 0 AND "durationCount" = 0 AND "costSum" = 0 AND "costCount" = 0;
  DELETE FROM "InsightsOptionHour" WHERE "chosen" = 0 AND "offered" = 0 AND "chosenTraces" = 0;
  DELETE FROM "InsightsNameHour" WHERE "traces" = 0 AND "retries" = 0 AND "escalations" = 0;
  RETURN moved + "insights_compact_scores"();
END $$;

-- insights_rebuild and the TRUNCATE triggers' functions, with the score rollups.
CREATE OR REPLACE FUNCTION "insights_rebuild"() RETURNS void LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  t "insights_trace"[] := ARRAY(SELECT ROW("id", "name", "status", "startedAt", "totalCost", "totalTokens")::"insights_trace" FROM "Trace");
BEGIN
  DELETE FROM "InsightsTraceHour";
  DELETE FROM "InsightsTypeHour";
  DELETE FROM "InsightsOptionHour";
  DELETE FROM "InsightsNameHour";
  DELETE FROM "InsightsTraceDelta";
  DELETE FROM "InsightsTypeDelta";
  DELETE FROM "InsightsOptionDelta";
  DELETE FROM "InsightsNameDelta";
  DELETE FROM "InsightsNameTotal";
  DELETE FROM "InsightsScoreHour";
  DELETE FROM "InsightsReviewHour";
  DELETE FROM "InsightsBetterHour";
  DELETE FROM "InsightsScoreDelta";
  DELETE FROM "InsightsReviewDelta";
  DELETE FROM "InsightsBetterDelta";
  INSERT INTO "InsightsTraceHour" SELECT * FROM "insights_trace_rows"(t, true);
  INSERT INTO "InsightsTypeHour" SELECT * FROM "insights_type_rows"(t, true);
  INSERT INTO "InsightsOptionHour" SELECT * FROM "insights_option_rows"(t, true);
  INSERT INTO "InsightsNameHour" SELECT * FROM "insights_name_rows"(t, true);
  INSERT INTO "InsightsNameTotal" SELECT "name", sum("traces") FROM "InsightsNameHour" GROUP BY 1;
  INSERT INTO "InsightsScoreHour" SELECT * FROM "insights_score_rows"(t, true);
  INSERT INTO "InsightsReviewHour" SELECT * FROM "insights_review_rows"(t, true);
  INSERT INTO "InsightsBetterHour" SELECT * FROM "insights_better_rows"(t, true);
END $$;

CREATE OR REPLACE FUNCTION "insights_rollup_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "InsightsTraceHour", "InsightsTypeHour", "InsightsOptionHour", "InsightsNameHour", "InsightsNameTotal",
           "InsightsTraceDelta", "InsightsTypeDelta", "InsightsOptionDelta", "InsightsNameDelta", "InsightsForgotten",
           "InsightsScoreHour", "InsightsReviewHour", "InsightsBetterHour", "InsightsScoreDelta", "InsightsReviewDelta", "InsightsBetterDelta";
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "reviews_on_score_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "DecisionPoint" SET "reviews" = 0 WHERE "reviews" <> 0;
  TRUNCATE "InsightsScoreHour", "InsightsReviewHour", "InsightsBetterHour", "InsightsScoreDelta", "InsightsReviewDelta", "InsightsBetterDelta";
  RETURN NULL;
END $$;

-- The scores stored so far.
DO $$
DECLARE
  t "insights_trace"[] := ARRAY(SELECT ROW("id", "name", "status", "startedAt", "totalCost", "totalTokens")::"insights_trace" FROM "Trace"
                                 WHERE EXISTS (SELECT 1 FROM "Score" s WHERE s."traceId" = "Trace"."id"));
BEGIN
  INSERT INTO "InsightsScoreHour" SELECT * FROM "insights_score_rows"(t, true);
  INSERT INTO "InsightsReviewHour" SELECT * FROM "insights_review_rows"(t, true);
  INSERT INTO "InsightsBetterHour" SELECT * FROM "insights_better_rows"(t, true);
END $$;
