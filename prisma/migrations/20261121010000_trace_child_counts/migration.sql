-- Child counts stored on the trace. A trace's children arrive only with it (ingest is
-- all-or-nothing and nothing adds children later), so the counts are fixed at ingest and
-- the list reads them from the row instead of aggregating the child tables.
ALTER TABLE "Trace"
  ADD COLUMN "decisionPointCount" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "spanCount" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "eventCount" INTEGER NOT NULL DEFAULT 0;

-- Backfill traces stored before this migration.
UPDATE "Trace" t SET
  "decisionPointCount" = (SELECT count(*) FROM "DecisionPoint" d WHERE d."traceId" = t."id"),
  "spanCount" = (SELECT count(*) FROM "Span" s WHERE s."traceId" = t."id"),
  "eventCount" = (SELECT count(*) FROM "Event" e WHERE e."traceId" = t."id");
