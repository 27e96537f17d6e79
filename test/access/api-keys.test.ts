// API keys as an admin manages them through /api/api-keys and a machine uses them: shown
// once, stored as a hash, listed without the secret, last use recorded, revoked at once.
import { beforeEach, describe, expect, it } from 'vitest';
import { DELETE as deleteKeyRoute } from '@/app/api/api-keys/[id]/route';
import { GET as listKeysRoute, POST as createKeyRoute } from '@/app/api/api-keys/route';
import { POST as soapRoute } from '@/app/api/soap/route';
import { GET as listRoute } from '@/app/api/traces/route';
import { POST as createUserRoute } from '@/app/api/users/route';
import { keys, parseResult, phpEnvelope, str } from '@/test/support/soap';
import { testDatabases } from '@/test/support/databases';
import type { ApiKeyRecord } from '@/lib/features/access/api-keys';
import { bearer, expectError, makeUser, ORIGIN, signIn, signInRequest, accessSuite } from '@/test/support/access';

describe.each(testDatabases())('API keys on $name', ({ open }) => {
  const suite = accessSuite(open);
  let admin: { cookie: string };
  beforeEach(async () => {
    const person = await makeUser('admin');
    admin = { cookie: await signIn(person.email, person.password) };
  });

  const json = (method: string, url: string, body: unknown) =>
    new Request(`${ORIGIN}${url}`, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json', cookie: admin.cookie, origin: ORIGIN } });
  const create = async (scopes: string[], name = 'ci reader') => {
    const res = await createKeyRoute(json('POST', '/api/api-keys', { name, scopes }));
    expect(res.status).toBe(201);
    return (await res.json()) as ApiKeyRecord & { key: string };
  };
  const list = async () => ((await (await listKeysRoute(new Request(`${ORIGIN}/api/api-keys`, { headers: { cookie: admin.cookie } }))).json()) as { apiKeys: ApiKeyRecord[] }).apiKeys;
  const revoke = (id: string) =>
    deleteKeyRoute(new Request(`${ORIGIN}/api/api-keys/${id}`, { method: 'DELETE', headers: { cookie: admin.cookie, origin: ORIGIN } }), { params: Promise.resolve({ id }) });
  const read = (key: string) => listRoute(new Request(`${ORIGIN}/api/traces`, { headers: bearer(key) }));

  it('a new key is shown once, then listed by name, first characters and scopes, never in full', async () => {
    const made = await create(['read', 'ingest'], 'nightly export');
    expect(made.key).toMatch(/^cr_/);
    expect(made.scopes.sort()).toEqual(['ingest', 'read']);
    const [listed] = await list();
    expect(Object.keys(listed).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'scopes', 'start']);
    expect(listed).toMatchObject({ id: made.id, name: 'nightly export', start: made.key.slice(0, 10), lastUsedAt: null });
    expect(JSON.stringify(await list())).not.toContain(made.key);
    // Stored as a hash: the database never holds the key itself.
    const row = await suite.db.prisma.apikey.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.key).not.toBe(made.key);
    expect(JSON.stringify(row)).not.toContain(made.key);
  });

  it('refuses a key without a name or with unknown scopes', async () => {
    await expectError(await createKeyRoute(json('POST', '/api/api-keys', { name: '', scopes: ['read'] })), 400, 'name is required (at most 100 characters)');
    await expectError(
      await createKeyRoute(json('POST', '/api/api-keys', { name: 'x', scopes: ['admin'] })),
      400,
      'scopes must be a non-empty list of: ingest, read, delete',
    );
    expect(await list()).toEqual([]);
  });

  it('takes names up to 100 characters (as JavaScript counts them) and refuses longer ones with a 400 naming the limit', async () => {
    for (const name of ['k'.repeat(32), 'k'.repeat(33), 'k'.repeat(64), 'k'.repeat(100), '🔑'.repeat(50), `  ${'k'.repeat(100)}  `]) {
      const made = await create(['read'], name);
      expect(made.name).toBe(name.trim());
    }
    expect((await list()).map((k) => k.name.length).sort((x, y) => x - y)).toEqual([32, 33, 64, 100, 100, 100]);
    for (const name of ['k'.repeat(101), '🔑'.repeat(51), 'k'.repeat(10_000)]) {
      await expectError(await createKeyRoute(json('POST', '/api/api-keys', { name, scopes: ['read'] })), 400, 'name is required (at most 100 characters)');
    }
    expect(await list()).toHaveLength(6);
  });

  it('revoking takes effect at once: the next request with the key is 401', async () => {
    const made = await create(['read']);
    expect((await read(made.key)).status).toBe(200);
    const res = await revoke(made.id);
    expect(res.status).toBe(200);
    await expectError(await read(made.key), 401, 'Invalid API key');
    // SOAP too.
    const envelope = phpEnvelope('read', { password: made.key }, [str('publicName', 'TRACE'), keys('objectKeys', [['id', 'x']])]);
    const soap = await soapRoute(new Request(`${ORIGIN}/api/soap`, { method: 'POST', body: envelope, headers: { 'content-type': 'text/xml' } }));
    expect(parseResult(await soap.text())).toMatchObject({ status: 0, messages: [{ type: '3', message: 'Authentication failed' }] });
    expect(await list()).toEqual([]);
    await expectError(await revoke(made.id), 404, 'API key not found');
  });

  it('records the last use', async () => {
    const made = await create(['read']);
    const [before] = await list();
    expect(before.lastUsedAt).toBeNull();
    const start = Date.now();
    expect((await read(made.key)).status).toBe(200);
    const [after] = await list();
    expect(after.lastUsedAt).not.toBeNull();
    expect(Date.parse(after.lastUsedAt!)).toBeGreaterThanOrEqual(start - 1_000);
    expect(Date.parse(after.lastUsedAt!)).toBeLessThanOrEqual(Date.now() + 1_000);
  });

  it('is not rate-limited by the library: a key keeps working past its default of 10 requests a day', async () => {
    const made = await create(['read']);
    for (let i = 0; i < 15; i++) expect((await read(made.key)).status, `request ${i + 1}`).toBe(200);
  });

  it('an admin adds a person who can then sign in with the role given', async () => {
    const res = await createUserRoute(json('POST', '/api/users', { email: 'New.Person@Example.test', password: 'a long password', role: 'viewer' }));
    expect(res.status).toBe(201);
    const row = await suite.db.prisma.user.findFirstOrThrow({ where: { email: 'new.person@example.test' } });
    expect(row.role).toBe('viewer');
    expect((await signInRequest('new.person@example.test', 'a long password')).status).toBe(200);
    await expectError(
      await createUserRoute(json('POST', '/api/users', { email: 'new.person@example.test', password: 'another password', role: 'viewer' })),
      409,
      'A user with this email already exists',
    );
  });
});
