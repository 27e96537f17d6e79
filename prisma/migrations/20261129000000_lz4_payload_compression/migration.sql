-- Payload columns are compressed with lz4 instead of PostgreSQL's default pglz. Span
-- inputs and outputs of LLM calls (1-4 KB of messages) pass the TOAST threshold, and
-- pglz compressing them was ~20% of the database's time storing an OTLP request of
-- 1,000 such spans (measured in process, fsync off: the store took 123-129 ms with pglz,
-- 102-104 ms with lz4). lz4 compresses several times faster and decompresses faster too
-- (the search indexer and the detail view read these columns back), for a slightly
-- larger size on disk. Only values written from now on use it: existing rows keep pglz
-- until they are rewritten, and PostgreSQL reads both.
--
-- PostgreSQL builds without lz4 (PGlite among them) refuse the method with
-- feature_not_supported; they keep pglz, and everything else works the same.
DO $$
BEGIN
  ALTER TABLE "Span"
    ALTER COLUMN "input" SET COMPRESSION lz4,
    ALTER COLUMN "output" SET COMPRESSION lz4,
    ALTER COLUMN "metadata" SET COMPRESSION lz4,
    ALTER COLUMN "statusMessage" SET COMPRESSION lz4;
  ALTER TABLE "DecisionPoint"
    ALTER COLUMN "reasoning" SET COMPRESSION lz4,
    ALTER COLUMN "chosen" SET COMPRESSION lz4,
    ALTER COLUMN "alternatives" SET COMPRESSION lz4,
    ALTER COLUMN "contextSnapshot" SET COMPRESSION lz4;
  ALTER TABLE "Event" ALTER COLUMN "metadata" SET COMPRESSION lz4;
  ALTER TABLE "Trace" ALTER COLUMN "metadata" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 compression is not available in this PostgreSQL build; payload columns keep pglz';
END
$$;
