import { afterEach, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import { testDatabases } from '@/test/support/databases';
import { GET } from './route';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  (globalThis as { crossroadsDb?: unknown }).crossroadsDb = undefined;
});

describe.each(testDatabases())('GET /api/health on $name', ({ open }) => {
  it('200 with a real database round-trip, version and auth mode', async () => {
    const db = await open();
    useDatabase(db);
    delete process.env.API_KEYS;
    const res = await GET(new Request('http://test/api/health'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok', version: expect.any(String), auth: 'open', mode: 'open' });
    process.env.API_KEYS = 'k1';
    expect((await (await GET(new Request('http://test/api/health'))).json()).auth).toBe('keys');
    await db.close();
  });

  it('503 when the database is down', async () => {
    const db = await open();
    await db.close();
    useDatabase(db);
    const res = await GET(new Request('http://test/api/health'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'error', database: 'unreachable' });
  });
});

describe('GET /api/health with an unreachable PostgreSQL', () => {
  it('503 when the database cannot be opened at all', async () => {
    (globalThis as { crossroadsDb?: unknown }).crossroadsDb = undefined;
    process.env.DATABASE_URL = 'postgresql://nobody@127.0.0.1:1/none';
    const res = await GET(new Request('http://test/api/health'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'error', database: 'unreachable' });
  });
});
