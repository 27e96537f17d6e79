-- Session tokens are stored as the hex SHA-256 digest of the cookie's token
-- (lib/access/session-tokens.ts); the sessions already stored are digested the same way,
-- so nobody signed in is signed out by the upgrade.
UPDATE "Session" SET "token" = encode(sha256(convert_to("token", 'UTF8')), 'hex');
