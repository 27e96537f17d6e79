// DELETE /api/traces/{id} and DELETE /api/traces?sessionId= through the real handlers:
// answers, errors in the API's shape, who may (open mode included; the full credential
// matrix is in test/access/matrix.test.ts) and the log line naming who did it.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { DELETE as deleteTrace, GET as getTrace } from '@/app/api/traces/[id]/route';
import { DELETE as deleteSession, GET as listTraces, POST as ingest } from '@/app/api/traces/route';
import { bearer, expectError, makeKey, makeUser, ORIGIN, resetAccess, signIn, truncateAccess } from '@/test/support/access';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';

type Headers = Record<string, string>;
// As the viewer sends it: from its own page (a cookie's change from elsewhere is refused).
const del = (url: string, headers: Headers) => new Request(`${ORIGIN}${url}`, { method: 'DELETE', headers: { origin: ORIGIN, ...headers } });
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const store = async (traces: Record<string, unknown>[], key = 'env-key-1') => {
  const res = await ingest(
    new Request(`${ORIGIN}/api/traces`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(key) }, body: JSON.stringify({ traces }) }),
  );
  expect(res.status).toBe(200);
};

describe.each(testDatabases())('DELETE /api/traces on $name', ({ open }) => {
  let db: Database;
  let info: MockInstance<typeof console.info>;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    useDatabase(db);
    resetAccess();
    await truncateAccess(db);
  });
  afterEach(() => {
    process.env = { ...savedEnv };
    resetAccess();
    vi.restoreAllMocks();
  });

  describe('protected', () => {
    let cookie: string;
    let adminEmail: string;
    beforeEach(async () => {
      process.env.API_KEYS = 'env-key-1';
      const admin = await makeUser('admin');
      adminEmail = admin.email;
      cookie = await signIn(admin.email, admin.password);
    });

    it('deletes one trace: 200 with the count, then it is gone from the detail and the list', async () => {
      const [gone, kept] = [makeTrace(), makeTrace()];
      await store([gone, kept]);
      const res = await deleteTrace(del(`/api/traces/${encodeURIComponent(gone.id as string)}`, { cookie }), params(gone.id as string));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ success: true, count: 1 });
      await expectError(await getTrace(new Request(`${ORIGIN}/api/traces/x`, { headers: { cookie } }), params(gone.id as string)), 404, 'Trace not found');
      const list = (await (await listTraces(new Request(`${ORIGIN}/api/traces`, { headers: { cookie } }))).json()) as { traces: { id: string }[]; total: number };
      expect(list.traces.map((t) => t.id)).toEqual([kept.id]);
      expect(list.total).toBe(1);
      expect(info).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`deleted 1 trace \\(trace "${gone.id}"\\) by user ${adminEmail.replace(/\./g, '\\.')} in`)));
    });

    it('an unknown id is 404 and an impossible one 400, in the API error shape', async () => {
      await expectError(await deleteTrace(del('/api/traces/nope', { cookie }), params('nope')), 404, 'Trace not found');
      await expectError(await deleteTrace(del('/api/traces/x', { cookie }), params('a\u0001b')), 400, 'Invalid trace ID');
    });

    it("deletes a session's traces and only those; a session without traces is count 0", async () => {
      const session = uid('gdpr');
      await store([makeTrace({ sessionId: session }), makeTrace({ sessionId: session }), makeTrace({ sessionId: 'someone-else' })]);
      const res = await deleteSession(del(`/api/traces?sessionId=${encodeURIComponent(session)}`, { cookie }));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, count: 2 });
      const again = await deleteSession(del(`/api/traces?sessionId=${encodeURIComponent(session)}`, { cookie }));
      expect(await again.json()).toEqual({ success: true, count: 0 });
      expect(await db.prisma.trace.count()).toBe(1);
    });

    it('without sessionId (or with another filter) is 400 naming the parameter, and deletes nothing', async () => {
      await store([makeTrace({ sessionId: 's' })]);
      await expectError(
        await deleteSession(del('/api/traces', { cookie })),
        400,
        'Missing sessionId parameter: DELETE /api/traces deletes the traces of one session (?sessionId=...)',
      );
      await expectError(await deleteSession(del('/api/traces?sessionId=s&status=ERROR', { cookie })), 400, 'Unsupported parameter status: DELETE /api/traces takes only sessionId');
      expect(await db.prisma.trace.count()).toBe(1);
    });

    it('a key with the delete scope may, and the log names the key, never the key itself', async () => {
      const admin = await db.prisma.user.findFirstOrThrow({ where: { role: 'admin' } });
      const key = await makeKey(['delete'], admin.id);
      const trace = makeTrace();
      await store([trace]);
      const res = await deleteTrace(del('/api/traces/x', bearer(key.key)), params(trace.id as string));
      expect(res.status).toBe(200);
      const line = String(info.mock.calls.at(-1)?.[0]);
      expect(line).toContain(`by key "test delete" (${key.id})`);
      expect(line).not.toContain(key.key);
    });
  });

  describe('open mode (nothing configured): a write like ingest', () => {
    it('needs a non-empty Bearer key, any key; anonymous is 401', async () => {
      const trace = makeTrace();
      await store([trace], 'anything');
      await expectError(await deleteTrace(del('/api/traces/x', {}), params(trace.id as string)), 401, 'Missing or invalid Authorization header');
      await expectError(await deleteSession(del('/api/traces?sessionId=sess-1', {})), 401, 'Missing or invalid Authorization header');
      const res = await deleteTrace(del('/api/traces/x', bearer('any-key')), params(trace.id as string));
      expect(await res.json()).toEqual({ success: true, count: 1 });
      expect(info).toHaveBeenCalledWith(expect.stringContaining('by open mode (any key)'));
    });
  });
});
