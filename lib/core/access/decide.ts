// The access decision: who is calling (a Principal, as far as their credentials show)
// and the scope an operation needs, in; the Actor the operation runs as, or the 401/403,
// out. Pure: every transport resolves credentials with lib/features/access/principal.ts and every
// domain verb asks this function (through requireScope in lib/core/context.ts), so there is
// one rule, tested as a table in decide.test.ts.
//
// The rules:
// - Open mode (nothing configured, no user or key stored): reads need nothing; writes
//   (ingest, and delete) name any non-empty key, as the seed contract says of
//   POST /api/traces; nobody manages users or keys, but whoever reaches the server sets up
//   score configs (configure), as the laptop's user is its admin. SOAP calls always name a key.
// - Protected mode: a key this server knows, with the scope; or a live session (people
//   read, admins also delete and administer; people never ingest).
// - Annotating (writing scores) is reading's counterpart for people: any signed-in
//   person, a key with ingest, anyone in open mode (the viewer there has no people).
// - An Authorization header that names no key is a 401 whatever the mode. A request for
//   ingest always authenticates by key: a session cookie does not count there.
// - A session cookie on a change from anywhere but the app's own pages is a 403, on a
//   body not declared as JSON a 415, whatever the scope (lib/features/access/origin.ts).
import { AppError } from '@/lib/core/errors';
import type { KeyScope, Role, Scope } from './scopes';

/** Whether credentials are needed to read and write ("protected") or not ("open"). */
export type AccessMode = 'open' | 'protected';

export interface KeyIdentity {
  /** null for a key of API_KEYS. */
  keyId: string | null;
  keyName: string | null;
  scopes: readonly KeyScope[];
}

export interface UserIdentity {
  userId: string;
  email: string;
  name: string;
  role: Role;
}

/** What a request presented, checked against what the server stores. */
export type Credential =
  | { kind: 'none' }
  /** An Authorization header that names no key; message is the 401's. */
  | { kind: 'malformed'; message: string }
  /** A key; identity null when the server does not know it (in open mode keys are not looked up). */
  | { kind: 'key'; identity: KeyIdentity | null }
  /** A session cookie; identity null when it names no live session (signed out, expired, user removed, forged). */
  | { kind: 'session'; identity: UserIdentity | null }
  /** A live session cookie on a change that did not come from the app's own pages, or not as JSON (lib/features/access/origin.ts). */
  | { kind: 'refused'; code: 'FORBIDDEN' | 'UNSUPPORTED_MEDIA_TYPE'; message: string }
  /** The server's own housekeeping (retention, indexing), never a request. */
  | { kind: 'system'; task: string };

/** Who is calling: the server's mode and the credential, before any scope is asked for. */
export interface Principal {
  mode: AccessMode;
  credential: Credential;
  /** The transport authenticates machines by key only (SOAP): no key is a 401 even in open mode. */
  keysOnly: boolean;
}

/** Who an allowed operation runs as. */
export type Actor =
  | { kind: 'open' }
  | ({ kind: 'key' } & KeyIdentity)
  | ({ kind: 'user' } & UserIdentity)
  | { kind: 'system'; task: string };

export const MISSING_CREDENTIALS = 'Missing or invalid Authorization header';
export const INVALID_KEY = 'Invalid API key';

/** The Actor the principal acts as for this scope; throws AppError UNAUTHENTICATED / FORBIDDEN. */
export function decide(principal: Principal, scope: Scope): Actor {
  const { mode, credential } = principal;
  if (credential.kind === 'system') return { kind: 'system', task: credential.task };
  if (credential.kind === 'malformed') throw new AppError('UNAUTHENTICATED', credential.message);
  if (credential.kind === 'refused') throw new AppError(credential.code, credential.message);

  // Nobody is an admin in open mode, so the admin scope is decided as if protected: the
  // "any key" of open mode must never make the first admin.
  const open = mode === 'open' && scope !== 'admin';
  const needsKey = scope === 'ingest' || principal.keysOnly || (scope === 'delete' && mode === 'open');

  if (credential.kind === 'key') {
    if (open) return { kind: 'open' };
    if (!credential.identity) throw new AppError('UNAUTHENTICATED', INVALID_KEY);
    return allowKey(credential.identity, scope);
  }
  if (needsKey) throw new AppError('UNAUTHENTICATED', MISSING_CREDENTIALS);
  if (open) return { kind: 'open' };
  if (credential.kind === 'session' && credential.identity) return allowUser(credential.identity, scope);
  throw new AppError('UNAUTHENTICATED', MISSING_CREDENTIALS);
}

function allowKey(identity: KeyIdentity, scope: Scope): Actor {
  // A key writes scores, datasets and experiments as it writes traces; configuring is an admin's, which no key is.
  const needed = scope === 'annotate' || scope === 'curate' ? 'ingest' : scope === 'configure' ? 'admin' : scope;
  if (needed !== 'admin' && identity.scopes.includes(needed)) return { kind: 'key', ...identity };
  throw new AppError('FORBIDDEN', `API key lacks the ${needed} scope`);
}

function allowUser(identity: UserIdentity, scope: Scope): Actor {
  const adminOnly = scope === 'admin' || scope === 'delete' || scope === 'configure' || scope === 'curate';
  if (scope === 'read' || scope === 'annotate' || (adminOnly && identity.role === 'admin')) {
    return { kind: 'user', ...identity };
  }
  throw new AppError(
    'FORBIDDEN',
    adminOnly ? 'This needs the admin role' : `Signed-in users cannot ${scope}; use an API key`,
  );
}

/**
 * The first of `scopes` the principal has, with the Actor it gives; when none, the first
 * scope's error (the one that names what the operation mainly needs).
 */
export function decideAny(principal: Principal, scopes: readonly [Scope, ...Scope[]]): { scope: Scope; actor: Actor } {
  let first: unknown;
  for (const scope of scopes) {
    try {
      return { scope, actor: decide(principal, scope) };
    } catch (err) {
      first ??= err;
    }
  }
  throw first;
}

/** Whether the principal has the scope: decide's answer without its error (what a page shows or offers). */
export function allows(principal: Principal, scope: Scope): boolean {
  try {
    decide(principal, scope);
    return true;
  } catch {
    return false;
  }
}

/** Whether the viewer offers deleting to this actor: admins only (open mode deletes through the API, with a key). */
export function mayDeleteTraces(actor: Actor): boolean {
  return actor.kind === 'user' && actor.role === 'admin';
}

/**
 * A stable identity of who acts, for what belongs to them (saved views, review holds): a
 * person by id, a key by id (API_KEYS keys, which the server cannot tell apart, share one),
 * open mode as one "open" actor.
 */
export function actorKey(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return `user:${actor.userId}`;
    case 'key':
      return `key:${actor.keyId ?? 'API_KEYS'}`;
    case 'open':
      return 'open';
    case 'system':
      return `system:${actor.task}`;
  }
}

/** Who did it, for the logs: never a key or a session token. */
export function describeActor(actor: Actor): string {
  if (actor.kind === 'open') return 'open mode (any key)';
  if (actor.kind === 'user') return `user ${actor.email}`;
  if (actor.kind === 'system') return actor.task;
  if (actor.keyId === null) return 'an API_KEYS key';
  return `key ${JSON.stringify(actor.keyName ?? '')} (${actor.keyId})`;
}
