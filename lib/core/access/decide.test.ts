// The access decision as a table: every mode x credential x scope, with the Actor or the
// error it gives. A change of rule shows up here as a changed row.
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { actorKey, allows, decide, decideAny, describeActor, mayDeleteTraces, type Credential, type Principal } from './decide';
import type { Scope } from './scopes';

const readKey: Credential = { kind: 'key', identity: { keyId: 'k1', keyName: 'reader', scopes: ['read'] } };
const ingestKey: Credential = { kind: 'key', identity: { keyId: 'k2', keyName: 'sdk', scopes: ['ingest'] } };
const allKey: Credential = { kind: 'key', identity: { keyId: null, keyName: null, scopes: ['ingest', 'read', 'delete'] } };
const unknownKey: Credential = { kind: 'key', identity: null };
const admin: Credential = { kind: 'session', identity: { userId: 'u1', email: 'a@x.test', name: 'a', role: 'admin' } };
const viewer: Credential = { kind: 'session', identity: { userId: 'u2', email: 'v@x.test', name: 'v', role: 'viewer' } };
const deadSession: Credential = { kind: 'session', identity: null };
const none: Credential = { kind: 'none' };
const malformed: Credential = { kind: 'malformed', message: 'Missing API key' };
const system: Credential = { kind: 'system', task: 'retention' };

type Outcome = 'open' | 'key' | 'user' | 'system' | 401 | 403;
const MISSING = 'Missing or invalid Authorization header';

// [mode, credential name, credential, keysOnly, scope, outcome, message of the error]
const TABLE: Array<[Principal['mode'], string, Credential, boolean, Scope, Outcome, string?]> = [
  // Open mode: reads need nothing; writes name any key; nobody administers.
  ['open', 'none', none, false, 'read', 'open'],
  ['open', 'none', none, false, 'ingest', 401, MISSING],
  ['open', 'none', none, false, 'delete', 401, MISSING],
  ['open', 'none', none, false, 'admin', 401, MISSING],
  ['open', 'unknown key', unknownKey, false, 'read', 'open'],
  ['open', 'unknown key', unknownKey, false, 'ingest', 'open'],
  ['open', 'unknown key', unknownKey, false, 'delete', 'open'],
  ['open', 'unknown key', unknownKey, false, 'admin', 401, 'Invalid API key'],
  // ...but the laptop's user configures how runs are judged.
  ['open', 'none', none, false, 'configure', 'open'],
  ['open', 'unknown key', unknownKey, false, 'configure', 'open'],
  ['open', 'none', none, false, 'curate', 'open'],
  ['open', 'malformed header', malformed, false, 'read', 401, 'Missing API key'],
  ['open', 'malformed header', malformed, false, 'ingest', 401, 'Missing API key'],
  // SOAP authenticates by key only, in open mode too.
  ['open', 'none (SOAP)', none, true, 'read', 401, MISSING],
  ['open', 'unknown key (SOAP)', unknownKey, true, 'read', 'open'],
  // Protected mode.
  ['protected', 'none', none, false, 'read', 401, MISSING],
  ['protected', 'none', none, false, 'ingest', 401, MISSING],
  ['protected', 'none', none, false, 'delete', 401, MISSING],
  ['protected', 'none', none, false, 'admin', 401, MISSING],
  ['protected', 'unknown key', unknownKey, false, 'read', 401, 'Invalid API key'],
  ['protected', 'unknown key', unknownKey, false, 'ingest', 401, 'Invalid API key'],
  ['protected', 'malformed header', malformed, false, 'read', 401, 'Missing API key'],
  ['protected', 'read key', readKey, false, 'read', 'key'],
  ['protected', 'read key', readKey, false, 'ingest', 403, 'API key lacks the ingest scope'],
  ['protected', 'read key', readKey, false, 'delete', 403, 'API key lacks the delete scope'],
  ['protected', 'read key', readKey, false, 'admin', 403, 'API key lacks the admin scope'],
  ['protected', 'ingest key', ingestKey, false, 'ingest', 'key'],
  ['protected', 'ingest key', ingestKey, false, 'read', 403, 'API key lacks the read scope'],
  ['protected', 'every key scope', allKey, false, 'delete', 'key'],
  ['protected', 'every key scope', allKey, false, 'admin', 403, 'API key lacks the admin scope'],
  ['protected', 'admin session', admin, false, 'read', 'user'],
  ['protected', 'admin session', admin, false, 'delete', 'user'],
  ['protected', 'admin session', admin, false, 'admin', 'user'],
  ['protected', 'admin session', admin, false, 'configure', 'user'],
  ['protected', 'viewer session', viewer, false, 'configure', 403, 'This needs the admin role'],
  ['protected', 'every key scope', allKey, false, 'configure', 403, 'API key lacks the admin scope'],
  ['protected', 'none', none, false, 'configure', 401, MISSING],
  // Datasets and experiments: written by keys with ingest and by admins.
  ['protected', 'none', none, false, 'curate', 401, MISSING],
  ['protected', 'read key', readKey, false, 'curate', 403, 'API key lacks the ingest scope'],
  ['protected', 'every key scope', allKey, false, 'curate', 'key'],
  ['protected', 'admin session', admin, false, 'curate', 'user'],
  ['protected', 'viewer session', viewer, false, 'curate', 403, 'This needs the admin role'],
  // People never ingest: a request for ingest authenticates by key, a cookie does not count.
  ['protected', 'admin session', admin, false, 'ingest', 401, MISSING],
  ['protected', 'viewer session', viewer, false, 'read', 'user'],
  ['protected', 'viewer session', viewer, false, 'delete', 403, 'This needs the admin role'],
  ['protected', 'viewer session', viewer, false, 'admin', 403, 'This needs the admin role'],
  // Signed out, expired, removed user or a forged cookie: nothing.
  ['protected', 'dead session', deadSession, false, 'read', 401, MISSING],
  ['protected', 'dead session', deadSession, false, 'admin', 401, MISSING],
  ['protected', 'session (SOAP)', admin, true, 'read', 401, MISSING],
  ['protected', 'read key (SOAP)', readKey, true, 'read', 'key'],
  ['protected', 'read key (SOAP)', readKey, true, 'ingest', 403, 'API key lacks the ingest scope'],
  // Annotating (scores): anyone in open mode, every signed-in person, keys with ingest.
  ['open', 'none', none, false, 'annotate', 'open'],
  ['open', 'unknown key', unknownKey, false, 'annotate', 'open'],
  ['protected', 'none', none, false, 'annotate', 401, MISSING],
  ['protected', 'ingest key', ingestKey, false, 'annotate', 'key'],
  ['protected', 'read key', readKey, false, 'annotate', 403, 'API key lacks the ingest scope'],
  ['protected', 'viewer session', viewer, false, 'annotate', 'user'],
  ['protected', 'admin session', admin, false, 'annotate', 'user'],
  ['protected', 'dead session', deadSession, false, 'annotate', 401, MISSING],
  ['protected', 'session (SOAP)', viewer, true, 'annotate', 401, MISSING],
  // The server's own housekeeping.
  ['protected', 'system', system, false, 'delete', 'system'],
  ['open', 'system', system, false, 'ingest', 'system'],
];

describe('decide', () => {
  it.each(TABLE)('%s mode, %s (keysOnly %s), %s: %s', (mode, _name, credential, keysOnly, scope, outcome, message) => {
    const principal: Principal = { mode, credential, keysOnly };
    if (typeof outcome === 'number') {
      let thrown: unknown;
      try {
        decide(principal, scope);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect(thrown).toMatchObject({ code: outcome === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN', message });
    } else {
      expect(decide(principal, scope).kind).toBe(outcome);
    }
    // allows() is the same row without the error: what pages show (the admin's Settings link).
    expect(allows(principal, scope)).toBe(typeof outcome !== 'number');
  });

  it('covers every scope in each mode for the credentials a request can carry', () => {
    for (const mode of ['open', 'protected'] as const) {
      for (const scope of ['read', 'ingest', 'delete', 'admin', 'annotate', 'configure', 'curate'] as const) {
        expect(TABLE.some(([m, , c, , s]) => m === mode && s === scope && c === none), `${mode} ${scope} none`).toBe(true);
      }
    }
  });

  it('decideAny: the first scope the principal has, else the first scope\'s error', () => {
    const as = (credential: Credential) => ({ mode: 'protected' as const, credential, keysOnly: false });
    expect(decideAny(as(ingestKey), ['delete', 'annotate'])).toMatchObject({ scope: 'annotate', actor: { kind: 'key' } });
    expect(decideAny(as(admin), ['delete', 'annotate'])).toMatchObject({ scope: 'delete', actor: { kind: 'user' } });
    expect(() => decideAny(as(readKey), ['delete', 'annotate'])).toThrow('API key lacks the delete scope');
    expect(() => decideAny(as(none), ['delete', 'annotate'])).toThrow(MISSING);
  });

  it('describes actors for the logs without secrets, and offers deleting in the viewer to admins only', () => {
    const as = (credential: Credential, scope: Scope) => decide({ mode: 'protected', credential, keysOnly: false }, scope);
    expect(describeActor(as(admin, 'read'))).toBe('user a@x.test');
    expect(describeActor(as(readKey, 'read'))).toBe('key "reader" (k1)');
    expect(describeActor(as(allKey, 'read'))).toBe('an API_KEYS key');
    expect(describeActor(as(system, 'delete'))).toBe('retention');
    expect(describeActor(decide({ mode: 'open', credential: none, keysOnly: false }, 'read'))).toBe('open mode (any key)');
    expect([as(admin, 'read'), as(readKey, 'read'), as(allKey, 'read'), as(system, 'delete')].map(actorKey)).toEqual(['user:u1', 'key:k1', 'key:API_KEYS', 'system:retention']);
    expect(actorKey(decide({ mode: 'open', credential: none, keysOnly: false }, 'read'))).toBe('open');
    expect(mayDeleteTraces(as(admin, 'read'))).toBe(true);
    expect(mayDeleteTraces(as(viewer, 'read'))).toBe(false);
    expect(mayDeleteTraces(as(allKey, 'read'))).toBe(false);
  });
});
