// Signing in through the real /api/auth route: the session cookie's attributes, the
// throttle per account and per address (which never tells whether an email exists), the
// first admin from the environment (never overwritten), and the session secret kept in
// the database when AUTH_SECRET is unset (sessions survive a restart).
import { createHash, createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { GET as authGet, POST as authPost } from '@/app/api/auth/[...all]/route';
import { GET as listRoute } from '@/app/api/traces/route';
import { GET as listUsersRoute } from '@/app/api/users/route';
import { testDatabases } from '@/test/support/databases';
import { getAuth, resetAuth, SESSION_DAYS } from '@/lib/features/access/auth';
import { cookieHeader, makeUser, ORIGIN, peer, sessionSetCookie, signIn, signInRequest, accessSuite } from '@/test/support/access';
import { SIGN_IN_WINDOW_SECONDS } from '@/lib/features/access/throttle';
import { readMigrations } from '@/lib/db/migrate';

const TOO_MANY = JSON.stringify({ error: 'Too many sign-in attempts; try again later' });
const WRONG = 'not the password';
// The limits the issue sets (failures per window), not read from throttle.ts: a change there must show here.
const MAX_FAILURES_PER_ACCOUNT = 5;
const MAX_FAILURES_PER_ADDRESS = 20;

/** The cookie's attributes, lower-cased names ("httponly", "samesite", ...). */
function attributes(setCookie: string): Map<string, string> {
  return new Map(
    setCookie
      .split(';')
      .slice(1)
      .map((part) => {
        const [name, ...value] = part.trim().split('=');
        return [name.toLowerCase(), value.join('=')] as [string, string];
      }),
  );
}

const SIGN_IN_PARAMS = { params: Promise.resolve({ all: ['sign-in', 'email'] }) };

const readTraces = (cookie: string) => listRoute(new Request(`${ORIGIN}/api/traces`, { headers: { cookie } }));

let addresses = 0;
/** A client address of its own, so the per-address counter of one test never leaks into another. */
const freshAddress = () => `203.0.113.${++addresses}`;

describe.each(testDatabases())('sign-in on $name', ({ open }) => {
  const suite = accessSuite(open, ['info', 'error', 'warn']);

  describe('the session cookie', () => {
    it('is the only place the session token travels: sign-in and get-session bodies leave it out', async () => {
      const person = await makeUser('viewer');
      const res = await signInRequest(person.email, person.password);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.user).toMatchObject({ email: person.email });
      expect(body).not.toHaveProperty('token');
      const token = decodeURIComponent(sessionSetCookie(res).split(';')[0].split('=')[1]).split('.')[0];
      const session = await authGet(
        new Request(`${ORIGIN}/api/auth/get-session`, { headers: { cookie: cookieHeader(res) } }),
        { params: Promise.resolve({ all: ['get-session'] }) },
      );
      const text = await session.text();
      expect(JSON.parse(text)).toMatchObject({ user: { email: person.email }, session: { userId: person.id } });
      expect(text).not.toContain(token);
    });

    it('is stored only as its SHA-256 hash: the stored value is no session, the cookie is, until sign-out', async () => {
      const person = await makeUser('viewer');
      const res = await signInRequest(person.email, person.password);
      expect(res.status).toBe(200);
      const cookie = cookieHeader(res);
      const token = decodeURIComponent(sessionSetCookie(res).split(';')[0].split('=')[1]).split('.')[0];
      const [stored] = await suite.db.prisma.session.findMany({ where: { userId: person.id } });
      expect(stored.token).toBe(createHash('sha256').update(token).digest('hex'));
      expect(JSON.stringify(await suite.db.prisma.session.findMany())).not.toContain(token);
      expect((await readTraces(cookie)).status).toBe(200);
      // A copy of the table signs nobody in, even with the secret: the stored value, signed as a cookie, is no session.
      const { secret } = await (await getAuth()).$context;
      const forged = `${stored.token}.${createHmac('sha256', secret).update(stored.token).digest('base64')}`;
      expect((await readTraces(`crossroads.session_token=${encodeURIComponent(forged)}`)).status).toBe(401);
      const resigned = `${token}.${createHmac('sha256', secret).update(token).digest('base64')}`;
      expect((await readTraces(`crossroads.session_token=${encodeURIComponent(resigned)}`)).status).toBe(200);
      const out = await authPost(
        new Request(`${ORIGIN}/api/auth/sign-out`, { method: 'POST', headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' }, body: '{}' }),
        { params: Promise.resolve({ all: ['sign-out'] }) },
      );
      expect(out.status).toBe(200);
      expect(await suite.db.prisma.session.count({ where: { userId: person.id } })).toBe(0);
      expect((await readTraces(cookie)).status).toBe(401);
    });

    it('a session past updateAge is renewed under the same cookie, still stored as its hash', async () => {
      const person = await makeUser('viewer');
      const res = await signInRequest(person.email, person.password);
      const cookie = cookieHeader(res);
      const token = decodeURIComponent(sessionSetCookie(res).split(';')[0].split('=')[1]).split('.')[0];
      // Two days old: Better Auth extends it at the next read.
      const aged = new Date(Date.now() + (SESSION_DAYS - 2) * 24 * 3600 * 1000);
      await suite.db.prisma.session.updateMany({ where: { userId: person.id }, data: { expiresAt: aged } });
      const renewed = await authGet(new Request(`${ORIGIN}/api/auth/get-session`, { headers: { cookie } }), { params: Promise.resolve({ all: ['get-session'] }) });
      expect(renewed.status).toBe(200);
      expect(decodeURIComponent(sessionSetCookie(renewed).split(';')[0].split('=')[1]).split('.')[0]).toBe(token);
      const [stored] = await suite.db.prisma.session.findMany({ where: { userId: person.id } });
      expect(stored.expiresAt.getTime()).toBeGreaterThan(aged.getTime());
      expect(stored.token).toBe(createHash('sha256').update(token).digest('hex'));
      expect((await readTraces(cookie)).status).toBe(200);
    });

    it('still signs in after the auth library ran a transaction (the adapter it hands back is not digested twice)', async () => {
      const person = await makeUser('viewer');
      const cookie = cookieHeader(await signInRequest(person.email, person.password));
      const { adapter } = await (await getAuth()).$context;
      // Without a transaction of its own the Prisma adapter hands the callback itself; SSO sign-ins run there.
      for (let i = 0; i < 2; i++) await adapter.transaction((trx) => trx.count({ model: 'session', where: [{ field: 'userId', value: person.id }] }));
      expect((await readTraces(cookie)).status).toBe(200);
      const later = cookieHeader(await signInRequest(person.email, person.password));
      expect((await readTraces(later)).status).toBe(200);
      const token = decodeURIComponent(later.split('=')[1]).split('.')[0];
      expect(await suite.db.prisma.session.count({ where: { token: createHash('sha256').update(token).digest('hex') } })).toBe(1);
    });

    it('a session stored before tokens were digested still signs in once its migration has run', async () => {
      const person = await makeUser('viewer');
      const token = 'a0B1c2D3e4F5g6H7i8J9k0L1m2N3o4P5';
      const now = new Date();
      await suite.db.sql.query(
        `INSERT INTO "Session" ("id", "token", "userId", "expiresAt", "createdAt", "updatedAt") VALUES ('old-session', $1, $2, $3, $4, $4)`,
        [token, person.id, new Date(now.getTime() + 24 * 3600 * 1000), now],
      );
      const { secret } = await (await getAuth()).$context;
      const cookie = `crossroads.session_token=${encodeURIComponent(`${token}.${createHmac('sha256', secret).update(token).digest('base64')}`)}`;
      const [migration] = (await readMigrations()).filter((m) => m.name.endsWith('_hashed_session_tokens'));
      await suite.db.sql.exec(migration.sql);
      expect((await suite.db.prisma.session.findUniqueOrThrow({ where: { id: 'old-session' } })).token).toBe(createHash('sha256').update(token).digest('hex'));
      expect((await readTraces(cookie)).status).toBe(200);
    });

    it('is HttpOnly, SameSite=Lax, expires with the session, and not Secure over plain HTTP', async () => {
      const person = await makeUser('viewer');
      const before = Date.now();
      const res = await signInRequest(person.email, person.password);
      expect(res.status).toBe(200);
      const attrs = attributes(sessionSetCookie(res));
      expect(attrs.has('httponly')).toBe(true);
      expect(attrs.get('samesite')?.toLowerCase()).toBe('lax');
      expect(attrs.get('path')).toBe('/');
      expect(Number(attrs.get('max-age'))).toBe(SESSION_DAYS * 24 * 3600);
      expect(attrs.has('secure')).toBe(false);
      const session = await suite.db.prisma.session.findFirstOrThrow({ where: { userId: person.id } });
      expect(session.expiresAt.getTime() - before).toBeGreaterThan((SESSION_DAYS * 24 * 3600 - 60) * 1000);
      expect(session.expiresAt.getTime() - before).toBeLessThan((SESSION_DAYS * 24 * 3600 + 60) * 1000);
    });

    it.each([
      ['an https URL', { origin: 'https://crossroads.example' }],
      ['X-Forwarded-Proto: https (TLS ends at a proxy)', { headers: { 'x-forwarded-proto': 'https' } }],
    ])('is Secure when the request came over HTTPS: %s', async (_name, opts) => {
      const person = await makeUser('viewer');
      const res = await signInRequest(person.email, person.password, opts);
      expect(res.status).toBe(200);
      const attrs = attributes(sessionSetCookie(res));
      expect(attrs.has('secure')).toBe(true);
      expect(attrs.has('httponly')).toBe(true);
      expect(attrs.get('samesite')?.toLowerCase()).toBe('lax');
      // Every cookie set over HTTPS is Secure, not only the session's.
      for (const line of res.headers.getSetCookie()) expect(attributes(line).has('secure')).toBe(true);
      // And the browser's next request, with that cookie, is signed in.
      expect((await readTraces(cookieHeader(res))).status).toBe(200);
    });
  });

  describe('throttle', () => {
    it(`per account: after ${MAX_FAILURES_PER_ACCOUNT} wrong passwords even the right one is 429 with Retry-After, from any address`, async () => {
      const person = await makeUser('viewer');
      const address = freshAddress();
      for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
        expect((await signInRequest(person.email, WRONG, { address })).status).toBe(401);
      }
      for (const from of [address, freshAddress()]) {
        const res = await signInRequest(person.email, person.password, { address: from });
        expect(res.status).toBe(429);
        expect(await res.text()).toBe(TOO_MANY);
        const wait = Number(res.headers.get('retry-after'));
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(SIGN_IN_WINDOW_SECONDS);
        expect(res.headers.getSetCookie()).toEqual([]);
      }
      // Another account from the same address is not held back.
      const other = await makeUser('viewer');
      expect((await signInRequest(other.email, other.password, { address })).status).toBe(200);
    });

    it('an email that does not exist gets the same answers as one that does', async () => {
      const person = await makeUser('viewer');
      const ghost = `ghost-${person.email}`;
      const answer = async (res: Response) => ({ status: res.status, body: await res.text(), retryAfter: res.headers.has('retry-after') });
      const known: unknown[] = [];
      const unknown: unknown[] = [];
      for (let i = 0; i <= MAX_FAILURES_PER_ACCOUNT; i++) {
        known.push(await answer(await signInRequest(person.email, WRONG, { address: freshAddress() })));
        unknown.push(await answer(await signInRequest(ghost, WRONG, { address: freshAddress() })));
      }
      expect(unknown).toEqual(known);
      expect(known[0]).toMatchObject({ status: 401 });
      expect(known[MAX_FAILURES_PER_ACCOUNT]).toEqual({ status: 429, body: TOO_MANY, retryAfter: true });
    });

    it(`per address: ${MAX_FAILURES_PER_ADDRESS} failures over many accounts hold that address back, not others`, async () => {
      const person = await makeUser('viewer');
      const address = freshAddress();
      for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
        // A different email each time: no account reaches its own limit.
        expect((await signInRequest(`spray-${i}@example.test`, WRONG, { address })).status).toBe(401);
      }
      const held = await signInRequest(person.email, person.password, { address });
      expect(held.status).toBe(429);
      expect(held.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await signInRequest(person.email, person.password, { address: freshAddress() })).status).toBe(200);
    });

    it("a successful sign-in clears the account's failures", async () => {
      const person = await makeUser('viewer');
      const address = freshAddress();
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT - 1; i++) {
          expect((await signInRequest(person.email, WRONG, { address })).status).toBe(401);
        }
        expect((await signInRequest(person.email, person.password, { address })).status).toBe(200);
      }
    });

    it('counts the account sign-in reads: a body that is both JSON and a form is held back like any other', async () => {
      const person = await makeUser('viewer');
      // As JSON it names a decoy; as a form (what its Content-Type says) it names the person.
      const both = (i: number, password: string) =>
        JSON.stringify({ email: `decoy-${i}@example.test`, x: `=&email=${person.email}&password=${password}&` });
      const statuses: number[] = [];
      for (let i = 0; i <= MAX_FAILURES_PER_ACCOUNT; i++) {
        const res = await authPost(
          new Request(`${ORIGIN}/api/auth/sign-in/email`, {
            method: 'POST',
            body: both(i, WRONG.replaceAll(' ', '-')),
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...peer(freshAddress()) },
          }),
          SIGN_IN_PARAMS,
        );
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array<number>(MAX_FAILURES_PER_ACCOUNT).fill(401), 429]);
      expect((await signInRequest(person.email, person.password, { address: freshAddress() })).status).toBe(429);
    });

    it("a client's own X-Forwarded-For does not choose its address: the socket's does", async () => {
      const person = await makeUser('viewer');
      const address = freshAddress();
      for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
        const forged = { 'x-forwarded-for': `192.0.2.${i + 1}`, 'x-real-ip': `192.0.2.${i + 1}` };
        expect((await signInRequest(`spray-${i}@example.test`, WRONG, { address, headers: forged })).status).toBe(401);
      }
      const held = await signInRequest(person.email, person.password, { address, headers: { 'x-forwarded-for': '192.0.2.250' } });
      expect(held.status).toBe(429);
    });

    it('counts an email however it is typed as one account', async () => {
      const person = await makeUser('viewer');
      const spellings = [person.email.toUpperCase(), person.email.replace(/^./, (c) => c.toUpperCase()), person.email];
      for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
        await signInRequest(spellings[i % spellings.length], WRONG, { address: freshAddress() });
      }
      expect((await signInRequest(person.email, person.password, { address: freshAddress() })).status).toBe(429);
    });
  });

  describe('the first admin from ADMIN_EMAIL and ADMIN_PASSWORD', () => {
    beforeEach(() => {
      process.env.ADMIN_EMAIL = 'boss@example.test';
      process.env.ADMIN_PASSWORD = 'first password 1';
    });

    it('is created at start, as an admin who can sign in', async () => {
      await getAuth();
      const users = await suite.db.prisma.user.findMany({ select: { email: true, role: true } });
      expect(users).toEqual([{ email: 'boss@example.test', role: 'admin' }]);
      const cookie = await signIn('boss@example.test', 'first password 1');
      expect((await listUsersRoute(new Request(`${ORIGIN}/api/users`, { headers: { cookie } }))).status).toBe(200);
    });

    it('is never overwritten: a password changed since survives the next start', async () => {
      const auth = await getAuth();
      const user = await suite.db.prisma.user.findUniqueOrThrow({ where: { email: 'boss@example.test' } });
      const ctx = await auth.$context;
      await suite.db.prisma.account.updateMany({
        where: { userId: user.id, providerId: 'credential' },
        data: { password: await ctx.password.hash('changed password 2') },
      });
      await suite.db.prisma.user.update({ where: { id: user.id }, data: { name: 'Renamed Boss' } });

      resetAuth(); // a new process start
      await getAuth();

      expect(await suite.db.prisma.user.count()).toBe(1);
      expect(await suite.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ name: 'Renamed Boss', role: 'admin' });
      expect((await signInRequest('boss@example.test', 'first password 1')).status).toBe(401);
      expect((await signInRequest('boss@example.test', 'changed password 2')).status).toBe(200);
    });

    it('two starts at once make one account', async () => {
      resetAuth();
      const first = getAuth();
      resetAuth();
      await Promise.all([first, getAuth()]);
      expect(await suite.db.prisma.user.count({ where: { email: 'boss@example.test' } })).toBe(1);
    });
  });

  describe('the session secret', () => {
    const stored = () => suite.db.prisma.appSetting.findMany({ where: { key: 'auth_secret' } });

    it('without AUTH_SECRET, is made once, kept in the database, and sessions survive a restart', async () => {
      const person = await makeUser('viewer');
      const [secret] = await stored();
      expect(secret.value.length).toBeGreaterThanOrEqual(32);
      const cookie = await signIn(person.email, person.password);

      resetAuth(); // a new process start (or another instance)
      await getAuth();

      expect(await stored()).toEqual([secret]);
      expect((await readTraces(cookie)).status).toBe(200);
    });

    it('signs the sessions: under another secret, the same cookie is no session', async () => {
      const person = await makeUser('viewer');
      const cookie = await signIn(person.email, person.password);
      process.env.AUTH_SECRET = 'a different secret, long enough to be accepted 0123456789';
      resetAuth();
      expect((await readTraces(cookie)).status).toBe(401);
    });

    it('from AUTH_SECRET when set: nothing is stored', async () => {
      process.env.AUTH_SECRET = 'the configured secret, long enough to be accepted 0123456789';
      const person = await makeUser('viewer');
      const cookie = await signIn(person.email, person.password);
      expect(await stored()).toEqual([]);
      resetAuth();
      expect((await readTraces(cookie)).status).toBe(200);
    });
  });
});
