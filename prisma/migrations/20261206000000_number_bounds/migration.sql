-- Bounds on stored numbers (docs/api.md "Limits"): score values within ±1e9, costs within
-- ±1,000,000 USD, token counts within ±1e12, durations within ±1e13. Every way in refuses
-- (JSON, SOAP) or clamps (OTLP) a number beyond them; rows stored before are clamped here
-- once, so no SUM or AVG over them can overflow float8 (two values near the largest double
-- made every list, insight and path answer 500). The rollups follow through the UPDATE
-- triggers, which subtract the old value and add the new one.
UPDATE "Score" SET "value" = LEAST(GREATEST("value", -1e9), 1e9) WHERE abs("value") > 1e9;

UPDATE "Trace" SET
  "totalCost" = LEAST(GREATEST("totalCost", -1e6), 1e6),
  "totalTokens" = LEAST(GREATEST("totalTokens", -1e12), 1e12),
  "totalDuration" = LEAST(GREATEST("totalDuration", -1e13), 1e13)
 WHERE abs("totalCost") > 1e6 OR abs("totalTokens") > 1e12 OR abs("totalDuration") > 1e13;

UPDATE "Span" SET
  "costUsd" = LEAST(GREATEST("costUsd", -1e6), 1e6),
  "tokenCount" = LEAST(GREATEST("tokenCount", -1e12), 1e12),
  "durationMs" = LEAST(GREATEST("durationMs", -1e13), 1e13)
 WHERE abs("costUsd") > 1e6 OR abs("tokenCount") > 1e12 OR abs("durationMs") > 1e13;

UPDATE "DecisionPoint" SET
  "costUsd" = LEAST(GREATEST("costUsd", -1e6), 1e6),
  "durationMs" = LEAST(GREATEST("durationMs", -1e13), 1e13)
 WHERE abs("costUsd") > 1e6 OR abs("durationMs") > 1e13;
