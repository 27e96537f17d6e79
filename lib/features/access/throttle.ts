// Sign-in attempts are limited per account and per client address, in the database so
// every instance of a deployment counts together: after too many failures in a window,
// sign-in answers 429 with Retry-After until the window ends, right password or not.
// The account key is the email as typed, known or not, so a 429 reveals nothing.
//
// The count runs inside Better Auth's sign-in endpoint (a plugin's hooks), on the body it
// parsed and will check: the email counted is the email signed in, whatever the body's
// Content-Type (JSON, a form, or a text that reads as both).
import 'server-only';
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import { getTrustedProxies } from '@/lib/core/config';
import { AppError, isAppError } from '@/lib/core/errors';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';
import { clientAddress } from '@/lib/core/client-address';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Failures allowed per window: per account (an email), per address (a client IP). */
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export interface ThrottleKeys {
  account: string;
  /** Null when the client's address is unknown: then only the account counts. */
  address: string | null;
}

export function throttleKeys(email: string, address: string | null): ThrottleKeys {
  return { account: `email:${email.trim().toLowerCase()}`, address: address === null ? null : `ip:${address}` };
}

const keyList = (keys: ThrottleKeys) => (keys.address === null ? [keys.account] : [keys.account, keys.address]);

/** Throws 429 when either key has used up its failures in the current window. */
export async function assertSignInAllowed(exec: SqlExecutor, keys: ThrottleKeys): Promise<void> {
  const rows = await exec.query<{ key: string; failures: number; wait: number }>(
    sql`SELECT "key", "failures", ceil(extract(epoch FROM ("resetAt" - now())))::int AS wait
       FROM "SignInThrottle" WHERE "key" = ANY(${keyList(keys)}::text[]) AND "resetAt" > now()`,
  );
  for (const row of rows) {
    const max = row.key === keys.account ? MAX_FAILURES_PER_ACCOUNT : MAX_FAILURES_PER_ADDRESS;
    if (row.failures >= max) {
      throw new AppError('TOO_MANY_REQUESTS', 'Too many sign-in attempts; try again later', Math.max(1, row.wait));
    }
  }
}

/** Counts one failure against both keys (a new window starts when the last one ended). */
export async function recordSignInFailure(exec: SqlExecutor, keys: ThrottleKeys): Promise<void> {
  await exec.query(
    sql`INSERT INTO "SignInThrottle" ("key", "failures", "resetAt")
     SELECT k, 1, now() + make_interval(secs => ${SIGN_IN_WINDOW_SECONDS}) FROM unnest(${keyList(keys).sort()}::text[]) AS k
     ON CONFLICT ("key") DO UPDATE SET
       "failures" = CASE WHEN "SignInThrottle"."resetAt" <= now() THEN 1 ELSE "SignInThrottle"."failures" + 1 END,
       "resetAt" = CASE WHEN "SignInThrottle"."resetAt" <= now() THEN EXCLUDED."resetAt" ELSE "SignInThrottle"."resetAt" END`,
  );
}

/** A successful sign-in clears the account's failures (not the address's). */
export async function clearAccountFailures(exec: SqlExecutor, keys: ThrottleKeys): Promise<void> {
  await exec.query(sql`DELETE FROM "SignInThrottle" WHERE "key" = ${keys.account}`);
}

const SIGN_IN_PATH = '/sign-in/email';

interface HookContext {
  path?: string;
  body?: unknown;
  headers?: Headers;
  request?: Request;
}

/** The keys of the attempt the endpoint is about to make: its parsed body's email, the client's address. */
function attemptKeys(ctx: HookContext): ThrottleKeys {
  const email = (ctx.body as { email?: unknown } | undefined)?.email;
  const headers = ctx.request?.headers ?? ctx.headers ?? new Headers();
  return throttleKeys(typeof email === 'string' ? email : '', clientAddress(headers, getTrustedProxies()));
}

const isSignIn = (ctx: HookContext) => ctx.path === SIGN_IN_PATH;

/** The throttle as a Better Auth plugin: checked before the password is, counted after. */
export function signInThrottle(exec: SqlExecutor): BetterAuthPlugin {
  return {
    id: 'crossroads-sign-in-throttle',
    hooks: {
      before: [
        {
          matcher: isSignIn,
          handler: createAuthMiddleware(async (ctx) => {
            try {
              await assertSignInAllowed(exec, attemptKeys(ctx));
            } catch (err) {
              if (!isAppError(err) || err.code !== 'TOO_MANY_REQUESTS') throw err;
              // Answered here, as the app's other errors are: {error} with Retry-After.
              return Response.json(
                { error: err.message },
                { status: 429, headers: { 'Retry-After': String(err.retryAfterSeconds), 'Cache-Control': 'no-store' } },
              );
            }
          }),
        },
      ],
      after: [
        {
          matcher: isSignIn,
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            const keys = attemptKeys(ctx);
            if (!isAPIError(returned)) await clearAccountFailures(exec, keys);
            else if (returned.statusCode === 401 || returned.statusCode === 403) await recordSignInFailure(exec, keys);
          }),
        },
      ],
    },
  };
}
