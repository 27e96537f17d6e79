import { afterEach, describe, expect, it } from 'vitest';
import type { CallContext } from './args';
import { authenticate, logSafe } from './credentials';

const ctx = (password: string, codeUser = ''): CallContext => ({ codeLang: '', codeUser, password, poolAlias: '', poolId: '', requestConfig: '' });
const saved = process.env.API_KEYS;
afterEach(() => {
  process.env.API_KEYS = saved;
});

describe('authenticate', () => {
  it('accepts a configured key as password and names the caller by codeUser', () => {
    process.env.API_KEYS = 'k1,k2';
    expect(authenticate(ctx('k2', 'alice'), new Headers())).toEqual({ user: 'alice' });
    expect(authenticate(ctx('k3'), new Headers())).toBeNull();
    expect(authenticate(ctx(''), new Headers())).toBeNull();
  });

  it('accepts HTTP Basic user:apikey and Bearer apikey', () => {
    process.env.API_KEYS = 'k1';
    const basic = (s: string) => new Headers({ authorization: `Basic ${Buffer.from(s).toString('base64')}` });
    expect(authenticate(ctx(''), basic('bob:k1'))).toEqual({ user: 'bob' });
    expect(authenticate(ctx('', 'carol'), basic('bob:k1'))).toEqual({ user: 'carol' });
    expect(authenticate(ctx(''), basic('bob:k2'))).toBeNull();
    expect(authenticate(ctx(''), basic('no-colon'))).toBeNull();
    expect(authenticate(ctx(''), new Headers({ authorization: 'Bearer k1' }))).toEqual({ user: 'anonymous' });
    expect(authenticate(ctx(''), new Headers({ authorization: 'bearer  k1 ' }))).not.toBeNull();
    expect(authenticate(ctx('wrong'), new Headers({ authorization: 'Bearer k1' }))).not.toBeNull();
  });

  it('in open mode takes any non-empty key and no empty one', () => {
    process.env.API_KEYS = '';
    expect(authenticate(ctx('x'), new Headers())).not.toBeNull();
    expect(authenticate(ctx(''), new Headers())).toBeNull();
  });

  it('makes names safe for a log line', () => {
    expect(logSafe('a\nb\u0000c')).toBe('a?b?c');
    expect(logSafe('x'.repeat(100))).toHaveLength(64);
  });
});
