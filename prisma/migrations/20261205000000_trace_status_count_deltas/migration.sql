-- The per-status trace counts without a hot row. Until now every statement that inserted,
-- deleted or moved the status of a trace updated the three "TraceStatusCount" rows and
-- held their locks until commit, so concurrent writers queued behind each other's commit
-- (measured: OTLP requests at 4 clients spent 30% of their time waiting on these rows,
-- docs/benchmarks.md). Now the triggers append their exact delta to
-- "TraceStatusCountDelta", which takes no lock another writer waits on, and
-- trace_status_count_fold() moves the deltas into the counters (housekeeping runs it).
-- A count is the counters plus the deltas not yet folded, read in one snapshot: a fold
-- deletes the deltas and adds them to the counters in one transaction, so a reader sees
-- either both before or both after.
CREATE TABLE "TraceStatusCountDelta" (
    "id" BIGSERIAL NOT NULL,
    "status" "RunStatus" NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "TraceStatusCountDelta_pkey" PRIMARY KEY ("id")
);

CREATE OR REPLACE FUNCTION "trace_status_count_apply"(delta_rows "RunStatus"[], delta_sign integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "TraceStatusCountDelta" ("status", "n")
  SELECT s, delta_sign * count(*) FROM unnest(delta_rows) AS s GROUP BY s;
$$;

-- An UPDATE that moves statuses appends one net row per status it changed.
CREATE OR REPLACE FUNCTION "trace_status_count_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "TraceStatusCountDelta" ("status", "n")
  SELECT "status", sum(n) FROM (
    SELECT "status", 1 AS n FROM new_rows
    UNION ALL
    SELECT "status", -1 AS n FROM old_rows
  ) moved
  GROUP BY "status"
  HAVING sum(n) <> 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "trace_status_count_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "TraceStatusCountDelta";
  UPDATE "TraceStatusCount" SET "count" = 0;
  RETURN NULL;
END $$;

-- The counts as readers see them.
CREATE VIEW "TraceStatusTotal" AS
SELECT c."status", c."count" + coalesce(d.n, 0) AS "count"
  FROM "TraceStatusCount" c
  LEFT JOIN (SELECT "status", sum("n") AS n FROM "TraceStatusCountDelta" GROUP BY "status") d ON d."status" = c."status";

-- Moves every committed delta into the counters; returns how many delta rows it folded.
-- One fold at a time (a second returns 0 at once), so two folds never lock the counter
-- rows in different orders. Deltas of transactions still open are left for the next fold.
CREATE FUNCTION "trace_status_count_fold"() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  folded integer;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('crossroads:trace_status_count_fold')) THEN
    RETURN 0;
  END IF;
  WITH gone AS (
    DELETE FROM "TraceStatusCountDelta" RETURNING "status", "n"
  ), summed AS (
    SELECT "status", sum("n") AS n, count(*) AS rows FROM gone GROUP BY "status"
  ), applied AS (
    UPDATE "TraceStatusCount" c SET "count" = c."count" + summed.n
      FROM summed WHERE c."status" = summed."status"
    RETURNING summed.rows
  )
  SELECT coalesce(sum(rows), 0)::integer INTO folded FROM applied;
  RETURN folded;
END $$;
