// The sessions API through its real route handlers: answers, errors, and credentials.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { GET as getOne } from './[id]/route';
import { GET as getList } from './route';

const list = (query = '', headers: Record<string, string> = {}) => getList(new Request(`http://test/api/sessions${query}`, { headers }), undefined);
const one = (id: string) => getOne(new Request(`http://test/api/sessions/${encodeURIComponent(id)}`), { params: Promise.resolve({ id }) });

describe.each(testDatabases())('sessions API on $name', ({ open }) => {
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
    delete process.env.API_KEYS;
    await truncateAll(db);
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });

  it('lists sessions and reads one', async () => {
    const id = uid('s');
    await ingestTraces(testContext(db), validateIngestBody({ traces: [makeTrace({ sessionId: id }), makeTrace({ sessionId: id, status: 'ERROR' })] }, { maxBatchTraces: 10, maxChildrenPerTrace: 10 }));
    const res = await list('?page=1&limit=10');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toMatchObject({ total: 1, page: 1, limit: 10, totalPages: 1 });
    expect(body.sessions[0]).toMatchObject({ id, traces: 2, errorTraces: 1, totalCost: 0.0246, totalTokens: 3000 });
    const detail = await one(id);
    expect(detail.status).toBe(200);
    const session = await detail.json();
    expect(Object.keys(session)).toEqual(['session', 'traces']);
    expect(body.sessions[0]).toMatchObject(session.session);
    expect(session.traces).toHaveLength(2);
    expect(session.traces[0]).toMatchObject({ input: { prompt: 'hi' }, output: 'hello' });
  });

  it('answers 400 with the trace list’s messages, and 404 for an unknown session', async () => {
    for (const [query, message] of [
      ['?page=0', 'Invalid page parameter'],
      ['?limit=101', 'Invalid limit parameter'],
      ['?limit=1.5', 'Invalid limit parameter'],
      ['?to=soon', 'Invalid to parameter: must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z)'],
      ['?range=1y', 'Invalid range parameter: must be one of 15m, 1h, 24h, 7d, 30d'],
      ['?status=DONE', 'Invalid status parameter: must be one of RUNNING, COMPLETED, ERROR'],
    ]) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toEqual({ error: message });
    }
    const missing = await one('no-such-session');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Session not found' });
  });

  it('needs credentials when keys are configured', async () => {
    process.env.API_KEYS = 'k1';
    const res = await list();
    expect(res.status).toBe(401);
    expect((await list('', { authorization: 'Bearer k1' })).status).toBe(200);
    expect((await list('', { authorization: `Basic ${Buffer.from('x:k1').toString('base64')}` })).status).toBe(200);
  });
});
