// The per-address sign-in limit over real sockets: the server notes each request's socket
// address as Node receives it (recordSocketAddresses, which the server process calls at
// start), so a client's own X-Forwarded-For or a forged copy of that note counts for
// nothing, unless the socket is a proxy listed in TRUSTED_PROXIES.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { PEER_HEADER, recordSocketAddresses } from '@/lib/core/client-address';
import { testDatabases } from '@/test/support/databases';
import { makeUser, accessSuite } from '@/test/support/access';
import { serveRoutes, type RouteServer } from '@/test/support/route-server';

// The limit the issue sets, not read from throttle.ts: a change there must show here.
const MAX_FAILURES_PER_ADDRESS = 20;

describe.each(testDatabases())('the client address over real sockets on $name', ({ open }) => {
  const suite = accessSuite(open, ['info', 'error', 'warn']);
  let server: RouteServer;
  beforeAll(async () => {
    recordSocketAddresses();
    server = await serveRoutes({
      '/api/auth/sign-in/email': (req) => authPost(req, { params: Promise.resolve({ all: ['sign-in', 'email'] }) }),
    });
  });
  afterAll(() => server.close());

  const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
    fetch(`${server.origin}/api/auth/sign-in/email`, {
      method: 'POST',
      body: JSON.stringify({ email, password }),
      headers: { 'content-type': 'application/json', ...headers },
    });

  async function spray(headers: (i: number) => Record<string, string>): Promise<void> {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      const res = await signIn(`spray-${i}@example.test`, 'wrong password', headers(i));
      expect(res.status).toBe(401);
    }
  }

  it('without TRUSTED_PROXIES, failures count against the socket, whatever X-Forwarded-For, X-Real-IP or a forged note say', async () => {
    const person = await makeUser('viewer');
    await spray((i) => ({ 'x-forwarded-for': `192.0.2.${i + 1}`, 'x-real-ip': `198.51.100.${i + 1}`, [PEER_HEADER]: `forged 192.0.2.${i + 1}` }));
    const held = await signIn(person.email, person.password, { 'x-forwarded-for': '192.0.2.250' });
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    const rows = await suite.db.sql.query<{ key: string }>(`SELECT "key" FROM "SignInThrottle" WHERE "key" LIKE 'ip:%'`);
    expect(rows.map((r) => r.key)).toEqual(['ip:127.0.0.1']);
  });

  it('behind a trusted proxy, the client is the hop the proxy added, not what the client wrote before it', async () => {
    process.env.TRUSTED_PROXIES = '127.0.0.1, ::1';
    const person = await makeUser('viewer');
    // Each client writes a different X-Forwarded-For of its own; the proxy appends the same real address.
    await spray((i) => ({ 'x-forwarded-for': `198.51.100.${i + 1}, 192.0.2.77` }));
    expect((await signIn(person.email, person.password, { 'x-forwarded-for': '198.51.100.250, 192.0.2.77' })).status).toBe(429);
    // Another client behind the same proxy is not held back.
    expect((await signIn(person.email, person.password, { 'x-forwarded-for': '192.0.2.78' })).status).toBe(200);
  });
});
