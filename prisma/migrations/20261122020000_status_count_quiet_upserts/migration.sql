-- OTLP ingest upserts trace rows (INSERT ... ON CONFLICT DO UPDATE): when every row
-- already exists, the statement's INSERT trigger sees no new row. Until now it still
-- took the per-status counter locks until commit, which queues every other writer;
-- now a statement that inserts no trace touches no counter.
CREATE OR REPLACE FUNCTION "trace_status_count_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows) THEN
    PERFORM "trace_status_count_apply"(ARRAY(SELECT "status" FROM new_rows), 1);
  END IF;
  RETURN NULL;
END $$;
