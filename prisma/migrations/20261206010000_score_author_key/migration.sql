-- Who wrote each score, as the access decision names actors (lib/access/decide.ts
-- actorKey): a score given again by id is an update, which only its author, an admin or a
-- key with the delete scope may make (lib/scores/rewrite.ts).
ALTER TABLE "Score" ADD COLUMN "authorKey" TEXT;

-- The scores stored before: people by their id, open mode as its one actor, the keys of
-- API_KEYS as theirs, a stored key by its id or its name when no other key has that name.
-- Any other stays NULL: only an admin or a key with delete may rewrite it.
UPDATE "Score" SET "authorKey" = 'user:' || "authorUserId" WHERE "authorUserId" IS NOT NULL;
UPDATE "Score" SET "authorKey" = 'open' WHERE "authorKey" IS NULL AND "authorName" = 'open mode';
UPDATE "Score" SET "authorKey" = 'key:API_KEYS' WHERE "authorKey" IS NULL AND "authorKind" = 'key' AND "authorName" = 'API_KEYS';
UPDATE "Score" s SET "authorKey" = 'key:' || k."id"
  FROM "Apikey" k
 WHERE s."authorKey" IS NULL AND s."authorKind" = 'key'
   AND (k."id" = s."authorName"
        OR (k."name" = s."authorName" AND NOT EXISTS (SELECT 1 FROM "Apikey" o WHERE o."name" = k."name" AND o."id" <> k."id")));
