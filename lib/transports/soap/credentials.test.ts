import { contextAs } from '@/test/support/context';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetAccessMode } from '@/lib/features/access/mode';
import { useDatabase, type Database } from '@/lib/db';
import { openDatabase } from '@/lib/db/open';
import type { CallContext } from './args';
import { resolvePrincipal } from '@/lib/features/access/principal';
import { callerName, logSafe } from './credentials';
import { soapAccessRefusal } from './operations';

const ctx = (password: string, codeUser = ''): CallContext => ({ codeLang: '', codeUser, password, poolAlias: '', poolId: '', requestConfig: '' });
const saved = process.env.API_KEYS;
let db: Database;
beforeAll(async () => {
  // Unknown keys are looked up among stored keys: an empty database of its own.
  db = await openDatabase('memory://', { migrateEmbedded: true });
  useDatabase(db);
});
afterAll(async () => {
  await db.close();
});
afterEach(() => {
  process.env.API_KEYS = saved;
  resetAccessMode();
});

const FAILED = { failure: 'Authentication failed' };

/** Who may make a call, as executeCall decides it: the caller's name, or the business failure. */
async function authorizeCall(context: CallContext, headers: Headers, scope: 'ingest' | 'read') {
  const principal = await resolvePrincipal(headers, { kind: 'soap', envelopeKey: context.password });
  const refusal = soapAccessRefusal(contextAs(db, principal), scope);
  return refusal === null ? { caller: { user: callerName(context, headers) } } : { failure: refusal };
}

describe('SOAP call access', () => {
  it('accepts a configured key as password and names the caller by codeUser', async () => {
    process.env.API_KEYS = 'k1,k2';
    expect(await authorizeCall(ctx('k2', 'alice'), new Headers(), 'read')).toEqual({ caller: { user: 'alice' } });
    expect(await authorizeCall(ctx('k3'), new Headers(), 'read')).toEqual(FAILED);
    expect(await authorizeCall(ctx(''), new Headers(), 'ingest')).toEqual(FAILED);
  });

  it('accepts HTTP Basic user:apikey and Bearer apikey', async () => {
    process.env.API_KEYS = 'k1';
    const basic = (s: string) => new Headers({ authorization: `Basic ${Buffer.from(s).toString('base64')}` });
    expect(await authorizeCall(ctx(''), basic('bob:k1'), 'read')).toEqual({ caller: { user: 'bob' } });
    expect(await authorizeCall(ctx('', 'carol'), basic('bob:k1'), 'read')).toEqual({ caller: { user: 'carol' } });
    expect(await authorizeCall(ctx(''), basic('bob:k2'), 'read')).toEqual(FAILED);
    expect(await authorizeCall(ctx(''), basic('no-colon'), 'read')).toEqual(FAILED);
    expect(await authorizeCall(ctx(''), new Headers({ authorization: 'Bearer k1' }), 'read')).toEqual({ caller: { user: 'anonymous' } });
    expect(await authorizeCall(ctx(''), new Headers({ authorization: 'bearer  k1 ' }), 'read')).toHaveProperty('caller');
    expect(await authorizeCall(ctx('wrong'), new Headers({ authorization: 'Bearer k1' }), 'read')).toHaveProperty('caller');
  });

  it('in open mode takes any non-empty key and no empty one', async () => {
    process.env.API_KEYS = '';
    expect(await authorizeCall(ctx('x'), new Headers(), 'ingest')).toHaveProperty('caller');
    expect(await authorizeCall(ctx(''), new Headers(), 'read')).toEqual(FAILED);
  });

  it('makes names safe for a log line', () => {
    expect(logSafe('a\nb\u0000c')).toBe('a?b?c');
    expect(logSafe('x'.repeat(100))).toHaveLength(64);
  });
});
