-- Each trace's decision path (lib/paths/steps.ts), stored, so that the fleet's paths
-- (GET /api/insights/paths) and the list's path and fork filters read one row per trace
-- instead of every decision point of the window.
--
-- "TracePath": a trace's path id (the MD5 of its path key), one row per trace with at
-- least one decision (no row: the empty path). "DecisionPath": each distinct path once,
-- its steps and its fork ids (forkIds[i + 1] is the id of the fork at position i, the MD5
-- of chr(29) and the key of the steps before it), which the fork filter searches.
--
-- Kept exact for every writer (JSON ingest, OTLP upserts across requests, SOAP, deletes,
-- retention, anything run by hand) by statement triggers that only record which traces
-- may have a new path in "TracePathDirty" (no key: appending never waits on anyone):
-- decision points inserted, deleted, or updated in what the path reads; spans inserted,
-- deleted or moved in time (a parent span's start orders decisions of the same instant).
-- paths_compact() recomputes the recorded traces with decision_paths() and deletes what
-- it recorded. Readers use a trace's stored path unless the trace is recorded in their
-- snapshot, and compute it then, so an answer is exact whether or not compaction ran.
-- Every statement that marks a trace commits with the changes it marks, so a mark that a
-- compaction sees comes with those changes; marks committed later stay for the next one.

CREATE TABLE "TracePath" (
    "traceId" TEXT NOT NULL,
    "pathId" TEXT NOT NULL,

    CONSTRAINT "TracePath_pkey" PRIMARY KEY ("traceId")
);
CREATE INDEX "TracePath_pathId_idx" ON "TracePath" ("pathId");

CREATE TABLE "DecisionPath" (
    "id" TEXT NOT NULL,
    "steps" JSONB NOT NULL,
    "forkIds" TEXT[] NOT NULL,

    CONSTRAINT "DecisionPath_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "DecisionPath_forkIds_idx" ON "DecisionPath" USING gin ("forkIds");

CREATE TABLE "TracePathDirty" (
    "traceId" TEXT NOT NULL
);
CREATE INDEX "TracePathDirty_traceId_idx" ON "TracePathDirty" ("traceId");

-- The path rule of lib/paths/steps.ts for a set of traces: decisions in order of
-- timestamp, then parent span's start (a missing parent last), then id by code units;
-- each a step (type, option label); consecutive equal steps as one with repeats (gaps and
-- islands: within a run of equal steps the row number and the row number per step grow
-- together). A parent's start is only looked up for decisions that share their instant
-- with another, the only ones it orders. Traces without decisions give no row.
-- Returns each trace's path key (the text its id is the MD5 of), steps and fork ids.
CREATE FUNCTION "decision_paths"(trace_ids text[])
RETURNS TABLE ("traceId" text, "key" text, "steps" jsonb, "forkIds" text[])
LANGUAGE sql STABLE AS $$
  WITH d AS (
    SELECT dp."traceId", dp."type"::text AS type, "insights_option_label"(dp."chosen") AS label, dp."timestamp", dp."id",
           CASE WHEN count(*) OVER (PARTITION BY dp."traceId", dp."timestamp") > 1
                THEN (SELECT s."startedAt" FROM "Span" s WHERE s."traceId" = dp."traceId" AND s."id" = dp."parentSpanId") END AS parent_start
      FROM "DecisionPoint" dp
     WHERE dp."traceId" = ANY (trace_ids)
  ), numbered AS (
    SELECT d."traceId", d.type, d.label,
           row_number() OVER (PARTITION BY d."traceId" ORDER BY d."timestamp", d.parent_start NULLS LAST, d."id" COLLATE "C") AS n,
           row_number() OVER (PARTITION BY d."traceId", d.type, d.label ORDER BY d."timestamp", d.parent_start NULLS LAST, d."id" COLLATE "C") AS m
      FROM d
  ), collapsed AS (
    SELECT nb."traceId", nb.type, nb.label, count(*)::int AS repeats, min(nb.n) AS first
      FROM numbered nb
     GROUP BY nb."traceId", nb.type, nb.label, nb.n - nb.m
  ), keyed AS (
    SELECT c."traceId", c.type, c.label, c.repeats, c.first,
           c.type || chr(31) || c.label || chr(31) || c.repeats::text AS step_key,
           coalesce(string_agg(c.type || chr(31) || c.label || chr(31) || c.repeats::text, chr(30))
                      OVER (PARTITION BY c."traceId" ORDER BY c.first ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), '') AS prefix
      FROM collapsed c
  )
  SELECT k."traceId",
         string_agg(k.step_key, chr(30) ORDER BY k.first),
         jsonb_agg(jsonb_build_object('type', k.type, 'label', k.label, 'repeats', k.repeats) ORDER BY k.first),
         array_agg(md5(chr(29) || k.prefix) ORDER BY k.first)
    FROM keyed k
   GROUP BY k."traceId"
$$;

-- The triggers: mark every trace whose path a statement may have changed.
CREATE FUNCTION "paths_mark_new"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId") SELECT DISTINCT n."traceId" FROM new_rows n;
  RETURN NULL;
END $$;

CREATE FUNCTION "paths_mark_old"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId") SELECT DISTINCT o."traceId" FROM old_rows o;
  RETURN NULL;
END $$;

-- An UPDATE marks only rows where a column the path reads changed (an OTLP span or
-- decision sent again changes nothing), on both sides of a row whose ids changed.
CREATE FUNCTION "paths_mark_decisions_updated"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId")
  SELECT DISTINCT x.id FROM (
    SELECT n."traceId" AS id FROM new_rows n LEFT JOIN old_rows o ON o."traceId" = n."traceId" AND o."id" = n."id"
     WHERE o."id" IS NULL
        OR (o."type", o."chosen", o."timestamp", o."parentSpanId") IS DISTINCT FROM (n."type", n."chosen", n."timestamp", n."parentSpanId")
    UNION ALL
    SELECT o."traceId" FROM old_rows o LEFT JOIN new_rows n ON n."traceId" = o."traceId" AND n."id" = o."id"
     WHERE n."id" IS NULL
  ) x;
  RETURN NULL;
END $$;

CREATE FUNCTION "paths_mark_spans_updated"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "TracePathDirty" ("traceId")
  SELECT DISTINCT x.id FROM (
    SELECT n."traceId" AS id FROM new_rows n LEFT JOIN old_rows o ON o."traceId" = n."traceId" AND o."id" = n."id"
     WHERE o."id" IS NULL OR o."startedAt" IS DISTINCT FROM n."startedAt"
    UNION ALL
    SELECT o."traceId" FROM old_rows o LEFT JOIN new_rows n ON n."traceId" = o."traceId" AND n."id" = o."id"
     WHERE n."id" IS NULL
  ) x;
  RETURN NULL;
END $$;

-- Without decision points every trace has the empty path.
CREATE FUNCTION "paths_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "TracePath", "TracePathDirty";
  RETURN NULL;
END $$;

CREATE TRIGGER "DecisionPoint_paths_insert" AFTER INSERT ON "DecisionPoint"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_new"();
CREATE TRIGGER "DecisionPoint_paths_delete" AFTER DELETE ON "DecisionPoint"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_old"();
CREATE TRIGGER "DecisionPoint_paths_update" AFTER UPDATE ON "DecisionPoint"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_decisions_updated"();
CREATE TRIGGER "DecisionPoint_paths_truncate" AFTER TRUNCATE ON "DecisionPoint"
  FOR EACH STATEMENT EXECUTE FUNCTION "paths_on_truncate"();
CREATE TRIGGER "Span_paths_insert" AFTER INSERT ON "Span"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_new"();
CREATE TRIGGER "Span_paths_delete" AFTER DELETE ON "Span"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_old"();
CREATE TRIGGER "Span_paths_update" AFTER UPDATE ON "Span"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "paths_mark_spans_updated"();

-- Stores the paths of up to max_traces marked traces and removes their marks; returns
-- how many traces, 0 when none is marked, -1 when another session is compacting (one at a
-- time: an older snapshot's answer must never overwrite a newer one's). The marks are
-- removed before the paths are computed, in a later snapshot, so the paths stored include
-- every change those marks stood for.
CREATE FUNCTION "paths_compact"(max_traces integer) RETURNS integer
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
  WITH computed AS MATERIALIZED (
    SELECT p."traceId", md5(p."key") AS path_id, p."steps", p."forkIds" FROM "decision_paths"(ids) p
  ), shapes AS (
    INSERT INTO "DecisionPath" ("id", "steps", "forkIds")
    SELECT DISTINCT ON (c.path_id) c.path_id, c."steps", c."forkIds" FROM computed c ORDER BY c.path_id
    ON CONFLICT ("id") DO NOTHING
  ), stored AS (
    INSERT INTO "TracePath" AS tp ("traceId", "pathId")
    SELECT c."traceId", c.path_id FROM computed c ORDER BY c."traceId"
    ON CONFLICT ("traceId") DO UPDATE SET "pathId" = excluded."pathId" WHERE tp."pathId" <> excluded."pathId"
  )
  DELETE FROM "TracePath" tp
   WHERE tp."traceId" = ANY (ids) AND NOT EXISTS (SELECT 1 FROM computed c WHERE c."traceId" = tp."traceId");
  RETURN cardinality(ids);
END $$;

-- What is stored already: every trace with a decision is marked (compacted by the first
-- reads and the housekeeping job).
INSERT INTO "TracePathDirty" ("traceId") SELECT DISTINCT "traceId" FROM "DecisionPoint";
