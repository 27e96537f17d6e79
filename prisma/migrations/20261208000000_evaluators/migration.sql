-- Evaluators: rules and an LLM judge that score runs without a person
-- (lib/features/evaluators). Their scores have the source EVAL.
ALTER TYPE "ScoreSource" ADD VALUE 'EVAL';

CREATE TABLE "Evaluator" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "scoreName" TEXT NOT NULL,
    -- 'live': ended traces matching "query", sampled; 'experiments': every run of the
    -- experiments of "datasetId".
    "targetOn" TEXT NOT NULL,
    "datasetId" TEXT,
    "query" TEXT NOT NULL DEFAULT '',
    "sampleRate" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Evaluator_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Evaluator_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Evaluator_name_key" ON "Evaluator"("name");

-- The durable queue, and the memory of what was evaluated: one row per (evaluator, trace),
-- so a trace is evaluated at most once by each evaluator. A row is 'queued' until a worker
-- claims it ('running' until "leaseUntil": a worker that dies lets it be claimed again),
-- then 'done' (its score stored in the same transaction), 'skipped' (not matching the
-- evaluator's query, or nothing to judge) or 'failed' ("error" says why).
-- No foreign key to "Evaluator": a trigger adding rows during ingest must never fail
-- because an evaluator was deleted meanwhile; rows of a deleted evaluator are removed
-- with it, and a worker removes any it finds later.
CREATE TABLE "EvaluationJob" (
    "evaluatorId" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "notBefore" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" TIMESTAMPTZ(3),
    "error" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvaluationJob_pkey" PRIMARY KEY ("evaluatorId", "traceId"),
    CONSTRAINT "EvaluationJob_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The work still to do, in the order it became due; finished rows leave the index.
CREATE INDEX "EvaluationJob_due_idx" ON "EvaluationJob"("notBefore") WHERE "state" IN ('queued', 'running');
-- A trace's rows (deleting a trace).
CREATE INDEX "EvaluationJob_traceId_idx" ON "EvaluationJob"("traceId");

-- Whether a live evaluator samples a trace: a stable hash of the pair, so every server
-- and every retry decides the same.
CREATE FUNCTION "evaluation_sampled"(evaluator text, trace text, rate double precision) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT rate >= 1 OR (rate > 0 AND (hashtextextended(evaluator || ':' || trace, 0) & 4294967295) / 4294967296.0 < rate)
$$;

-- A trace that ends (stored ended, or moving out of RUNNING) is queued for every enabled
-- live evaluator that samples it, in the statement that stored it: no trace is missed,
-- whichever way it came.
CREATE FUNCTION "evaluation_jobs_on_trace_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "Evaluator" WHERE "enabled" AND "targetOn" = 'live') THEN
    INSERT INTO "EvaluationJob" ("evaluatorId", "traceId")
    SELECT e."id", n."id" FROM new_rows n CROSS JOIN "Evaluator" e
     WHERE n."status" <> 'RUNNING' AND e."enabled" AND e."targetOn" = 'live' AND "evaluation_sampled"(e."id", n."id", e."sampleRate")
     ORDER BY 1, 2
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "evaluation_jobs_on_trace_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "Evaluator" WHERE "enabled" AND "targetOn" = 'live') THEN
    INSERT INTO "EvaluationJob" ("evaluatorId", "traceId")
    SELECT e."id", n."id" FROM new_rows n JOIN old_rows o ON o."id" = n."id" CROSS JOIN "Evaluator" e
     WHERE o."status" = 'RUNNING' AND n."status" <> 'RUNNING'
       AND e."enabled" AND e."targetOn" = 'live' AND "evaluation_sampled"(e."id", n."id", e."sampleRate")
     ORDER BY 1, 2
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Trace_evaluation_insert" AFTER INSERT ON "Trace"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "evaluation_jobs_on_trace_insert"();
CREATE TRIGGER "Trace_evaluation_update" AFTER UPDATE ON "Trace"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "evaluation_jobs_on_trace_update"();

-- A run linked to an experiment (or relinked to another trace) is queued for every
-- enabled evaluator of the experiment's dataset; workers take it once its trace has ended.
CREATE FUNCTION "evaluation_jobs_on_run"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "Evaluator" WHERE "enabled" AND "targetOn" = 'experiments') THEN
    INSERT INTO "EvaluationJob" ("evaluatorId", "traceId")
    SELECT DISTINCT e."id", n."traceId" FROM new_rows n
      JOIN "Experiment" x ON x."id" = n."experimentId"
      JOIN "Evaluator" e ON e."datasetId" = x."datasetId" AND e."enabled" AND e."targetOn" = 'experiments'
     ORDER BY 1, 2
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "ExperimentRun_evaluation_insert" AFTER INSERT ON "ExperimentRun"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "evaluation_jobs_on_run"();
CREATE TRIGGER "ExperimentRun_evaluation_update" AFTER UPDATE ON "ExperimentRun"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "evaluation_jobs_on_run"();
