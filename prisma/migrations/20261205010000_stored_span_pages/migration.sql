-- A large trace's span JSON, stored ready to send (lib/traces/detail.ts): the pages of
-- `GET /api/traces/{id}`'s "spans" array, as the first read of a settled trace built
-- them, so that later reads send stored text instead of building 10,000 objects again.
--
-- "StoredSpanPages": one row per trace that has (or is filling) stored pages; "token"
-- NULL means the pages are ready, else it names the read that is filling them.
-- "StoredSpanPage": the pages, each the page's span objects joined by commas.
--
-- Kept exact for every writer by one rule: a statement that inserts, updates or deletes
-- spans first locks their traces' rows FOR KEY SHARE, then deletes the traces'
-- "StoredSpanPages" row (pages go with it), in its own transaction. A read that fills
-- claims the trace with its token under FOR UPDATE NOWAIT on the trace row (so no span
-- writer is in progress on it) and commits the claim before taking the snapshot it
-- builds from; it stores the pages only if its claim is still there. A writer that the
-- snapshot does not include committed after the claim, so its trigger deleted the claim
-- (or waits for the store and deletes what it stored): stored pages are never older
-- than the spans of any snapshot that sees them ready.
CREATE TABLE "StoredSpanPages" (
    "traceId" TEXT NOT NULL,
    "token" TEXT,
    "claimedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "StoredSpanPages_pkey" PRIMARY KEY ("traceId"),
    CONSTRAINT "StoredSpanPages_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "Trace"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "StoredSpanPage" (
    "traceId" TEXT NOT NULL,
    "page" INTEGER NOT NULL,
    "spans" TEXT NOT NULL,

    CONSTRAINT "StoredSpanPage_pkey" PRIMARY KEY ("traceId", "page"),
    CONSTRAINT "StoredSpanPage_traceId_fkey" FOREIGN KEY ("traceId") REFERENCES "StoredSpanPages"("traceId") ON DELETE CASCADE ON UPDATE CASCADE
);

DO $$
BEGIN
  ALTER TABLE "StoredSpanPage" ALTER COLUMN "spans" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 compression is not available in this PostgreSQL build; stored span pages keep pglz';
END
$$;

CREATE FUNCTION "span_pages_forget_new"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM 1 FROM "Trace" t WHERE t."id" IN (SELECT n."traceId" FROM new_rows n) ORDER BY t."id" FOR KEY SHARE OF t;
  DELETE FROM "StoredSpanPages" p WHERE p."traceId" IN (SELECT n."traceId" FROM new_rows n);
  RETURN NULL;
END $$;

CREATE FUNCTION "span_pages_forget_old"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM 1 FROM "Trace" t WHERE t."id" IN (SELECT o."traceId" FROM old_rows o) ORDER BY t."id" FOR KEY SHARE OF t;
  DELETE FROM "StoredSpanPages" p WHERE p."traceId" IN (SELECT o."traceId" FROM old_rows o);
  RETURN NULL;
END $$;

CREATE FUNCTION "span_pages_forget_updated"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM 1 FROM "Trace" t
   WHERE t."id" IN (SELECT n."traceId" FROM new_rows n UNION SELECT o."traceId" FROM old_rows o)
   ORDER BY t."id" FOR KEY SHARE OF t;
  DELETE FROM "StoredSpanPages" p
   WHERE p."traceId" IN (SELECT n."traceId" FROM new_rows n UNION SELECT o."traceId" FROM old_rows o);
  RETURN NULL;
END $$;

-- DELETE, not TRUNCATE: a TRUNCATE "Trace" CASCADE has these tables in use already.
CREATE FUNCTION "span_pages_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "StoredSpanPages";
  RETURN NULL;
END $$;

CREATE TRIGGER "Span_pages_insert" AFTER INSERT ON "Span"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "span_pages_forget_new"();
CREATE TRIGGER "Span_pages_delete" AFTER DELETE ON "Span"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "span_pages_forget_old"();
CREATE TRIGGER "Span_pages_update" AFTER UPDATE ON "Span"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "span_pages_forget_updated"();
CREATE TRIGGER "Span_pages_truncate" AFTER TRUNCATE ON "Span"
  FOR EACH STATEMENT EXECUTE FUNCTION "span_pages_on_truncate"();
