-- Exact trace counts per status, so the list's `total` without a filter or with only a
-- status filter is a lookup instead of a count(*) over every trace (~140 ms at 1M rows
-- on PostgreSQL 15 here). Statement-level triggers keep it exact for every write path
-- (ingest, SOAP save, bulk loads, deletes, TRUNCATE), not only for the application's.
CREATE TABLE "TraceStatusCount" (
    "status" "RunStatus" NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "TraceStatusCount_pkey" PRIMARY KEY ("status")
);

INSERT INTO "TraceStatusCount" ("status", "count")
SELECT s, (SELECT count(*) FROM "Trace" WHERE "status" = s)
FROM unnest(enum_range(NULL::"RunStatus")) AS s;

-- Rows are touched in status order, so concurrent batches lock them in the same order
-- and cannot deadlock.
CREATE FUNCTION "trace_status_count_apply"(delta_rows "RunStatus"[], delta_sign integer) RETURNS void
LANGUAGE sql AS $$
  UPDATE "TraceStatusCount" c
     SET "count" = c."count" + delta_sign * d.n
    FROM (SELECT s AS status, count(*) AS n FROM unnest(delta_rows) AS s GROUP BY s) d
   WHERE c."status" = d.status
     AND c."status" IN (SELECT "status" FROM "TraceStatusCount" ORDER BY "status" FOR UPDATE);
$$;

CREATE FUNCTION "trace_status_count_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "trace_status_count_apply"(ARRAY(SELECT "status" FROM new_rows), 1);
  RETURN NULL;
END $$;

CREATE FUNCTION "trace_status_count_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "trace_status_count_apply"(ARRAY(SELECT "status" FROM old_rows), -1);
  RETURN NULL;
END $$;

CREATE FUNCTION "trace_status_count_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "trace_status_count_apply"(ARRAY(SELECT "status" FROM old_rows), -1);
  PERFORM "trace_status_count_apply"(ARRAY(SELECT "status" FROM new_rows), 1);
  RETURN NULL;
END $$;

CREATE FUNCTION "trace_status_count_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "TraceStatusCount" SET "count" = 0;
  RETURN NULL;
END $$;

CREATE TRIGGER "Trace_status_count_insert" AFTER INSERT ON "Trace"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "trace_status_count_on_insert"();
CREATE TRIGGER "Trace_status_count_delete" AFTER DELETE ON "Trace"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "trace_status_count_on_delete"();
CREATE TRIGGER "Trace_status_count_update" AFTER UPDATE ON "Trace"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "trace_status_count_on_update"();
CREATE TRIGGER "Trace_status_count_truncate" AFTER TRUNCATE ON "Trace"
  FOR EACH STATEMENT EXECUTE FUNCTION "trace_status_count_on_truncate"();

-- Ingest inserts a batch's children before its traces (with these checks deferred to
-- commit), so the counter rows above are locked only from the trace insert to commit
-- instead of for the whole batch. Everyone else still gets immediate checks.
ALTER TABLE "DecisionPoint" ALTER CONSTRAINT "DecisionPoint_traceId_fkey" DEFERRABLE INITIALLY IMMEDIATE;
ALTER TABLE "Span" ALTER CONSTRAINT "Span_traceId_fkey" DEFERRABLE INITIALLY IMMEDIATE;
ALTER TABLE "Event" ALTER CONSTRAINT "Event_traceId_fkey" DEFERRABLE INITIALLY IMMEDIATE;
