-- Deletion and retention (issue 13). Deleting a trace takes its decision points, spans,
-- events and "TraceName" row with it (foreign keys ON DELETE CASCADE), and the per-status
-- counts follow through the DELETE trigger of 20261121020000_trace_status_counts, which
-- locks the counter rows until commit. Retention runs a bounded DELETE every few minutes
-- that usually finds nothing old enough. Whether such an empty statement took the three
-- counter locks (making every concurrent ingest wait for its commit) was up to the plan
-- PostgreSQL picks for trace_status_count_apply's join (PostgreSQL 15 here skips them);
-- now, as for inserts (20261122020000_status_count_quiet_upserts), a statement that
-- deletes no trace never touches a counter, whatever the plan. One that does still
-- applies its exact delta under the row locks.
CREATE OR REPLACE FUNCTION "trace_status_count_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows) THEN
    PERFORM "trace_status_count_apply"(ARRAY(SELECT "status" FROM old_rows), -1);
  END IF;
  RETURN NULL;
END $$;
