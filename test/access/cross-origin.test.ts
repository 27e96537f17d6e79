// Writes made with a session cookie come from the app's own pages: the browser sends the
// cookie along with any page's request, so a page elsewhere must not be able to change
// anything (a `no-cors` fetch, a form). Keys are unaffected: a page cannot send one.
// Better Auth's own endpoints follow the same rule, and their callback URLs too.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DELETE as deleteKeyRoute } from '@/app/api/api-keys/[id]/route';
import { GET as listKeysRoute, POST as createKeyRoute } from '@/app/api/api-keys/route';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { POST as saveScoresRoute } from '@/app/api/scores/route';
import { POST as ingestRoute } from '@/app/api/traces/route';
import { GET as listUsersRoute, POST as createUserRoute } from '@/app/api/users/route';
import { validateConfig } from '@/lib/core/config';
import { bearer, cookieHeader, expectError, makeUser, ORIGIN, sessionSetCookie, signIn, accessSuite } from '@/test/support/access';
import { testDatabases } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';

const CROSS_ORIGIN = "Cross-origin request refused: a change made with a session cookie must come from this server's own pages (or an origin in TRUSTED_ORIGINS)";
const NOT_JSON = 'Content-Type must be application/json';
const ENV_KEY = 'env-key-1';

type HeaderMap = Record<string, string>;

/** A write as a browser sends it: the body's length declared, the headers given. */
function write(method: string, url: string, headers: HeaderMap, body?: string, base = ORIGIN): Request {
  const length: HeaderMap = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
  return new Request(`${base}${url}`, { method, headers: { ...length, ...headers }, body });
}

const json = { 'content-type': 'application/json' };
const newKey = JSON.stringify({ name: 'made cross-site', scopes: ['read', 'ingest'] });
const newUser = (email: string) => JSON.stringify({ email, name: 'Mallory', password: 'mallory-password-1', role: 'admin' });

describe('TRUSTED_ORIGINS', () => {
  const saved = process.env.TRUSTED_ORIGINS;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUSTED_ORIGINS;
    else process.env.TRUSTED_ORIGINS = saved;
  });

  it.each(['crossroads.example.com', 'https://crossroads.example.com/app', 'ftp://crossroads.example.com', 'https://', 'null'])(
    'stops the server at start when an entry is not an origin: %s',
    (entry) => {
      process.env.TRUSTED_ORIGINS = `https://ok.example.com, ${entry}`;
      expect(() => validateConfig()).toThrow(/^TRUSTED_ORIGINS/);
    },
  );

  it('takes origins, comma-separated, with or without a trailing slash', () => {
    process.env.TRUSTED_ORIGINS = ' https://a.example.com ,http://b.example.com:8080/, ';
    expect(() => validateConfig()).not.toThrow();
  });
});

describe.each(testDatabases())('cookie-authenticated writes on $name', ({ open }) => {
  accessSuite(open, ['info', 'error']);
  let cookie: string;
  beforeEach(async () => {
    process.env.API_KEYS = ENV_KEY;
    const admin = await makeUser('admin');
    cookie = await signIn(admin.email, admin.password);
  });

  const keyCount = async () =>
    ((await (await listKeysRoute(new Request(`${ORIGIN}/api/api-keys`, { headers: { cookie } }))).json()) as { apiKeys: unknown[] }).apiKeys.length;
  const userEmails = async () =>
    ((await (await listUsersRoute(new Request(`${ORIGIN}/api/users`, { headers: { cookie } }))).json()) as { users: { email: string }[] }).users.map(
      (u) => u.email,
    );

  it("refuses a sibling page's no-cors fetch: text/plain, its own Origin; nothing is made", async () => {
    const noCors = { cookie, origin: 'https://sibling.crossroads.test', 'content-type': 'text/plain;charset=UTF-8' };
    await expectError(await createKeyRoute(write('POST', '/api/api-keys', noCors, newKey)), 403, CROSS_ORIGIN);
    await expectError(await createUserRoute(write('POST', '/api/users', noCors, newUser('mallory@example.test'))), 403, CROSS_ORIGIN);
    expect(await keyCount()).toBe(0);
    expect(await userEmails()).not.toContain('mallory@example.test');
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['the same host on another port', { origin: 'http://crossroads.test:4000' }],
    ['an opaque origin (a sandboxed frame, a redirect)', { origin: 'null' }],
    ['neither Origin nor Sec-Fetch-Site', {}],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses a JSON write from %s', async (_name, from: HeaderMap) => {
    await expectError(await createKeyRoute(write('POST', '/api/api-keys', { cookie, ...json, ...from }, newKey)), 403, CROSS_ORIGIN);
    expect(await keyCount()).toBe(0);
  });

  it.each([
    ['its own Origin', { origin: ORIGIN }],
    ['Sec-Fetch-Site: same-origin without an Origin', { 'sec-fetch-site': 'same-origin' }],
  ])('accepts a JSON write with %s', async (_name, from: HeaderMap) => {
    const res = await createKeyRoute(write('POST', '/api/api-keys', { cookie, ...json, ...from }, newKey));
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await keyCount()).toBe(1);
  });

  it("tells its own origin by the Host the browser used (behind a proxy, by X-Forwarded-Host), not by the server's own address", async () => {
    const inside = 'http://127.0.0.1:3000';
    const viaHost = { cookie, ...json, host: 'crossroads.example.com', origin: 'https://crossroads.example.com' };
    expect((await createKeyRoute(write('POST', '/api/api-keys', viaHost, newKey, inside))).status).toBe(201);
    const viaProxy = { cookie, ...json, host: '10.0.0.5:3000', 'x-forwarded-host': 'traces.example.com', origin: 'https://traces.example.com' };
    expect((await createKeyRoute(write('POST', '/api/api-keys', viaProxy, newKey, inside))).status).toBe(201);
    const elsewhere = { cookie, ...json, host: 'crossroads.example.com', origin: 'https://evil.example' };
    await expectError(await createKeyRoute(write('POST', '/api/api-keys', elsewhere, newKey, inside)), 403, CROSS_ORIGIN);
    expect(await keyCount()).toBe(2);
  });

  it('accepts an origin listed in TRUSTED_ORIGINS, and only those', async () => {
    process.env.TRUSTED_ORIGINS = 'https://console.example.com, http://localhost:5173';
    for (const origin of ['https://console.example.com', 'http://localhost:5173']) {
      expect((await createKeyRoute(write('POST', '/api/api-keys', { cookie, ...json, origin }, newKey))).status).toBe(201);
    }
    await expectError(await createKeyRoute(write('POST', '/api/api-keys', { cookie, ...json, origin: 'http://console.example.com' }, newKey)), 403, CROSS_ORIGIN);
    expect(await keyCount()).toBe(2);
  });

  it('refuses a body not declared as JSON from its own origin too (415): text/plain, a form, none', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
      const headers: HeaderMap = { cookie, origin: ORIGIN, ...(type ? { 'content-type': type } : {}) };
      await expectError(await createKeyRoute(write('POST', '/api/api-keys', headers, newKey)), 415, NOT_JSON);
    }
    expect(await keyCount()).toBe(0);
    const charset = await createKeyRoute(write('POST', '/api/api-keys', { cookie, origin: ORIGIN, 'content-type': 'application/json; charset=utf-8' }, newKey));
    expect(charset.status).toBe(201);
  });

  it('a write without a body needs no Content-Type, only its origin (revoking a key)', async () => {
    const made = (await (await createKeyRoute(write('POST', '/api/api-keys', { cookie, ...json, origin: ORIGIN }, newKey))).json()) as { id: string };
    const params = { params: Promise.resolve({ id: made.id }) };
    await expectError(await deleteKeyRoute(write('DELETE', `/api/api-keys/${made.id}`, { cookie, origin: 'https://evil.example' }), params), 403, CROSS_ORIGIN);
    expect(await keyCount()).toBe(1);
    expect((await deleteKeyRoute(write('DELETE', `/api/api-keys/${made.id}`, { cookie, origin: ORIGIN }), params)).status).toBe(200);
    expect(await keyCount()).toBe(0);
  });

  it('reads with a cookie are unaffected, from anywhere', async () => {
    const res = await listKeysRoute(new Request(`${ORIGIN}/api/api-keys`, { headers: { cookie, origin: 'https://evil.example' } }));
    expect(res.status).toBe(200);
  });

  it('key-authenticated writes are unaffected: any Origin, any Content-Type', async () => {
    const trace = makeTrace();
    const anywhere = { ...bearer(ENV_KEY), origin: 'https://evil.example', 'content-type': 'text/plain' };
    expect((await ingestRoute(write('POST', '/api/traces', anywhere, JSON.stringify({ traces: [trace] })))).status).toBe(200);
    const score = JSON.stringify({ scores: [{ traceId: trace.id, name: 'ok', value: 1 }] });
    expect((await saveScoresRoute(write('POST', '/api/scores', { ...bearer(ENV_KEY), 'sec-fetch-site': 'cross-site' }, score))).status).toBe(200);
  });
});

describe.each(testDatabases())("Better Auth's endpoints on $name", ({ open }) => {
  accessSuite(open, ['info', 'error']);
  let email: string;
  let password: string;
  beforeEach(async () => {
    ({ email, password } = await makeUser('viewer'));
  });

  const auth = (path: string, headers: HeaderMap, body: unknown) =>
    authPost(write('POST', `/api/auth${path}`, { ...json, ...headers }, JSON.stringify(body)), { params: Promise.resolve({ all: path.split('/').slice(1) }) });

  it.each(['https://evil.example/', '//evil.example/', '/\\evil.example', 'http://crossroads.test:4000/traces'])(
    'sign-in refuses callbackURL %s, and signs nobody in',
    async (callbackURL) => {
      const res = await auth('/sign-in/email', { origin: ORIGIN }, { email, password, callbackURL });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
    },
  );

  it('sign-in takes a callbackURL on this server, as a path or a URL, or on a TRUSTED_ORIGINS origin', async () => {
    process.env.TRUSTED_ORIGINS = 'https://console.example.com';
    for (const callbackURL of ['/traces?tab=events', `${ORIGIN}/traces`, 'https://console.example.com/after']) {
      const res = await auth('/sign-in/email', { origin: ORIGIN }, { email, password, callbackURL });
      expect(res.status, callbackURL).toBe(200);
      sessionSetCookie(res);
    }
  });

  it('sign-in from another origin is refused (a page elsewhere signing a visitor in to its own account)', async () => {
    const res = await auth('/sign-in/email', { origin: 'https://evil.example' }, { email, password });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('sign-out with the cookie from another origin is refused; from its own, it signs out', async () => {
    const signedIn = await auth('/sign-in/email', { origin: ORIGIN }, { email, password });
    expect(signedIn.status).toBe(200);
    const cookie = cookieHeader(signedIn);
    expect((await auth('/sign-out', { cookie, origin: 'https://evil.example' }, {})).status).toBe(403);
    expect((await auth('/sign-out', { cookie }, {})).status).toBe(403);
    expect((await auth('/sign-out', { cookie, origin: ORIGIN }, {})).status).toBe(200);
  });
});
