// Who is calling: the one place where a request's credentials (an Authorization header,
// a SOAP envelope's key, a session cookie) are read and checked against what the server
// stores. It decides nothing: lib/core/access/decide.ts does, for the scope each verb needs.
import 'server-only';
import { getAuth } from './auth';
import { bearerKey, bearerOrBasicKey, isConfiguredKey } from './credentials';
import type { Credential, KeyIdentity, Principal, UserIdentity } from '@/lib/core/access/decide';
import { accessMode } from './mode';
import { changesState, cookieWriteRefusal } from '@/lib/features/access/origin';
import { CONFIGURED_KEY_SCOPES, isRole, scopesOf } from '@/lib/core/access/scopes';
import { isAppError } from '@/lib/core/errors';

/** How a transport presents credentials. */
export type Transport =
  /**
   * A route handler: an Authorization header (Bearer, or Basic with the key as password
   * where `basic`), else the session cookie, which counts for a change (any method but
   * GET, HEAD, OPTIONS) only from the app's own pages with a JSON body (origin.ts).
   */
  | { kind: 'http'; method: string; url: string; basic?: boolean }
  /** A page: the session cookie only (browsers sign in; keys are for machines). */
  | { kind: 'page' }
  /** SOAP: the envelope's callContext.password, then the Authorization header; never a cookie. */
  | { kind: 'soap'; envelopeKey: string };

/** The key's identity, or null when it is not a key this server knows. */
async function keyIdentity(key: string, headers: Headers): Promise<KeyIdentity | null> {
  if (isConfiguredKey(key)) return { keyId: null, keyName: null, scopes: CONFIGURED_KEY_SCOPES };
  const auth = await getAuth();
  // The request's headers let Better Auth resolve its (dynamic) base URL.
  const result = await auth.api.verifyApiKey({ body: { key }, headers });
  if (!result.valid || !result.key) return null;
  return { keyId: result.key.id, keyName: result.key.name ?? null, scopes: scopesOf(result.key.permissions) };
}

/** The person of a live session (read from the database each time: signing out, expiry and removal take effect at once), or null. */
export async function sessionIdentity(headers: Headers): Promise<UserIdentity | null> {
  if (!headers.get('cookie')) return null;
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers, query: { disableCookieCache: true } });
  if (!session) return null;
  const { user } = session;
  const role = (user as { role?: unknown }).role;
  return { userId: user.id, email: user.email, name: user.name, role: isRole(role) ? role : 'viewer' };
}

/** The keys a SOAP call presents, in order: its envelope's, then its Authorization header's (Bearer or Basic). */
function soapKeys(envelopeKey: string, authorization: string | null): string[] {
  const keys = [envelopeKey];
  if (authorization !== null) {
    try {
      keys.push(bearerOrBasicKey(authorization));
    } catch {
      // A header that names no key is no candidate; the envelope may still name one.
    }
  }
  return keys.filter((k) => k.length > 0);
}

async function soapCredential(keys: string[], headers: Headers, open: boolean): Promise<Credential> {
  if (keys.length === 0) return { kind: 'none' };
  if (open) return { kind: 'key', identity: null };
  for (const key of keys) {
    const identity = await keyIdentity(key, headers);
    if (identity) return { kind: 'key', identity };
  }
  return { kind: 'key', identity: null };
}

async function httpCredential(headers: Headers, transport: Extract<Transport, { kind: 'http' }>, open: boolean): Promise<Credential> {
  const authorization = headers.get('authorization');
  const basic = transport.basic ?? false;
  if (authorization !== null) {
    let key: string;
    try {
      key = basic ? bearerOrBasicKey(authorization) : bearerKey(authorization);
    } catch (err) {
      if (isAppError(err)) return { kind: 'malformed', message: err.message };
      throw err;
    }
    // In open mode no key is stored or configured, so there is nothing to look up.
    return { kind: 'key', identity: open ? null : await keyIdentity(key, headers) };
  }
  const session = await sessionCredential(headers, open);
  if (session.kind !== 'session' || !session.identity || !changesState(transport.method)) return session;
  const refusal = cookieWriteRefusal(headers, transport.url);
  return refusal ? { kind: 'refused', ...refusal } : session;
}

async function sessionCredential(headers: Headers, open: boolean): Promise<Credential> {
  // Open mode has no users, so no session to look up.
  if (open || !headers.get('cookie')) return { kind: 'none' };
  return { kind: 'session', identity: await sessionIdentity(headers) };
}

/** The principal of a request, however it came. */
export async function resolvePrincipal(headers: Headers, transport: Transport): Promise<Principal> {
  const mode = await accessMode();
  const open = mode === 'open';
  switch (transport.kind) {
    case 'http':
      return { mode, keysOnly: false, credential: await httpCredential(headers, transport, open) };
    case 'page':
      return { mode, keysOnly: false, credential: await sessionCredential(headers, open) };
    case 'soap':
      return { mode, keysOnly: true, credential: await soapCredential(soapKeys(transport.envelopeKey, headers.get('authorization')), headers, open) };
  }
}
