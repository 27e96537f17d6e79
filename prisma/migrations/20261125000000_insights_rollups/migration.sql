-- Insights rollups (issue 12): per UTC hour of a trace's startedAt and per trace status,
-- what the insights figures add up, so a 30-day window reads a few thousand rows instead
-- of every trace and decision point in it (lib/insights/rollups.ts reads them).
--
-- A trace belongs to exactly one hour and one status, so even the distinct-trace counts
-- ("traces with a decision of this type", "traces where this option was chosen") add up
-- across hours. Sums are numeric: adding and later subtracting the same values gives
-- back exactly what was there, in any order, which float8 does not. Counts are integer
-- (per hour, status and key: far from 2^31), which PostgreSQL sums in bigint, several
-- times faster than the numeric it sums bigints in (the rates by name group ~330k
-- names over 30 days at 1M traces with the bench's nearly unique names).
--
-- Kept exact by triggers on "Trace", for every writer (JSON ingest, OTLP upserts, the
-- idle sweep, deletes, retention, TRUNCATE, anything run by hand):
-- - INSERT and UPDATE (statement level): a trace's contribution is computed from the row
--   and its children as they are now, minus its contribution as it was before the
--   statement: the old row (transition table) with the children this transaction did not
--   insert. Writers insert a trace's children and then write its row once in the same
--   transaction (POST /api/traces in one statement, OTLP in one upsert), so "children of
--   other transactions" is exactly the state before. The trace row's lock orders
--   concurrent writers of one trace, and each trigger statement reads what committed
--   before it (READ COMMITTED), so concurrent OTLP requests for one trace add up.
-- - DELETE (row level, before the row goes): children are still there, so the trace's
--   contribution is known; it is subtracted (or was already, set-based, by
--   insights_forget: the app's deletes).
-- - TRUNCATE empties the rollups.
--
-- The functions run with JIT off: their statements' estimated costs pass jit_above_cost
-- (jsonb_array_elements is costed at 100 rows), and compiling them took ~0.5 s per call,
-- far more than running them (a few ms for a 50-trace batch).
--
-- Writers never update a rollup row: they append their difference to a delta table
-- ("Insights*Delta", no unique key, so an insert never waits for anyone), and
-- insights_compact() folds the deltas into the rollup tables in one transaction, run by
-- the housekeeping job and before insights reads (lib/insights/compact.ts). Readers sum
-- rollup and delta rows in one snapshot, so the answer is exact before and after a
-- compaction. (Updating rollup rows from the triggers made concurrent ingest, OTLP
-- upserts and deletes deadlock on them: an upsert fires INSERT and UPDATE triggers one
-- after the other, and deletes take rows in another order. Appending takes no row lock.)

CREATE TABLE "InsightsTraceHour" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "status" "RunStatus" NOT NULL,
    "traces" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DECIMAL NOT NULL DEFAULT 0,
    "tokens" DECIMAL NOT NULL DEFAULT 0,

    CONSTRAINT "InsightsTraceHour_pkey" PRIMARY KEY ("hour", "status")
);

CREATE TABLE "InsightsTypeHour" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "status" "RunStatus" NOT NULL,
    "type" "DecisionType" NOT NULL,
    "decisions" INTEGER NOT NULL DEFAULT 0,
    "traces" INTEGER NOT NULL DEFAULT 0,
    "durationSum" DECIMAL NOT NULL DEFAULT 0,
    "durationCount" INTEGER NOT NULL DEFAULT 0,
    "costSum" DECIMAL NOT NULL DEFAULT 0,
    "costCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "InsightsTypeHour_pkey" PRIMARY KEY ("hour", "status", "type")
);

CREATE TABLE "InsightsOptionHour" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "status" "RunStatus" NOT NULL,
    "type" "DecisionType" NOT NULL,
    "label" TEXT NOT NULL,
    "chosen" INTEGER NOT NULL DEFAULT 0,
    "offered" INTEGER NOT NULL DEFAULT 0,
    "chosenTraces" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "InsightsOptionHour_pkey" PRIMARY KEY ("hour", "status", "type", "label")
);

CREATE TABLE "InsightsNameHour" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "status" "RunStatus" NOT NULL,
    "name" TEXT NOT NULL,
    "traces" INTEGER NOT NULL DEFAULT 0,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "escalations" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "InsightsNameHour_pkey" PRIMARY KEY ("hour", "status", "name")
);

-- Differences not yet folded into the rollups, same columns, any number of rows per key.
CREATE TABLE "InsightsTraceDelta" (LIKE "InsightsTraceHour" INCLUDING DEFAULTS);
CREATE TABLE "InsightsTypeDelta" (LIKE "InsightsTypeHour" INCLUDING DEFAULTS);
CREATE TABLE "InsightsOptionDelta" (LIKE "InsightsOptionHour" INCLUDING DEFAULTS);
CREATE TABLE "InsightsNameDelta" (LIKE "InsightsNameHour" INCLUDING DEFAULTS);
CREATE INDEX "InsightsTraceDelta_hour_idx" ON "InsightsTraceDelta" ("hour");
CREATE INDEX "InsightsTypeDelta_hour_idx" ON "InsightsTypeDelta" ("hour");
CREATE INDEX "InsightsOptionDelta_hour_idx" ON "InsightsOptionDelta" ("hour");
CREATE INDEX "InsightsNameDelta_hour_idx" ON "InsightsNameDelta" ("hour");

-- The overview's duration percentiles cannot come from rollups; they read the window's
-- traces, and this index lets them do it without visiting the table (index-only: 30 days
-- at 1M traces, 340 ms -> 150 ms here).
CREATE INDEX "Trace_startedAt_endedAt_idx" ON "Trace" ("startedAt") INCLUDE ("endedAt", "status");

-- The option-label rule of lib/insights/labels.ts (the same expression as
-- lib/insights/label-sql.ts builds; labels.test.ts checks the three agree).
CREATE FUNCTION "insights_option_label"(value jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN value IS NULL THEN 'null'
    WHEN jsonb_typeof(value) = 'string' THEN left(value #>> '{}', 200)
    WHEN jsonb_typeof(value -> 'tool') = 'string' THEN left(value ->> 'tool', 200)
    WHEN jsonb_typeof(value -> 'name') = 'string' THEN left(value ->> 'name', 200)
    WHEN jsonb_typeof(value -> 'id') = 'string' THEN left(value ->> 'id', 200)
    WHEN jsonb_typeof(value -> 'action') = 'string' THEN left(value ->> 'action', 200)
    WHEN jsonb_typeof(value -> 'route') = 'string' THEN left(value ->> 'route', 200)
    WHEN jsonb_typeof(value -> 'agent') = 'string' THEN left(value ->> 'agent', 200)
    WHEN jsonb_typeof(value -> 'model') = 'string' THEN left(value ->> 'model', 200)
    WHEN length(value::text) <= 400 THEN left(regexp_replace(value::text, '("(?:[^"\\]|\\.)*(?:"|\\?$))| |(\.[0-9]*[1-9])0+(?![0-9])|\.0+(?![0-9])|\.$', '\1\2', 'g'), 200)
    WHEN length(regexp_replace(left(value::text, 400), '("(?:[^"\\]|\\.)*(?:"|\\?$))| |(\.[0-9]*[1-9])0+(?![0-9])|\.0+(?![0-9])|\.$', '\1\2', 'g')) >= 200
      THEN left(regexp_replace(left(value::text, 400), '("(?:[^"\\]|\\.)*(?:"|\\?$))| |(\.[0-9]*[1-9])0+(?![0-9])|\.0+(?![0-9])|\.$', '\1\2', 'g'), 200)
    ELSE left(regexp_replace(value::text, '("(?:[^"\\]|\\.)*(?:"|\\?$))| |(\.[0-9]*[1-9])0+(?![0-9])|\.0+(?![0-9])|\.$', '\1\2', 'g'), 200)
  END
$$;

-- The trace fields a contribution depends on.
CREATE TYPE "insights_trace" AS (
    "id" TEXT, "name" TEXT, "status" "RunStatus", "startedAt" TIMESTAMPTZ, "totalCost" DOUBLE PRECISION, "totalTokens" DOUBLE PRECISION
);

-- Whether a child row was written by another transaction (committed before this
-- statement): with_own = false reads a trace's children as they were before this
-- transaction touched them.
-- (pg_current_xact_id_if_assigned: a read, which has no transaction id, is not given one;
-- a writer's rows carry the one it has.)
CREATE FUNCTION "insights_visible"(row_xmin xid, with_own boolean) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN with_own THEN true ELSE row_xmin IS DISTINCT FROM pg_current_xact_id_if_assigned()::xid END
$$;

CREATE FUNCTION "insights_hour"(at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_bin('1 hour', at, TIMESTAMPTZ '1970-01-01 00:00:00+00')
$$;

-- What traces add to each rollup. A trace's cost is its totalCost, else the sum of its
-- spans' costUsd (tokens likewise), as the overview computes it.
--
-- Each trace's children are read through the (traceId) indexes, one trace at a time
-- (LATERAL ... OFFSET 0, which the planner cannot turn into a join): called from
-- PL/pgSQL with the traces as a parameter, these functions are planned without knowing
-- how many there are, and a plain join then hashed the whole DecisionPoint table (0.5 s
-- per call at 10M decision points, whatever the batch).
CREATE FUNCTION "insights_trace_rows"(traces "insights_trace"[], with_own boolean) RETURNS SETOF "InsightsTraceHour"
LANGUAGE sql STABLE AS $$
  SELECT "insights_hour"(t."startedAt"), t."status", count(*)::int,
         coalesce(sum(coalesce(t."totalCost",
           (SELECT sum(s."costUsd") FROM "Span" s WHERE s."traceId" = t."id" AND "insights_visible"(s.xmin, with_own)))::numeric), 0),
         coalesce(sum(coalesce(t."totalTokens",
           (SELECT sum(s."tokenCount") FROM "Span" s WHERE s."traceId" = t."id" AND "insights_visible"(s.xmin, with_own)))::numeric), 0)
    FROM unnest(traces) t
   GROUP BY 1, 2
$$;

CREATE FUNCTION "insights_type_rows"(traces "insights_trace"[], with_own boolean) RETURNS SETOF "InsightsTypeHour"
LANGUAGE sql STABLE AS $$
  SELECT "insights_hour"(t."startedAt"), t."status", d."type", count(*)::int, count(DISTINCT t."id")::int,
         coalesce(sum(d."durationMs"::numeric), 0), count(d."durationMs")::int,
         coalesce(sum(d."costUsd"::numeric), 0), count(d."costUsd")::int
    FROM unnest(traces) t
    CROSS JOIN LATERAL (
      SELECT * FROM "DecisionPoint" d0 WHERE d0."traceId" = t."id" AND "insights_visible"(d0.xmin, with_own) OFFSET 0
    ) d
   GROUP BY 1, 2, 3
$$;

-- Per decision point, the options offered: the chosen label and the alternatives'
-- labels, each once.
CREATE FUNCTION "insights_option_rows"(traces "insights_trace"[], with_own boolean) RETURNS SETOF "InsightsOptionHour"
LANGUAGE sql STABLE AS $$
  WITH dp AS (
    SELECT "insights_hour"(t."startedAt") AS hour, t."status", t."id" AS trace_id, d."type",
           "insights_option_label"(d."chosen") AS chosen_label, d."alternatives"
      FROM unnest(traces) t
      CROSS JOIN LATERAL (
        SELECT * FROM "DecisionPoint" d0 WHERE d0."traceId" = t."id" AND "insights_visible"(d0.xmin, with_own) OFFSET 0
      ) d
  )
  SELECT dp.hour, dp."status", dp."type", o.label,
         (count(*) FILTER (WHERE o.label = dp.chosen_label))::int, count(*)::int,
         (count(DISTINCT dp.trace_id) FILTER (WHERE o.label = dp.chosen_label))::int
    FROM dp CROSS JOIN LATERAL (
      SELECT dp.chosen_label AS label
      UNION
      SELECT "insights_option_label"(alt.value)
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(dp."alternatives") = 'array' THEN dp."alternatives" ELSE '[]'::jsonb END) AS alt
    ) o
   GROUP BY 1, 2, 3, 4
$$;

CREATE FUNCTION "insights_name_rows"(traces "insights_trace"[], with_own boolean) RETURNS SETOF "InsightsNameHour"
LANGUAGE sql STABLE AS $$
  SELECT "insights_hour"(t."startedAt"), t."status", t."name", count(*)::int,
         coalesce(sum(c.retries), 0)::int, coalesce(sum(c.escalations), 0)::int
    FROM unnest(traces) t
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE d."type" = 'RETRY') AS retries, count(*) FILTER (WHERE d."type" = 'ESCALATION') AS escalations
        FROM "DecisionPoint" d WHERE d."traceId" = t."id" AND "insights_visible"(d.xmin, with_own)
    ) c
   GROUP BY 1, 2, 3
$$;

-- Appends contribution rows, summed by key, to the delta tables; keys whose sum is zero
-- are left out.
CREATE FUNCTION "insights_record"(
  trace_rows "InsightsTraceHour"[], type_rows "InsightsTypeHour"[], option_rows "InsightsOptionHour"[], name_rows "InsightsNameHour"[]
) RETURNS void LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO "InsightsTraceDelta" ("hour", "status", "traces", "costUsd", "tokens")
  SELECT "hour", "status", sum("traces"), sum("costUsd"), sum("tokens") FROM unnest(trace_rows)
   GROUP BY 1, 2 HAVING sum("traces") <> 0 OR sum("costUsd") <> 0 OR sum("tokens") <> 0;

  INSERT INTO "InsightsTypeDelta" ("hour", "status", "type", "decisions", "traces", "durationSum", "durationCount", "costSum", "costCount")
  SELECT "hour", "status", "type", sum("decisions"), sum("traces"), sum("durationSum"), sum("durationCount"), sum("costSum"), sum("costCount")
    FROM unnest(type_rows)
   GROUP BY 1, 2, 3
  HAVING sum("decisions") <> 0 OR sum("traces") <> 0 OR sum("durationSum") <> 0 OR sum("durationCount") <> 0 OR sum("costSum") <> 0 OR sum("costCount") <> 0;

  INSERT INTO "InsightsOptionDelta" ("hour", "status", "type", "label", "chosen", "offered", "chosenTraces")
  SELECT "hour", "status", "type", "label", sum("chosen"), sum("offered"), sum("chosenTraces") FROM unnest(option_rows)
   GROUP BY 1, 2, 3, 4 HAVING sum("chosen") <> 0 OR sum("offered") <> 0 OR sum("chosenTraces") <> 0;

  INSERT INTO "InsightsNameDelta" ("hour", "status", "name", "traces", "retries", "escalations")
  SELECT "hour", "status", "name", sum("traces"), sum("retries"), sum("escalations") FROM unnest(name_rows)
   GROUP BY 1, 2, 3 HAVING sum("traces") <> 0 OR sum("retries") <> 0 OR sum("escalations") <> 0;
END $$;

-- Folds every delta row this snapshot sees into the rollups and deletes it, in one
-- statement per table (a row is moved exactly once even if two compactions race: the
-- second skips rows the first deleted). Returns how many delta rows were folded. Callers
-- run it in a transaction of its own; readers see the deltas or their sums, never both.
CREATE FUNCTION "insights_compact"() RETURNS bigint LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  moved bigint := 0;
  n bigint;
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
  ) SELECT count(*) INTO n FROM d;
  moved := moved + n;

  -- Keys that went back to zero (their traces deleted) are dropped.
  DELETE FROM "InsightsTraceHour" WHERE "traces" = 0 AND "costUsd" = 0 AND "tokens" = 0;
  DELETE FROM "InsightsTypeHour" WHERE "decisions" = 0 AND "traces" = 0 AND "durationSum" = 0 AND "durationCount" = 0 AND "costSum" = 0 AND "costCount" = 0;
  DELETE FROM "InsightsOptionHour" WHERE "chosen" = 0 AND "offered" = 0 AND "chosenTraces" = 0;
  DELETE FROM "InsightsNameHour" WHERE "traces" = 0 AND "retries" = 0 AND "escalations" = 0;
  RETURN moved;
END $$;

-- Contribution rows with every figure negated (what removing them subtracts).
CREATE FUNCTION "insights_negate_traces"(rows_ "InsightsTraceHour"[]) RETURNS "InsightsTraceHour"[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(ROW(r."hour", r."status", -r."traces", -r."costUsd", -r."tokens")::"InsightsTraceHour"), '{}') FROM unnest(rows_) r
$$;
CREATE FUNCTION "insights_negate_types"(rows_ "InsightsTypeHour"[]) RETURNS "InsightsTypeHour"[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(ROW(r."hour", r."status", r."type", -r."decisions", -r."traces", -r."durationSum", -r."durationCount",
                                -r."costSum", -r."costCount")::"InsightsTypeHour"), '{}') FROM unnest(rows_) r
$$;
CREATE FUNCTION "insights_negate_options"(rows_ "InsightsOptionHour"[]) RETURNS "InsightsOptionHour"[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(ROW(r."hour", r."status", r."type", r."label", -r."chosen", -r."offered", -r."chosenTraces")::"InsightsOptionHour"), '{}')
    FROM unnest(rows_) r
$$;
CREATE FUNCTION "insights_negate_names"(rows_ "InsightsNameHour"[]) RETURNS "InsightsNameHour"[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(ROW(r."hour", r."status", r."name", -r."traces", -r."retries", -r."escalations")::"InsightsNameHour"), '{}')
    FROM unnest(rows_) r
$$;

-- Records the difference between the traces as they are (new, every visible child) and
-- as they were (old, children of other transactions). Either side may be empty.
CREATE FUNCTION "insights_replace"(old_traces "insights_trace"[], new_traces "insights_trace"[]) RETURNS void
LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM "insights_record"(
    ARRAY(SELECT r FROM "insights_trace_rows"(new_traces, true) r)
      || "insights_negate_traces"(ARRAY(SELECT r FROM "insights_trace_rows"(old_traces, false) r)),
    ARRAY(SELECT r FROM "insights_type_rows"(new_traces, true) r)
      || "insights_negate_types"(ARRAY(SELECT r FROM "insights_type_rows"(old_traces, false) r)),
    ARRAY(SELECT r FROM "insights_option_rows"(new_traces, true) r)
      || "insights_negate_options"(ARRAY(SELECT r FROM "insights_option_rows"(old_traces, false) r)),
    ARRAY(SELECT r FROM "insights_name_rows"(new_traces, true) r)
      || "insights_negate_names"(ARRAY(SELECT r FROM "insights_name_rows"(old_traces, false) r))
  );
END $$;

CREATE FUNCTION "insights_rollup_on_insert"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM "insights_replace"('{}',
    ARRAY(SELECT ROW(n."id", n."name", n."status", n."startedAt", n."totalCost", n."totalTokens")::"insights_trace" FROM new_rows n));
  RETURN NULL;
END $$;

-- Only the traces whose contribution can have changed: a field it reads changed, or this
-- transaction inserted children of the trace (an OTLP upsert that only bumps lastSpanAt,
-- say, costs nothing here).
CREATE FUNCTION "insights_rollup_on_update"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  changed text[];
BEGIN
  SELECT coalesce(array_agg(n."id"), '{}') INTO changed
    FROM new_rows n JOIN old_rows o ON o."id" = n."id"
   WHERE (o."name", o."status", o."startedAt", o."totalCost", o."totalTokens")
           IS DISTINCT FROM (n."name", n."status", n."startedAt", n."totalCost", n."totalTokens")
      -- OFFSET 0 keeps PostgreSQL from turning these EXISTS into one hash of every
      -- DecisionPoint or Span row this transaction did not write (its choice for a
      -- transition table it cannot count: 1.7 s per statement at 10M decision points),
      -- instead of an index probe per trace.
      OR EXISTS (SELECT 1 FROM "DecisionPoint" d WHERE d."traceId" = n."id" AND NOT "insights_visible"(d.xmin, false) OFFSET 0)
      OR (n."totalCost" IS NULL OR n."totalTokens" IS NULL)
         AND EXISTS (SELECT 1 FROM "Span" s WHERE s."traceId" = n."id" AND NOT "insights_visible"(s.xmin, false) OFFSET 0);
  -- An id changed by hand (not done by the app) is a delete and an insert.
  PERFORM "insights_replace"(
    ARRAY(SELECT ROW(o."id", o."name", o."status", o."startedAt", o."totalCost", o."totalTokens")::"insights_trace"
            FROM old_rows o WHERE o."id" = ANY (changed) OR NOT EXISTS (SELECT 1 FROM new_rows n WHERE n."id" = o."id")),
    ARRAY(SELECT ROW(n."id", n."name", n."status", n."startedAt", n."totalCost", n."totalTokens")::"insights_trace"
            FROM new_rows n WHERE n."id" = ANY (changed) OR NOT EXISTS (SELECT 1 FROM old_rows o WHERE o."id" = n."id")));
  RETURN NULL;
END $$;

-- Deletes through the app (lib/traces/delete.ts) record what their traces added in one
-- set-based call before deleting them, in the same transaction, with the rows locked; the
-- row trigger below then skips those traces. (Computing it row by row cost ~2.4 ms per
-- trace: retention fell from ~4,100 to ~410 traces/s.) The row trigger still covers every
-- other DELETE.
CREATE UNLOGGED TABLE "InsightsForgotten" (
    "xid" xid8 NOT NULL,
    "traceId" TEXT NOT NULL,

    CONSTRAINT "InsightsForgotten_pkey" PRIMARY KEY ("xid", "traceId")
);

-- Records that these traces, with every visible child, are gone (what a delete subtracts).
CREATE FUNCTION "insights_subtract"(t "insights_trace"[]) RETURNS void LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM "insights_record"(
    "insights_negate_traces"(ARRAY(SELECT r FROM "insights_trace_rows"(t, true) r)),
    "insights_negate_types"(ARRAY(SELECT r FROM "insights_type_rows"(t, true) r)),
    "insights_negate_options"(ARRAY(SELECT r FROM "insights_option_rows"(t, true) r)),
    "insights_negate_names"(ARRAY(SELECT r FROM "insights_name_rows"(t, true) r)));
END $$;

CREATE FUNCTION "insights_forget"(ids text[]) RETURNS void LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  t "insights_trace"[] := ARRAY(
    SELECT ROW("id", "name", "status", "startedAt", "totalCost", "totalTokens")::"insights_trace" FROM "Trace" WHERE "id" = ANY (ids));
BEGIN
  PERFORM "insights_subtract"(t);
  INSERT INTO "InsightsForgotten" ("xid", "traceId") SELECT pg_current_xact_id(), x."id" FROM unnest(t) x ON CONFLICT DO NOTHING;
END $$;

-- Everything the trace adds now (all its visible children), subtracted, unless
-- insights_forget already did it in this transaction.
CREATE FUNCTION "insights_rollup_on_delete"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  t "insights_trace"[] := ARRAY[ROW(OLD."id", OLD."name", OLD."status", OLD."startedAt", OLD."totalCost", OLD."totalTokens")::"insights_trace"];
BEGIN
  IF EXISTS (SELECT 1 FROM "InsightsForgotten" f WHERE f."xid" = pg_current_xact_id() AND f."traceId" = OLD."id") THEN
    RETURN OLD;
  END IF;
  PERFORM "insights_subtract"(t);
  RETURN OLD;
END $$;

CREATE FUNCTION "insights_forgotten_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "InsightsForgotten" WHERE "xid" = pg_current_xact_id();
  RETURN NULL;
END $$;

CREATE FUNCTION "insights_rollup_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "InsightsTraceHour", "InsightsTypeHour", "InsightsOptionHour", "InsightsNameHour",
           "InsightsTraceDelta", "InsightsTypeDelta", "InsightsOptionDelta", "InsightsNameDelta", "InsightsForgotten";
  RETURN NULL;
END $$;

CREATE TRIGGER "Trace_insights_insert" AFTER INSERT ON "Trace"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insights_rollup_on_insert"();
CREATE TRIGGER "Trace_insights_update" AFTER UPDATE ON "Trace"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insights_rollup_on_update"();
-- Before the row goes: ON DELETE CASCADE removes the children right after it.
CREATE TRIGGER "Trace_insights_delete" BEFORE DELETE ON "Trace"
  FOR EACH ROW EXECUTE FUNCTION "insights_rollup_on_delete"();
CREATE TRIGGER "Trace_insights_forgotten_clear" AFTER DELETE ON "Trace"
  FOR EACH STATEMENT EXECUTE FUNCTION "insights_forgotten_clear"();
CREATE TRIGGER "Trace_insights_truncate" AFTER TRUNCATE ON "Trace"
  FOR EACH STATEMENT EXECUTE FUNCTION "insights_rollup_on_truncate"();

-- Every rollup computed from scratch from the rows (the backfill below, bulk loads, and
-- the exactness tests, which compare it with what the triggers kept).
CREATE FUNCTION "insights_rebuild"() RETURNS void LANGUAGE plpgsql SET jit = off AS $$
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
  INSERT INTO "InsightsTraceHour" SELECT * FROM "insights_trace_rows"(t, true);
  INSERT INTO "InsightsTypeHour" SELECT * FROM "insights_type_rows"(t, true);
  INSERT INTO "InsightsOptionHour" SELECT * FROM "insights_option_rows"(t, true);
  INSERT INTO "InsightsNameHour" SELECT * FROM "insights_name_rows"(t, true);
END $$;

SELECT "insights_rebuild"();
