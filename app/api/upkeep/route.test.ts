// GET /api/upkeep: a platform's cron (Bearer CRON_SECRET) or an admin runs every upkeep
// task once; anyone else is refused before anything runs.
import { describe, expect, it } from 'vitest';
import { testDatabases } from '@/test/support/databases';
import { accessSuite, bearer, expectError, makeKey, makeUser, signIn } from '@/test/support/access';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { makeTrace } from '@/test/support/fixtures';
import { GET, POST } from './route';

const MISSING = 'Missing or invalid Authorization header';
const request = (headers: Record<string, string> = {}) => new Request('http://test/api/upkeep', { headers });

describe.each(testDatabases())('GET /api/upkeep on $name', ({ open }) => {
  const suite = accessSuite(open);

  it('runs every task for the cron secret, and indexes what ingest queued', async () => {
    process.env.CRON_SECRET = 'cron-secret-of-32-characters-xxxx';
    process.env.API_KEYS = 'k1';
    const body = validateIngestBody({ traces: [makeTrace({ id: 't1' })] }, { maxBatchTraces: 10, maxChildrenPerTrace: 100 });
    await ingestTraces(testContext(suite.db), body);
    await suite.db.sql.exec(`INSERT INTO "SearchQueue" ("traceId") VALUES ('t1') ON CONFLICT DO NOTHING`);
    for (const handler of [GET, POST]) {
      const res = await handler(request(bearer('cron-secret-of-32-characters-xxxx')));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ retention: { deletedTraces: 0 }, searchIndex: { drained: expect.any(Boolean) } });
    }
    // A run may end its turn before the queue is empty (another session held the indexer's
    // lock, or its budget ran out on a loaded machine): the cron is called again until it is.
    const queued = async () => (await suite.db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM "SearchQueue"'))[0].n;
    for (let call = 0; call < 20 && (await queued()) > 0; call++) {
      expect((await GET(request(bearer('cron-secret-of-32-characters-xxxx')))).status).toBe(200);
    }
    expect(await queued()).toBe(0);
  });

  it('refuses a wrong secret, a key and a viewer; an admin may run it', async () => {
    process.env.CRON_SECRET = 'cron-secret-of-32-characters-xxxx';
    const admin = await makeUser('admin');
    const viewer = await makeUser('viewer');
    await expectError(await GET(request()), 401, MISSING);
    await expectError(await GET(request(bearer('cron-secret-of-32-characters-xxxy'))), 401, 'Invalid API key');
    const { key } = await makeKey(['ingest', 'read', 'delete'], admin.id);
    expect((await GET(request(bearer(key)))).status).toBe(403);
    expect((await GET(request({ cookie: await signIn(viewer.email, viewer.password) }))).status).toBe(403);
    const res = await GET(request({ cookie: await signIn(admin.email, admin.password) }));
    expect(res.status).toBe(200);
  });

  it('without CRON_SECRET no bearer token is the cron', async () => {
    delete process.env.CRON_SECRET;
    process.env.API_KEYS = 'k1';
    await expectError(await GET(request(bearer(''))), 401, 'Missing API key');
    expect((await GET(request(bearer('k1')))).status).toBe(403);
  });
});
