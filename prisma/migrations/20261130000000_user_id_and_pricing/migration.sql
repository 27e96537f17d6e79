-- The end user a trace ran for (userId, filtered exactly in the list's order like
-- sessionId), and where each span's cost came from (lib/pricing): costUsd sent by the
-- client, or computed from the model's tokens with the catalog or MODEL_PRICES_FILE.
-- unpricedCalls counts a trace's model calls that could not be priced, so a partial
-- totalCost says so. Adding nullable columns and a constant default rewrites no row.
CREATE TYPE "CostSource" AS ENUM ('client', 'catalog', 'custom');

ALTER TABLE "Trace" ADD COLUMN "userId" TEXT,
                    ADD COLUMN "unpricedCalls" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Span" ADD COLUMN "costSource" "CostSource",
                   ADD COLUMN "pricedModel" TEXT;

CREATE INDEX "Trace_userId_startedAt_id_idx" ON "Trace"("userId", "startedAt" DESC, "id" DESC);

-- Every cost stored before this came from its client. (Rewrites those spans once; the
-- search trigger queues nothing, no searchable column changes.)
UPDATE "Span" SET "costSource" = 'client' WHERE "costUsd" IS NOT NULL;
