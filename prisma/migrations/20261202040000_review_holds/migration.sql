-- The review queue's holds: a decision point handed to one reviewer is theirs until
-- heldUntil (5 minutes), so several reviewers never get the same item at once. A hold goes
-- with its trace (ON DELETE CASCADE); an expired one is simply taken over.
CREATE TABLE "ReviewHold" (
    "traceId" TEXT NOT NULL,
    "decisionPointId" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "heldUntil" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ReviewHold_pkey" PRIMARY KEY ("traceId", "decisionPointId"),
    CONSTRAINT "ReviewHold_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- A reviewer's current item.
CREATE INDEX "ReviewHold_reviewer_heldUntil_idx" ON "ReviewHold"("reviewer", "heldUntil");
