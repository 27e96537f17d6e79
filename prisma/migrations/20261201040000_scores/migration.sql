-- Scores: judgments on traces, spans, decision points and sessions, and the configs
-- that say what a score of a name must be (lib/scores). A trace's scores (its own and
-- its spans' and decisions') go with it by the foreign key; a session's own scores are
-- removed with its last trace (lib/traces/delete.ts).
CREATE TYPE "ScoreDataType" AS ENUM ('NUMERIC', 'CATEGORICAL', 'BOOLEAN');
CREATE TYPE "ScoreSource" AS ENUM ('API', 'ANNOTATION', 'SDK', 'FEEDBACK');

CREATE TABLE "Score" (
    "id" TEXT NOT NULL,
    "traceId" TEXT,
    "spanId" TEXT,
    "decisionPointId" TEXT,
    "sessionId" TEXT,
    "name" TEXT NOT NULL,
    "dataType" "ScoreDataType" NOT NULL,
    "value" DOUBLE PRECISION,
    "stringValue" TEXT,
    "comment" TEXT,
    "metadata" JSONB,
    "source" "ScoreSource" NOT NULL,
    "authorKind" TEXT NOT NULL,
    "authorName" TEXT NOT NULL,
    "authorUserId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Score_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Score_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- GET /api/scores orders by createdAt desc, id desc; every filter has an index in that order.
CREATE INDEX "Score_createdAt_id_idx" ON "Score"("createdAt" DESC, "id" DESC);
CREATE INDEX "Score_traceId_createdAt_id_idx" ON "Score"("traceId", "createdAt" DESC, "id" DESC);
CREATE INDEX "Score_spanId_createdAt_id_idx" ON "Score"("spanId", "createdAt" DESC, "id" DESC);
CREATE INDEX "Score_decisionPointId_createdAt_id_idx" ON "Score"("decisionPointId", "createdAt" DESC, "id" DESC);
CREATE INDEX "Score_sessionId_createdAt_id_idx" ON "Score"("sessionId", "createdAt" DESC, "id" DESC);
CREATE INDEX "Score_name_createdAt_id_idx" ON "Score"("name", "createdAt" DESC, "id" DESC);
CREATE INDEX "Score_source_createdAt_id_idx" ON "Score"("source", "createdAt" DESC, "id" DESC);
CREATE INDEX "Score_dataType_createdAt_id_idx" ON "Score"("dataType", "createdAt" DESC, "id" DESC);
CREATE INDEX "Score_value_idx" ON "Score"("value");

CREATE TABLE "ScoreConfig" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "dataType" "ScoreDataType" NOT NULL,
    "categories" TEXT[],
    "min" DOUBLE PRECISION,
    "max" DOUBLE PRECISION,
    "description" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScoreConfig_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ScoreConfig_name_key" ON "ScoreConfig"("name");
