// The one access check. Every route handler passes through it (lib/http/respond.ts
// `route(scope, ...)`), every page through app/(app)/layout.tsx, SOAP through
// lib/soap/credentials.ts, and proxy.ts turns anonymous requests away before any of them.
//
// Credentials, in this order:
// 1. an Authorization header: an API key as `Bearer <key>` (or, where the route allows,
//    Basic with the key as the password). Keys of API_KEYS have ingest and read; keys made
//    in /settings/api-keys have theirs. In open mode any non-empty key passes (presence
//    only, as the seed contract says of POST /api/traces).
// 2. a session cookie (people signed in through /sign-in or SSO): read, and admin and
//    delete for admins. People never ingest: machines do, with keys.
// 3. nothing: fine in open mode for reads; 401 otherwise. Writes (ingest, delete) always
//    name a key in open mode.
import { AppError } from '@/lib/errors';
import { getAuth } from './auth';
import { bearerKey, bearerOrBasicKey, isConfiguredKey } from './credentials';
import { accessMode } from './mode';
import { CONFIGURED_KEY_SCOPES, isRole, scopesOf, type KeyScope, type Role, type Scope } from './scopes';

export type Principal =
  | { kind: 'open' }
  | { kind: 'key'; keyId: string | null; keyName: string | null; scopes: readonly KeyScope[] }
  | { kind: 'user'; userId: string; email: string; name: string; role: Role };

export interface AccessRule {
  scope: Scope;
  /** Accept `Authorization: Basic` with the key as the password (not on POST /api/traces, whose contract says Bearer). */
  basic?: boolean;
}

const MISSING = 'Missing or invalid Authorization header';
const INVALID_KEY = 'Invalid API key';

/** The key's principal, or null when it is not a key this server knows. */
export async function keyPrincipal(key: string, headers: Headers): Promise<Extract<Principal, { kind: 'key' }> | null> {
  if (isConfiguredKey(key)) return { kind: 'key', keyId: null, keyName: null, scopes: CONFIGURED_KEY_SCOPES };
  const auth = await getAuth();
  // The request's headers let Better Auth resolve its (dynamic) base URL.
  const result = await auth.api.verifyApiKey({ body: { key }, headers });
  if (!result.valid || !result.key) return null;
  return { kind: 'key', keyId: result.key.id, keyName: result.key.name ?? null, scopes: scopesOf(result.key.permissions) };
}

/** The signed-in person, or null. */
export async function sessionPrincipal(headers: Headers): Promise<Extract<Principal, { kind: 'user' }> | null> {
  if (!headers.get('cookie')) return null;
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { user } = session;
  const role = (user as { role?: unknown }).role;
  return { kind: 'user', userId: user.id, email: user.email, name: user.name, role: isRole(role) ? role : 'viewer' };
}

function allow(principal: Principal, scope: Scope): Principal {
  if (principal.kind === 'open') return principal;
  if (principal.kind === 'key') {
    if (scope !== 'admin' && principal.scopes.includes(scope)) return principal;
    throw new AppError('FORBIDDEN', `API key lacks the ${scope} scope`);
  }
  if (scope === 'read' || ((scope === 'admin' || scope === 'delete') && principal.role === 'admin')) return principal;
  throw new AppError('FORBIDDEN', scope === 'admin' || scope === 'delete' ? 'This needs the admin role' : `Signed-in users cannot ${scope}; use an API key`);
}

/** Checks a request's credentials for a scope; throws AppError 401/403 with the contract's messages. */
export async function requireAccess(headers: Headers, rule: AccessRule): Promise<Principal> {
  const mode = await accessMode();
  const authorization = headers.get('authorization');
  const keyOf = rule.basic ? bearerOrBasicKey : bearerKey;

  // Writes always name a key, even in open mode (the seed contract's 401s).
  if (rule.scope === 'ingest' || authorization !== null || (rule.scope === 'delete' && mode === 'open')) {
    const key = keyOf(authorization);
    // Open mode's "any key" never reaches the admin routes: it would let anyone make the first admin.
    if (mode === 'open' && rule.scope !== 'admin') return { kind: 'open' };
    const principal = await keyPrincipal(key, headers);
    if (!principal) throw new AppError('UNAUTHENTICATED', INVALID_KEY);
    return allow(principal, rule.scope);
  }
  const person = mode === 'open' && rule.scope !== 'admin' ? null : await sessionPrincipal(headers);
  if (person) return allow(person, rule.scope);
  if (mode === 'open' && rule.scope !== 'admin') return { kind: 'open' };
  throw new AppError('UNAUTHENTICATED', MISSING);
}

/** Whether the viewer offers deleting to this principal: admins only (open mode deletes through the API, with a key). */
export function mayDeleteTraces(principal: Principal): boolean {
  return principal.kind === 'user' && principal.role === 'admin';
}

/** Who did it, for the logs: never a key or a session token. */
export function describePrincipal(principal: Principal): string {
  if (principal.kind === 'open') return 'open mode (any key)';
  if (principal.kind === 'user') return `user ${principal.email}`;
  if (principal.keyId === null) return 'an API_KEYS key';
  return `key ${JSON.stringify(principal.keyName ?? '')} (${principal.keyId})`;
}

/** The principal of a page request, or null when it must sign in first. */
export async function pagePrincipal(headers: Headers): Promise<Principal | null> {
  const person = await sessionPrincipal(headers);
  if (person) return person;
  return (await accessMode()) === 'open' ? { kind: 'open' } : null;
}
