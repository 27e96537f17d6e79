-- The fleet's paths over every trace name (GET /api/insights/paths without a name) read
-- one narrow index instead of each trace of the window: "TracePath" now holds a row for
-- every trace (the empty path's id for a trace without decisions) with the trace's
-- figures the paths read filters and counts by: name, start, status, cost (totalCost,
-- else the sum of its spans' costUsd) and duration (ended traces: endedAt - startedAt in
-- ms). The index on ("startedAt") and the one on ("name", "startedAt") include them, so a
-- window of traces is an index-only scan.
--
-- Kept exact as the path itself: statement triggers mark the traces whose row may have
-- changed ("TracePathDirty"), now also for a trace inserted, deleted or updated in a copied
-- column, and a span's costUsd changed; paths_compact() rewrites the marked traces' rows
-- from "Trace" (deleting those of traces gone); readers take a marked trace's figures
-- from "Trace" and its path computed, in their snapshot.

CREATE TABLE "TracePathNext" (
    "traceId" TEXT NOT NULL,
    "pathId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "status" "RunStatus" NOT NULL,
    "costUsd" DOUBLE PRECISION,
    "durationMs" DOUBLE PRECISION
);

-- A trace's figures as the paths read computes them (fleet.ts), from its row `t`.
CREATE FUNCTION "paths_trace_cost"(trace_id text, total_cost double precision) RETURNS double precision
LANGUAGE sql STABLE AS $$
  SELECT coalesce(total_cost, (SELECT sum(s."costUsd") FROM "Span" s WHERE s."traceId" = trace_id))
$$;
CREATE FUNCTION "paths_trace_duration"(status "RunStatus", started_at timestamptz, ended_at timestamptz) RETURNS double precision
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status <> 'RUNNING' THEN round(date_part('epoch', ended_at - started_at) * 1000) END
$$;

-- Every trace with its stored path (a marked trace's may be stale: its mark stays, and the
-- next compaction rewrites the row), the empty path for one without a row.
INSERT INTO "TracePathNext" ("traceId", "pathId", "name", "startedAt", "status", "costUsd", "durationMs")
SELECT t."id", coalesce(tp."pathId", 'd41d8cd98f00b204e9800998ecf8427e'), t."name", t."startedAt", t."status",
       "paths_trace_cost"(t."id", t."totalCost"), "paths_trace_duration"(t."status", t."startedAt", t."endedAt")
  FROM "Trace" t LEFT JOIN "TracePath" tp ON tp."traceId" = t."id";

DROP TABLE "TracePath";
ALTER TABLE "TracePathNext" RENAME TO "TracePath";
ALTER TABLE "TracePath" ADD CONSTRAINT "TracePath_pkey" PRIMARY KEY ("traceId");
CREATE INDEX "TracePath_pathId_idx" ON "TracePath" ("pathId");
CREATE INDEX "TracePath_startedAt_idx" ON "TracePath" ("startedAt")
  INCLUDE ("traceId", "pathId", "status", "costUsd", "durationMs");
CREATE INDEX "TracePath_name_startedAt_idx" ON "TracePath" ("name", "startedAt")
  INCLUDE ("traceId", "pathId", "status", "costUsd", "durationMs");

-- Traces: a new one needs its row, a deleted one loses it, an update of a copied column
-- rewrites it (an OTLP request that changes nothing of these marks nothing).
CREATE FUNCTION "paths_mark_traces_new"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId") SELECT n."id" FROM new_rows n;
  RETURN NULL;
END $$;

CREATE FUNCTION "paths_mark_traces_old"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId") SELECT o."id" FROM old_rows o;
  RETURN NULL;
END $$;

CREATE FUNCTION "paths_mark_traces_updated"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId")
  SELECT n."id" FROM new_rows n JOIN old_rows o ON o."id" = n."id"
   WHERE (o."name", o."startedAt", o."status", o."endedAt", o."totalCost") IS DISTINCT FROM (n."name", n."startedAt", n."status", n."endedAt", n."totalCost")
  UNION
  SELECT o."id" FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n."id" = o."id")
  UNION
  SELECT n."id" FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o."id" = n."id");
  RETURN NULL;
END $$;

CREATE TRIGGER "Trace_paths_insert" AFTER INSERT ON "Trace"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_traces_new"();
CREATE TRIGGER "Trace_paths_delete" AFTER DELETE ON "Trace"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_traces_old"();
CREATE TRIGGER "Trace_paths_update" AFTER UPDATE ON "Trace"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_traces_updated"();

-- Spans: a cost changed now matters too (a trace without totalCost costs its spans' sum).
CREATE OR REPLACE FUNCTION "paths_mark_spans_updated"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId")
  SELECT DISTINCT x.id FROM (
    SELECT n."traceId" AS id FROM new_rows n LEFT JOIN old_rows o ON o."traceId" = n."traceId" AND o."id" = n."id"
     WHERE o."id" IS NULL OR (o."startedAt", o."costUsd") IS DISTINCT FROM (n."startedAt", n."costUsd")
    UNION ALL
    SELECT o."traceId" FROM old_rows o LEFT JOIN new_rows n ON n."traceId" = o."traceId" AND n."id" = o."id"
     WHERE n."id" IS NULL
  ) x;
  RETURN NULL;
END $$;

-- Without decision points every trace has the empty path: each trace is marked, so the
-- rows keep one per trace (a TRUNCATE of "Trace" itself empties both tables, below).
CREATE OR REPLACE FUNCTION "paths_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId") SELECT t."id" FROM "Trace" t;
  RETURN NULL;
END $$;

CREATE FUNCTION "paths_on_trace_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "TracePath", "TracePathDirty";
  RETURN NULL;
END $$;

CREATE TRIGGER "Trace_paths_truncate" AFTER TRUNCATE ON "Trace"
  FOR EACH STATEMENT EXECUTE FUNCTION "paths_on_trace_truncate"();

-- As before, with each marked trace's figures from "Trace" beside its path (the empty
-- path's id for a trace without decisions), and a marked trace that no longer exists
-- losing its row.
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
           "paths_trace_cost"(t."id", t."totalCost") AS cost, "paths_trace_duration"(t."status", t."startedAt", t."endedAt") AS duration
      FROM "Trace" t LEFT JOIN paths p ON p."traceId" = t."id"
     WHERE t."id" = ANY (ids)
  ), shapes AS (
    INSERT INTO "DecisionPath" ("id", "steps", "forkIds")
    SELECT DISTINCT ON (p.path_id) p.path_id, p."steps", p."forkIds" FROM paths p ORDER BY p.path_id
    ON CONFLICT ("id") DO NOTHING
  ), stored AS (
    INSERT INTO "TracePath" AS tp ("traceId", "pathId", "name", "startedAt", "status", "costUsd", "durationMs")
    SELECT c."traceId", c.path_id, c."name", c."startedAt", c."status", c.cost, c.duration FROM computed c ORDER BY c."traceId"
    ON CONFLICT ("traceId") DO UPDATE
      SET "pathId" = excluded."pathId", "name" = excluded."name", "startedAt" = excluded."startedAt", "status" = excluded."status",
          "costUsd" = excluded."costUsd", "durationMs" = excluded."durationMs"
      WHERE (tp."pathId", tp."name", tp."startedAt", tp."status", tp."costUsd", tp."durationMs")
            IS DISTINCT FROM (excluded."pathId", excluded."name", excluded."startedAt", excluded."status", excluded."costUsd", excluded."durationMs")
  )
  DELETE FROM "TracePath" tp
   WHERE tp."traceId" = ANY (ids) AND NOT EXISTS (SELECT 1 FROM computed c WHERE c."traceId" = tp."traceId");
  RETURN cardinality(ids);
END $$;
