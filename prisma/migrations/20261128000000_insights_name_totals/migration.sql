-- The insights rates by trace name rank a window's names by their number of traces and
-- keep the RATE_NAMES first. Summing every name of the window to find them took ~360 ms of
-- the 30-day decisions call at 1M traces with nearly unique names (~330k names in the
-- window): one hash entry per name. But a name with one trace in all of history has one
-- rollup row with one trace, so its figures need no summing, and among such names only the
-- first ones by name can make the list. The reader (lib/insights/name-rates.ts) sums only
-- the names that may have more than one row, and takes the others straight from an index
-- in name order. This migration keeps what that needs:
--
-- "InsightsNameTotal": every name's folded traces, all hours and statuses, kept by
-- insights_compact in the same statement that folds the name deltas (so a reader's
-- snapshot sees a delta either unfolded, or in both the hour rows and the total, never
-- half). Not exact per window: an upper bound of any window's count, which is all the
-- reader asks of it. Names whose count falls to zero are dropped.
CREATE TABLE "InsightsNameTotal" (
    "name" TEXT NOT NULL,
    "traces" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "InsightsNameTotal_pkey" PRIMARY KEY ("name")
);
-- The names with more than one trace: the ones the reader sums.
CREATE INDEX "InsightsNameTotal_repeated_idx" ON "InsightsNameTotal" ("name") WHERE "traces" >= 2;
-- The names with one trace, in bytewise name order (the order ratesByTraceName breaks ties
-- in, whatever the database's collation): the reader takes the first ones in its window.
CREATE INDEX "InsightsNameTotal_single_idx" ON "InsightsNameTotal" ("name" COLLATE "C") WHERE "traces" = 1;

-- A name's rows by hour, figures included: the reader finds a name's rows in its window
-- through it. Bytewise, like the index above, so that the two are probed with one
-- collation. An explicit collation, which schema.prisma cannot declare; the drift test
-- only asks that the schema's indexes exist.
CREATE INDEX "InsightsNameHour_name_idx" ON "InsightsNameHour" ("name" COLLATE "C", "hour")
  INCLUDE ("status", "traces", "retries", "escalations");

INSERT INTO "InsightsNameTotal" ("name", "traces")
SELECT "name", sum("traces") FROM "InsightsNameHour" GROUP BY 1 HAVING sum("traces") <> 0;

-- insights_compact (migration 20261125000000_insights_rollups) with the totals folded in.
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
  RETURN moved;
END $$;

-- insights_rebuild and the TRUNCATE trigger's function, with the totals.
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
  INSERT INTO "InsightsTraceHour" SELECT * FROM "insights_trace_rows"(t, true);
  INSERT INTO "InsightsTypeHour" SELECT * FROM "insights_type_rows"(t, true);
  INSERT INTO "InsightsOptionHour" SELECT * FROM "insights_option_rows"(t, true);
  INSERT INTO "InsightsNameHour" SELECT * FROM "insights_name_rows"(t, true);
  INSERT INTO "InsightsNameTotal" SELECT "name", sum("traces") FROM "InsightsNameHour" GROUP BY 1;
END $$;

CREATE OR REPLACE FUNCTION "insights_rollup_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "InsightsTraceHour", "InsightsTypeHour", "InsightsOptionHour", "InsightsNameHour", "InsightsNameTotal",
           "InsightsTraceDelta", "InsightsTypeDelta", "InsightsOptionDelta", "InsightsNameDelta", "InsightsForgotten";
  RETURN NULL;
END $$;
