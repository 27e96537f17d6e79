// Sign-in attempts are limited per account and per client address, in the database so
// every instance of a deployment counts together: after too many failures in a window,
// sign-in answers 429 with Retry-After until the window ends, right password or not.
// The account key is the email as typed, known or not, so a 429 reveals nothing.
import 'server-only';
import { AppError } from '@/lib/errors';
import type { SqlExecutor } from '@/lib/storage/sql';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Failures allowed per window: per account (an email), per address (a client IP). */
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export interface ThrottleKeys {
  account: string;
  address: string;
}

export function throttleKeys(email: string, address: string): ThrottleKeys {
  return { account: `email:${email.trim().toLowerCase()}`, address: `ip:${address}` };
}

/** Throws 429 when either key has used up its failures in the current window. */
export async function assertSignInAllowed(sql: SqlExecutor, keys: ThrottleKeys): Promise<void> {
  const rows = await sql.query<{ key: string; failures: number; wait: number }>(
    `SELECT "key", "failures", ceil(extract(epoch FROM ("resetAt" - now())))::int AS wait
       FROM "SignInThrottle" WHERE "key" = ANY($1::text[]) AND "resetAt" > now()`,
    [[keys.account, keys.address]],
  );
  for (const row of rows) {
    const max = row.key === keys.account ? MAX_FAILURES_PER_ACCOUNT : MAX_FAILURES_PER_ADDRESS;
    if (row.failures >= max) {
      throw new AppError('TOO_MANY_REQUESTS', 'Too many sign-in attempts; try again later', Math.max(1, row.wait));
    }
  }
}

/** Counts one failure against both keys (a new window starts when the last one ended). */
export async function recordSignInFailure(sql: SqlExecutor, keys: ThrottleKeys): Promise<void> {
  await sql.query(
    `INSERT INTO "SignInThrottle" ("key", "failures", "resetAt")
     SELECT k, 1, now() + make_interval(secs => $2) FROM unnest($1::text[]) AS k
     ON CONFLICT ("key") DO UPDATE SET
       "failures" = CASE WHEN "SignInThrottle"."resetAt" <= now() THEN 1 ELSE "SignInThrottle"."failures" + 1 END,
       "resetAt" = CASE WHEN "SignInThrottle"."resetAt" <= now() THEN EXCLUDED."resetAt" ELSE "SignInThrottle"."resetAt" END`,
    [[keys.account, keys.address].sort(), SIGN_IN_WINDOW_SECONDS],
  );
}

/** A successful sign-in clears the account's failures (not the address's). */
export async function clearAccountFailures(sql: SqlExecutor, keys: ThrottleKeys): Promise<void> {
  await sql.query(`DELETE FROM "SignInThrottle" WHERE "key" = $1`, [keys.account]);
}
