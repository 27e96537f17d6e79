-- Datasets of cases, and experiments: one run of a dataset by one version of an agent,
-- each run a trace linked to an item (lib/features/datasets, lib/features/experiments).
-- Deleting a dataset removes its items, experiments and run links; the traces stay.
-- Deleting a trace removes its run links.

CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "metadata" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Dataset_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "Dataset_name_key" ON "Dataset"("name");

CREATE TABLE "DatasetItem" (
    "datasetId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "expectedOutput" JSONB,
    "expectedDecisions" JSONB,
    "metadata" JSONB,
    "sourceTraceId" TEXT,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    -- The order items were added in (within one request too), counted per dataset under
    -- its row lock; kept when an item is replaced.
    "seq" BIGINT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DatasetItem_pkey" PRIMARY KEY ("datasetId", "id"),
    CONSTRAINT "DatasetItem_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Items are listed in the order they were added.
CREATE INDEX "DatasetItem_datasetId_seq_idx" ON "DatasetItem"("datasetId", "seq");

CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "metadata" JSONB,
    "passCriteria" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Experiment_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Experiment_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Experiment_datasetId_name_key" ON "Experiment"("datasetId", "name");

CREATE TABLE "ExperimentRun" (
    "experimentId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "repetition" INTEGER NOT NULL DEFAULT 0,
    "traceId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExperimentRun_pkey" PRIMARY KEY ("experimentId", "itemId", "repetition"),
    CONSTRAINT "ExperimentRun_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ExperimentRun_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- A trace's links (deleting a trace, a trace's experiment on its page).
CREATE INDEX "ExperimentRun_traceId_idx" ON "ExperimentRun"("traceId");
