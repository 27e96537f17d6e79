-- Live evaluation queues a trace once, not once per evaluator: ingest adds one row per
-- ended trace (while any live evaluator is on), and the evaluation worker expands it into
-- the (evaluator, trace) jobs of the live evaluators that sample it, in the transaction
-- that removes it. Five rows per trace cost ingest about a fifth of its rate; one costs
-- little (docs/benchmarks.md, "Evaluators").
CREATE TABLE "EvaluationQueue" (
    "traceId" TEXT NOT NULL,
    -- When the trace ended here: its jobs are due from then, and the lag counts from it.
    "queuedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvaluationQueue_pkey" PRIMARY KEY ("traceId"),
    CONSTRAINT "EvaluationQueue_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "EvaluationQueue_queuedAt_idx" ON "EvaluationQueue"("queuedAt");

CREATE OR REPLACE FUNCTION "evaluation_jobs_on_trace_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "Evaluator" WHERE "enabled" AND "targetOn" = 'live') THEN
    INSERT INTO "EvaluationQueue" ("traceId")
    SELECT n."id" FROM new_rows n WHERE n."status" <> 'RUNNING' ORDER BY 1
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "evaluation_jobs_on_trace_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "Evaluator" WHERE "enabled" AND "targetOn" = 'live') THEN
    INSERT INTO "EvaluationQueue" ("traceId")
    SELECT n."id" FROM new_rows n JOIN old_rows o ON o."id" = n."id"
     WHERE o."status" = 'RUNNING' AND n."status" <> 'RUNNING' ORDER BY 1
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
