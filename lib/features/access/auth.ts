// The one Better Auth instance per process: email-and-password accounts (scrypt
// hashes), cookie sessions, API keys (its api-key plugin: keys stored as SHA-256 hashes,
// scopes as permissions) and, when OIDC_ISSUER is set, single sign-on with any OpenID
// Connect provider (its generic-OAuth plugin). Built on first use: its signing secret
// may come from the database (secret.ts).
//
// Better Auth over Auth.js: its Prisma adapter uses our client and migrations, and it
// ships the API-key and generic-OIDC pieces this product needs, so none is hand-made.
import 'server-only';
import { apiKey } from '@better-auth/api-key';
import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { getDatabase, type Database } from '@/lib/db';
import { getAccessConfig, type OidcConfig } from '@/lib/core/config';
import { changesState, CROSS_ORIGIN, fromOwnPages, isAllowedRedirect } from '@/lib/features/access/origin';
import { authSecret } from './secret';
import { withHashedSessionTokens } from './session-tokens';
import { signInThrottle } from './throttle';
import { ensureBootstrapAdmin } from './create-user';

/** Where Better Auth's own endpoints live (sign-in, sign-out, OAuth callbacks). */
export const AUTH_BASE_PATH = '/api/auth';
export const OIDC_PROVIDER_ID = 'oidc';
export const API_KEY_PREFIX = 'cr_';
/** Longest API-key name (UTF-16 code units, as the plugin counts); its own default is 32. */
export const API_KEY_NAME_MAX = 100;
export const SESSION_DAYS = 7;
const SIGN_IN_PAGE = '/sign-in';
/** How long after a failed read of the provider's discovery document it is read again. */
const SSO_RETRY_MS = 5_000;

/** Whether SSO may create an account for this email (OIDC_ALLOWED_DOMAINS / OIDC_ALLOWED_EMAILS). */
export function ssoMayJoin(oidc: OidcConfig, email: string): boolean {
  const address = email.trim().toLowerCase();
  if (oidc.allowedDomains.length === 0 && oidc.allowedEmails.length === 0) return true;
  if (oidc.allowedEmails.includes(address)) return true;
  // A claimed "email" without a local part and an @ (say "sso.test") is no address in the domain.
  const at = address.lastIndexOf('@');
  return at > 0 && oidc.allowedDomains.includes(address.slice(at + 1));
}

// Better Auth trusts every origin here (allowedHosts '*', which building links from each
// request needs, lists each host as trusted), so its own origin and callback checks pass
// anything: its changes follow the app's rule (origin.ts) instead. A change that names
// where it comes from (a cookie, an Origin, Sec-Fetch-Site) must come from the app's own
// pages; a script without any (curl signing in) may go on. Where the browser goes after
// sign-in must be a path here, this server or a TRUSTED_ORIGINS origin.
const ownOriginsOnly = createAuthMiddleware(async (ctx) => {
  const request = ctx.request;
  if (!request || !changesState(request.method)) return;
  const { headers, url } = request;
  const named = headers.has('cookie') || headers.has('origin') || headers.has('sec-fetch-site');
  if (named && !fromOwnPages(headers, url)) throw APIError.fromStatus('FORBIDDEN', { message: CROSS_ORIGIN });
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const query = (ctx.query ?? {}) as Record<string, unknown>;
  for (const target of [body.callbackURL, query.callbackURL, body.errorCallbackURL, body.newUserCallbackURL, body.redirectTo]) {
    if (target === undefined || target === null || target === '') continue;
    if (typeof target !== 'string' || !isAllowedRedirect(target, headers, url)) {
      throw APIError.fromStatus('FORBIDDEN', { message: 'Invalid callback URL: a path on this server, or a URL of this server or of an origin in TRUSTED_ORIGINS' });
    }
  }
});

async function createAuth(database: Database) {
  const { oidc, adminEmail, adminPassword } = getAccessConfig();
  const auth = buildAuth(database, oidc, await authSecret(database.sql));
  await ensureBootstrapAdmin(auth, adminEmail, adminPassword);
  return auth;
}

function buildAuth(database: Database, oidc: OidcConfig | undefined, secret: string) {
  return betterAuth({
    appName: 'Crossroads',
    basePath: AUTH_BASE_PATH,
    secret,
    // Any host and port, as the WSDL: links and callbacks are built from the request.
    // (The fallback only serves calls made without a request's Host, e.g. in tests.)
    baseURL: { allowedHosts: ['*'], protocol: 'auto', fallback: 'http://localhost' },
    // Session tokens are stored as SHA-256 digests (session-tokens.ts).
    database: withHashedSessionTokens(prismaAdapter(database.prisma, { provider: 'postgresql' })),
    telemetry: { enabled: false },
    hooks: { before: ownOriginsOnly },
    logger: {
      // A wrong key is an expected 401, not a server error worth a log line each time.
      log: (level, message, ...args) => {
        if (message.startsWith('Failed to validate API key')) return;
        console[level === 'debug' ? 'log' : level](`[better-auth] ${message}`, ...args);
      },
    },
    emailAndPassword: {
      enabled: true,
      // Accounts are made by admins (and ADMIN_EMAIL at start), never by strangers.
      disableSignUp: true,
      minPasswordLength: 8,
    },
    user: {
      // People who join through SSO are viewers; admins promote them in /settings/users.
      additionalFields: { role: { type: 'string', required: true, defaultValue: 'viewer', input: false } },
      // SSO admits only OIDC_ALLOWED_DOMAINS / OIDC_ALLOWED_EMAILS, when either is set.
      validateUserInfo: ({ user, source }) => {
        if (source.method !== 'oauth' || !oidc) return;
        if (typeof user.email === 'string' && ssoMayJoin(oidc, user.email)) return;
        return { error: 'not_allowed', errorDescription: 'This account may not sign in to Crossroads' };
      },
    },
    session: { expiresIn: SESSION_DAYS * 24 * 3600, updateAge: 24 * 3600 },
    // An SSO sign-in that fails (refused by validateUserInfo, cancelled at the provider, a
    // stale state) and named no errorCallbackURL comes back to the sign-in page with
    // ?error=<code>, not to the library's bare error page.
    onAPIError: { errorURL: SIGN_IN_PAGE },
    // Sign-in is throttled per account and per address by lib/features/access/throttle.ts (a plugin below).
    rateLimit: { enabled: false },
    // Secure is set per request, over HTTPS only (auth-endpoint.ts): by default Better Auth
    // makes every cookie Secure in production, and plain HTTP on a LAN could not sign in.
    advanced: { cookiePrefix: 'crossroads', trustedProxyHeaders: true, useSecureCookies: false },
    account: {
      // An admin-made account may also sign in through SSO, but only when the provider
      // says the email is verified: a provider that lets people set an unverified email
      // must not hand them someone else's account (an admin's, say).
      accountLinking: { enabled: true },
    },
    plugins: [
      signInThrottle(database.sql),
      apiKey({
        defaultPrefix: API_KEY_PREFIX,
        startingCharactersConfig: { shouldStore: true, charactersLength: 10 },
        // lib/features/access/api-keys.ts refuses longer names with a 400 before the plugin sees them.
        maximumNameLength: API_KEY_NAME_MAX,
        rateLimit: { enabled: false },
        enableMetadata: false,
        // Keys authenticate machines on our routes, not Better Auth sessions.
        enableSessionForAPIKeys: false,
      }),
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: OIDC_PROVIDER_ID,
                  discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
                  clientId: oidc.clientId,
                  clientSecret: oidc.clientSecret,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type Auth = ReturnType<typeof buildAuth>;

// Per process, and per database: tests install databases of their own (useDatabase).
interface CachedAuth {
  database: Database;
  auth: Promise<Auth>;
  /** Set while SSO is configured but missing: when to build the instance again. */
  ssoRetryAt?: number;
}
const cache = globalThis as unknown as { __crossroadsAuth?: CachedAuth };

/** Whether the generic-OAuth plugin kept the provider: it drops it when discovery fails. */
async function hasSso(auth: Auth): Promise<boolean> {
  return (await auth.$context).socialProviders.some((p) => p.id === OIDC_PROVIDER_ID);
}

// The plugin reads the provider's discovery document once, when the instance is built
// (at server start), and skips the provider for good if that fails: an identity
// provider down at that moment would turn SSO off until a restart. So an instance
// without it is rebuilt on a later request (at most every SSO_RETRY_MS); the old one
// serves meanwhile, so nobody waits on a provider that does not answer.
function retrySsoLater(entry: CachedAuth): void {
  if (cache.__crossroadsAuth === entry) entry.ssoRetryAt = Date.now() + SSO_RETRY_MS;
}

function watchSso(entry: CachedAuth, auth: Auth): void {
  if (!getAccessConfig().oidc) return;
  hasSso(auth).then(
    (ok) => ok || retrySsoLater(entry),
    () => retrySsoLater(entry),
  );
}

function retrySso(entry: CachedAuth): void {
  entry.ssoRetryAt = undefined;
  createAuth(entry.database)
    .then(async (auth) => {
      if (!(await hasSso(auth))) return retrySsoLater(entry);
      if (cache.__crossroadsAuth === entry) entry.auth = Promise.resolve(auth);
    })
    .catch(() => retrySsoLater(entry));
}

export async function getAuth(): Promise<Auth> {
  const database = await getDatabase();
  const cached = cache.__crossroadsAuth;
  if (cached?.database === database) {
    if (cached.ssoRetryAt !== undefined && Date.now() >= cached.ssoRetryAt) retrySso(cached);
    return cached.auth;
  }
  const auth = createAuth(database);
  const entry: CachedAuth = { database, auth };
  cache.__crossroadsAuth = entry;
  auth.then(
    (built) => watchSso(entry, built),
    () => {
      if (cache.__crossroadsAuth === entry) cache.__crossroadsAuth = undefined;
    },
  );
  return auth;
}

/** Forgets the instance (tests that change the access configuration). */
export function resetAuth(): void {
  cache.__crossroadsAuth = undefined;
}
