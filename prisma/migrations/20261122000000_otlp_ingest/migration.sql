-- OTLP ingest (issue 10): traces that arrive span by span.
CREATE TYPE "TraceSource" AS ENUM ('API', 'OTLP');

ALTER TABLE "Trace" ADD COLUMN "source" "TraceSource" NOT NULL DEFAULT 'API';
ALTER TABLE "Trace" ADD COLUMN "lastSpanAt" TIMESTAMPTZ(3);
CREATE INDEX "Trace_status_lastSpanAt_idx" ON "Trace"("status", "lastSpanAt");

ALTER TABLE "DecisionPoint" ADD COLUMN "inferred" BOOLEAN NOT NULL DEFAULT false;

-- OTLP ingest updates trace rows (counts, totals, last span time) on every request,
-- almost always without changing a status. Until now every UPDATE of "Trace" locked
-- all three counter rows until commit, which would serialise every OTLP request and
-- every JSON batch behind each other; now only a statement that moves a status does.
-- An UPDATE never changes the number of rows, so the statuses moved iff the per-status
-- counts of new_rows differ from old_rows'.
CREATE OR REPLACE FUNCTION "trace_status_count_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT "status", count(*) FROM new_rows GROUP BY "status"
             EXCEPT SELECT "status", count(*) FROM old_rows GROUP BY "status") THEN
    PERFORM "trace_status_count_apply"(ARRAY(SELECT "status" FROM old_rows), -1);
    PERFORM "trace_status_count_apply"(ARRAY(SELECT "status" FROM new_rows), 1);
  END IF;
  RETURN NULL;
END $$;
