-- The exact `name` filter of the list and of insights (issue 12), in the list's order:
-- the drill-down from a trace name's retry and escalation rates lists that name's traces
-- newest first. Like sessionId's index; the trigram index serves `search` (substrings),
-- not a sorted scan of one name.
CREATE INDEX "Trace_name_startedAt_id_idx" ON "Trace"("name", "startedAt" DESC, "id" DESC);
