// The secret Better Auth signs session cookies with. AUTH_SECRET when set; otherwise one
// made at first start and kept in the database, so every instance of a deployment (and
// every restart) shares it with no variable to configure.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { getAuthSecret } from '@/lib/core/config';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';

const KEY = 'auth_secret';

export async function authSecret(exec: SqlExecutor): Promise<string> {
  const fromEnv = getAuthSecret();
  if (fromEnv) return fromEnv;
  // Two instances starting at once both try; the first insert wins and both read it.
  await exec.query(sql`INSERT INTO "AppSetting" ("key", "value") VALUES (${KEY}, ${randomBytes(32).toString('base64url')}) ON CONFLICT ("key") DO NOTHING`);
  const [row] = await exec.query<{ value: string }>(sql`SELECT "value" FROM "AppSetting" WHERE "key" = ${KEY}`);
  return row.value;
}
