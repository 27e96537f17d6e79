// Open mode: only while nothing is configured and no user or key is stored. Reads need
// nothing, writes any non-empty Bearer key (the seed contract), the admin routes stay
// closed; and the moment a credential exists anywhere, the server is protected.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GET as listKeysRoute } from '@/app/api/api-keys/route';
import { GET as healthRoute } from '@/app/api/health/route';
import { PATCH as updateConfigRoute, DELETE as deleteConfigRoute } from '@/app/api/score-configs/[id]/route';
import { GET as listConfigsRoute, POST as createConfigRoute } from '@/app/api/score-configs/route';
import { POST as otlpRoute } from '@/app/api/otel/v1/traces/route';
import { GET as detailRoute } from '@/app/api/traces/[id]/route';
import { GET as listRoute, POST as ingestRoute } from '@/app/api/traces/route';
import { GET as listUsersRoute, POST as createUserRoute } from '@/app/api/users/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { resetAccessMode } from '@/lib/features/access/mode';
import { bearer, expectError, makeKey, makeUser, ORIGIN, resetAccess, truncateAccess } from '@/test/support/access';

const MISSING = 'Missing or invalid Authorization header';
const INVALID = 'Invalid API key';

type HeaderMap = Record<string, string>;
const get = (url: string, headers: HeaderMap) => new Request(`${ORIGIN}${url}`, { headers });
const send = (method: string, url: string, headers: HeaderMap, body: unknown) =>
  new Request(`${ORIGIN}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const params = (id: string) => ({ params: Promise.resolve({ id }) });

describe.each(testDatabases())('open mode, and how it ends, on $name', ({ open }) => {
  let db: Database;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    useDatabase(db);
    resetAccess();
    await truncateAccess(db);
  });
  afterEach(() => {
    vi.useRealTimers();
    process.env = { ...savedEnv };
    resetAccess();
  });

  const anonymousRead = () => listRoute(get('/api/traces', {}));
  const ingestWith = (h: HeaderMap) => ingestRoute(send('POST', '/api/traces', h, { traces: [makeTrace()] }));

  it('with nothing configured, reads need nothing and writes any non-empty Bearer key', async () => {
    const health = (await (await healthRoute(get('/api/health', {}))).json()) as { mode: string };
    expect(health.mode).toBe('open');
    const stored = uid('open');
    expect((await ingestWith(bearer('anything at all'))).status).toBe(200);
    expect((await ingestRoute(send('POST', '/api/traces', bearer('x'), { traces: [makeTrace({ id: stored })] }))).status).toBe(200);
    expect((await anonymousRead()).status).toBe(200);
    expect((await detailRoute(get(`/api/traces/${stored}`, {}), params(stored))).status).toBe(200);
    await expectError(await ingestWith({}), 401, MISSING);
    await expectError(await ingestWith({ authorization: 'Bearer ' }), 401, 'Missing API key');
    const otlp = await otlpRoute(send('POST', '/api/otel/v1/traces', {}, { resourceSpans: [] }));
    expect(otlp.status).toBe(401);
    expect((await otlpRoute(send('POST', '/api/otel/v1/traces', bearer('anything'), { resourceSpans: [] }))).status).toBe(200);
  });

  it('the admin routes stay closed: no key, not even "any key" of open mode, makes anyone an admin', async () => {
    await expectError(await listUsersRoute(get('/api/users', {})), 401, MISSING);
    const takeOver = await createUserRoute(
      send('POST', '/api/users', bearer('anything'), { email: 'intruder@example.test', password: 'a long password', role: 'admin' }),
    );
    expect(takeOver.status).toBe(401);
    expect(await db.prisma.user.count()).toBe(0);
    await expectError(await listUsersRoute(get('/api/users', bearer('anything'))), 401, INVALID);
    await expectError(await listKeysRoute(get('/api/api-keys', bearer('anything'))), 401, INVALID);
  });

  it("the laptop's user configures scores (no key needed, and the server stays open), but still makes no admin", async () => {
    const name = uid('open-config').slice(0, 60);
    const created = await createConfigRoute(send('POST', '/api/score-configs', {}, { name, dataType: 'BOOLEAN' }));
    expect(created.status).toBe(201);
    const config = (await created.json()) as { id: string };
    const updated = await updateConfigRoute(send('PATCH', `/api/score-configs/${config.id}`, {}, { description: 'set up on a laptop' }), params(config.id));
    expect(updated.status).toBe(200);
    const listed = (await (await listConfigsRoute(get('/api/score-configs', {}))).json()) as { configs: Array<{ name: string; description: string }> };
    expect(listed.configs.find((c) => c.name === name)?.description).toBe('set up on a laptop');
    expect((await deleteConfigRoute(new Request(`${ORIGIN}/api/score-configs/${config.id}`, { method: 'DELETE' }), params(config.id))).status).toBe(200);
    resetAccessMode();
    expect((await anonymousRead()).status).toBe(200);
    await expectError(await listUsersRoute(get('/api/users', {})), 401, MISSING);
  });

  it('a person in the database (no variable set) protects the server', async () => {
    expect((await anonymousRead()).status).toBe(200);
    await makeUser('viewer');
    resetAccessMode(); // as a new process would see it
    await expectError(await anonymousRead(), 401, MISSING);
    await expectError(await ingestWith(bearer('anything')), 401, INVALID);
    const health = (await (await healthRoute(get('/api/health', {}))).json()) as { mode: string; auth: string };
    expect(health).toMatchObject({ mode: 'protected', auth: 'keys' });
  });

  it('an API key in the database alone protects the server too', async () => {
    const { key } = await makeKey(['read'], 'creator-since-removed');
    resetAccessMode();
    await expectError(await anonymousRead(), 401, MISSING);
    expect((await listRoute(get('/api/traces', bearer(key)))).status).toBe(200);
  });

  it('a person added by another instance protects this one within seconds, without a restart', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await anonymousRead()).status).toBe(200);
    await db.sql.query(`INSERT INTO "User" ("id", "name", "email", "role") VALUES ('other-instance', 'o', 'o@example.test', 'admin')`);
    vi.setSystemTime(Date.now() + 2_500);
    await expectError(await anonymousRead(), 401, MISSING);
  });

  it('ADMIN_EMAIL alone protects the server, before anyone signs in', async () => {
    process.env.ADMIN_EMAIL = 'boss@example.test';
    process.env.ADMIN_PASSWORD = 'boss password 1';
    await expectError(await anonymousRead(), 401, MISSING);
  });
});
