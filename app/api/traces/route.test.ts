// The JSON trace API through its real route handlers, on every test database.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bodiesInFlight } from '@/lib/core/admission';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { GET as getDetail } from './[id]/route';
import { GET as getList, POST } from './route';

const AUTH = { authorization: 'Bearer test-key' };

function post(body: unknown, headers: Record<string, string> = AUTH): Promise<Response> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return POST(new Request('http://test/api/traces', { method: 'POST', body: text, headers }), undefined);
}

function list(query = ''): Promise<Response> {
  return getList(new Request(`http://test/api/traces${query}`), undefined);
}

function detail(id: string): Promise<Response> {
  return getDetail(new Request(`http://test/api/traces/${encodeURIComponent(id)}`), {
    params: Promise.resolve({ id }),
  });
}

async function expectError(res: Response, status: number, message: string | RegExp) {
  const body = await res.json();
  expect(res.status).toBe(status);
  expect(Object.keys(body)).toEqual(['error']);
  if (typeof message === 'string') expect(body.error).toBe(message);
  else expect(body.error).toMatch(message);
}

describe.each(testDatabases())('trace API on $name', ({ open }) => {
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

  const countRows = async () => ({
    traces: await db.prisma.trace.count(),
    decisionPoints: await db.prisma.decisionPoint.count(),
    spans: await db.prisma.span.count(),
    events: await db.prisma.event.count(),
  });

  describe('POST /api/traces: authentication', () => {
    it('401 without an Authorization header', async () => {
      await expectError(await post({ traces: [makeTrace()] }, {}), 401, 'Missing or invalid Authorization header');
    });
    it('401 for a scheme other than Bearer', async () => {
      await expectError(
        await post({ traces: [makeTrace()] }, { authorization: 'Basic dXNlcjprZXk=' }),
        401,
        'Missing or invalid Authorization header',
      );
    });
    it('401 Missing API key for an empty Bearer key', async () => {
      await expectError(await post({ traces: [makeTrace()] }, { authorization: 'Bearer ' }), 401, 'Missing API key');
      await expectError(await post({ traces: [makeTrace()] }, { authorization: 'Bearer' }), 401, 'Missing API key');
    });
    it('checks auth before parsing the body', async () => {
      await expectError(await post('{not json', {}), 401, 'Missing or invalid Authorization header');
    });
    it('open mode (no API_KEYS) accepts any non-empty key', async () => {
      const res = await post({ traces: [makeTrace()] }, { authorization: 'Bearer anything' });
      expect(res.status).toBe(200);
    });
    it('with API_KEYS, accepts a listed key (plain or sha256:) and refuses others', async () => {
      const { createHash } = await import('node:crypto');
      process.env.API_KEYS = `plain-key, sha256:${createHash('sha256').update('hashed-key').digest('hex')}`;
      await expectError(
        await post({ traces: [makeTrace()] }, { authorization: 'Bearer wrong' }),
        401,
        'Invalid API key',
      );
      expect((await post({ traces: [makeTrace()] }, { authorization: 'Bearer plain-key' })).status).toBe(200);
      expect((await post({ traces: [makeTrace()] }, { authorization: 'Bearer hashed-key' })).status).toBe(200);
      // The sha256 entry itself is not a key.
      await expectError(
        await post({ traces: [makeTrace()] }, { authorization: `Bearer ${process.env.API_KEYS.split(', ')[1]}` }),
        401,
        'Invalid API key',
      );
      expect((await countRows()).traces).toBe(2);
    });
  });

  describe('POST /api/traces: body and validation order', () => {
    it('stores a batch with its children and answers {success, count}', async () => {
      const res = await post({ traces: [makeTrace(), makeTrace()] });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ success: true, count: 2 });
      expect(await countRows()).toEqual({ traces: 2, decisionPoints: 2, spans: 4, events: 2 });
    });
    it('400 Invalid JSON in request body', async () => {
      await expectError(await post('{"traces": ['), 400, 'Invalid JSON in request body');
      await expectError(await post(''), 400, 'Invalid JSON in request body');
    });
    it('400 Must contain a traces array', async () => {
      for (const body of [{}, { traces: 'x' }, { traces: {} }, [], null, 5]) {
        await expectError(await post(body), 400, 'Must contain a traces array');
      }
    });
    it('400 Traces array cannot be empty', async () => {
      await expectError(await post({ traces: [] }), 400, 'Traces array cannot be empty');
    });
    it('checks trace fields in the spec order: id, name, startedAt, status, tags, decisionPoints, spans, events', async () => {
      const broken = {
        id: '',
        name: '',
        startedAt: 5,
        status: 'NOPE',
        tags: 'x',
        decisionPoints: null,
        spans: null,
        events: null,
      };
      const order = ['id', 'name', 'startedAt', 'status', 'tags', 'decisionPoints', 'spans', 'events'];
      let trace: Record<string, unknown> = makeTrace(broken);
      for (const field of order) {
        const res = await post({ traces: [trace] });
        await expectError(res, 400, new RegExp(`^traces\\[0\\]\\.${field}\\b`));
        trace = { ...trace, [field]: makeTrace()[field] };
      }
      expect((await post({ traces: [trace] })).status).toBe(200);
    });
    it('checks a trace before its decision points, spans and events, and those in that order', async () => {
      const trace = makeTrace({
        decisionPoints: [{ id: 'd', type: 'BAD', timestamp: '2026-01-01T00:00:00Z', alternatives: [] }],
        spans: [{ id: 's', name: 'n', type: 'BAD', startedAt: '2026-01-01T00:00:00Z', status: 'RUNNING' }],
        events: [{ id: 'e', name: 'n', type: 'BAD', timestamp: '2026-01-01T00:00:00Z' }],
      });
      await expectError(await post({ traces: [trace] }), 400, /^traces\[0\]\.decisionPoints\[0\]\.type/);
      trace.decisionPoints = [];
      await expectError(await post({ traces: [trace] }), 400, /^traces\[0\]\.spans\[0\]\.type/);
      trace.spans = [];
      await expectError(await post({ traces: [trace] }), 400, /^traces\[0\]\.events\[0\]\.type/);
      // Earlier traces are checked completely before later ones.
      const res = await post({ traces: [makeTrace({ events: [{ id: 'e' }] }), makeTrace({ id: '' })] });
      await expectError(res, 400, /^traces\[0\]\.events\[0\]\.name/);
    });
    it('checks decision point fields in order: id, type, timestamp, alternatives', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ type: 'X', timestamp: 1, alternatives: 1 }, /decisionPoints\[0\]\.id/],
        [{ id: 'd', type: 'X', timestamp: 1, alternatives: 1 }, /decisionPoints\[0\]\.type/],
        [{ id: 'd', type: 'RETRY', timestamp: 1, alternatives: 1 }, /decisionPoints\[0\]\.timestamp/],
        [{ id: 'd', type: 'RETRY', timestamp: '2026-01-01T00:00:00Z', alternatives: 1 }, /decisionPoints\[0\]\.alternatives must be an array/],
      ];
      for (const [dp, message] of cases) {
        await expectError(await post({ traces: [makeTrace({ decisionPoints: [dp] })] }), 400, message);
      }
    });
    it('checks span fields in order: id, name, type, startedAt, status', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ name: 1, type: 'X', startedAt: 1, status: 'X' }, /spans\[0\]\.id/],
        [{ id: 's', name: 1, type: 'X', startedAt: 1, status: 'X' }, /spans\[0\]\.name/],
        [{ id: 's', name: 'n', type: 'X', startedAt: 1, status: 'X' }, /spans\[0\]\.type/],
        [{ id: 's', name: 'n', type: 'CHAIN', startedAt: 1, status: 'X' }, /spans\[0\]\.startedAt/],
        [{ id: 's', name: 'n', type: 'CHAIN', startedAt: '2026-01-01T00:00:00Z', status: 'X' }, /spans\[0\]\.status/],
      ];
      for (const [span, message] of cases) {
        await expectError(await post({ traces: [makeTrace({ spans: [span] })] }), 400, message);
      }
    });
    it('checks event fields in order: id, name, type, timestamp', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ name: 1, type: 'X', timestamp: 1 }, /events\[0\]\.id/],
        [{ id: 'e', name: 1, type: 'X', timestamp: 1 }, /events\[0\]\.name/],
        [{ id: 'e', name: 'n', type: 'X', timestamp: 1 }, /events\[0\]\.type/],
        [{ id: 'e', name: 'n', type: 'ERROR', timestamp: 1 }, /events\[0\]\.timestamp/],
      ];
      for (const [event, message] of cases) {
        await expectError(await post({ traces: [makeTrace({ events: [event] })] }), 400, message);
      }
    });
    it('names the invalid enum value and the allowed ones', async () => {
      const res = await post({ traces: [makeTrace(), makeTrace({ status: 'DONE' })] });
      await expectError(res, 400, 'traces[1].status is invalid ("DONE"): must be one of RUNNING, COMPLETED, ERROR');
      const span = { ...(makeTrace().spans as object[])[0], type: 'LLM' };
      const res2 = await post({ traces: [makeTrace({ spans: [span] })] });
      await expectError(res2, 400, /traces\[0\]\.spans\[0\]\.type is invalid \("LLM"\): must be one of LLM_CALL, TOOL_CALL/);
    });
    it('400 for what would otherwise crash storage, naming the field', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ startedAt: 'yesterday' }, /traces\[0\]\.startedAt must be an ISO 8601 date-time/],
        [{ startedAt: '2026-02-30T00:00:00Z' }, /traces\[0\]\.startedAt must be an ISO 8601/],
        [{ endedAt: 'later' }, /traces\[0\]\.endedAt must be an ISO 8601/],
        [{ totalCost: '0.5' }, /traces\[0\]\.totalCost must be a finite number/],
        [{ tags: ['ok', 3] }, /traces\[0\]\.tags\[1\] must be a string/],
        [{ id: 'x'.repeat(257) }, /traces\[0\]\.id must be at most 256 characters/],
        [{ id: 'a\u0001b' }, /traces\[0\]\.id must not contain control characters/],
        [{ sessionId: 42 }, /traces\[0\]\.sessionId must be a string/],
        [{ name: 'a\u0000b' }, /traces\[0\]\.name contains a NUL character/],
        [{ metadata: { k: 'a\u0000' } }, /traces\[0\]\.metadata contains a NUL character/],
      ];
      for (const [overrides, message] of cases) {
        await expectError(await post({ traces: [makeTrace(overrides)] }), 400, message);
      }
      // 1e400 parses to Infinity: JSON allows it, a double column does not.
      const infinite = JSON.stringify({ traces: [makeTrace({ totalTokens: 12345 })] }).replace('12345', '1e400');
      await expectError(await post(infinite), 400, /traces\[0\]\.totalTokens must be a finite number/);
      const spans = [{ ...(makeTrace().spans as object[])[0], statusMessage: ['x'] }];
      await expectError(await post({ traces: [makeTrace({ spans })] }), 400, /spans\[0\]\.statusMessage must be a string/);
      expect((await countRows()).traces).toBe(0);
    });
    it('400 for a trace id twice in a batch, or a child id twice in a trace', async () => {
      const t = makeTrace();
      await expectError(await post({ traces: [t, { ...t }] }), 400, /traces\[1\]\.id ".*" appears more than once in this batch/);
      const span = (makeTrace().spans as object[])[0];
      await expectError(
        await post({ traces: [makeTrace({ spans: [span, span] })] }),
        400,
        /traces\[0\]\.spans\[1\]\.id "s1" appears more than once in this trace/,
      );
      // The same child id in two traces is fine: children are keyed by (traceId, id).
      expect((await post({ traces: [makeTrace(), makeTrace()] })).status).toBe(200);
    });
  });

  describe('POST /api/traces: atomicity and conflicts', () => {
    it('a batch whose 3rd trace is bad stores none of it', async () => {
      const res = await post({ traces: [makeTrace(), makeTrace(), makeTrace({ spans: [{ id: 's' }] })] });
      expect(res.status).toBe(400);
      expect(await countRows()).toEqual({ traces: 0, decisionPoints: 0, spans: 0, events: 0 });
    });
    it('409 for an id already stored, and nothing of the batch is stored', async () => {
      const existing = makeTrace();
      expect((await post({ traces: [existing] })).status).toBe(200);
      const before = await countRows();
      const res = await post({ traces: [makeTrace(), makeTrace(), existing] });
      await expectError(res, 409, 'Duplicate trace ID detected');
      expect(await countRows()).toEqual(before);
    });
  });

  describe('POST /api/traces: limits', () => {
    it('413 for a body over MAX_BODY_BYTES, declared or streamed', async () => {
      process.env.MAX_BODY_BYTES = '1000';
      const big = JSON.stringify({ traces: [makeTrace({ metadata: { pad: 'x'.repeat(2000) } })] });
      await expectError(await post(big), 413, 'Request body too large');
      // No Content-Length: the cap is enforced while the stream is read.
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 300, (i + 1) * 300)));
          controller.close();
        },
      });
      const req = new Request('http://test/api/traces', {
        method: 'POST',
        body: stream,
        headers: AUTH,
        duplex: 'half',
      } as RequestInit);
      await expectError(await POST(req, undefined), 413, 'Request body too large');
      expect((await countRows()).traces).toBe(0);
    });
    it('503 with Retry-After when the in-flight body budget stays full, and nothing stored', async () => {
      process.env.MAX_INFLIGHT_BODY_BYTES = '2000';
      process.env.ADMISSION_WAIT_MS = '200';
      // A first request holds the whole budget while its body is still arriving.
      let finish!: () => void;
      const first = JSON.stringify({ traces: [makeTrace()] });
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(first.slice(0, 10)));
          finish = () => {
            controller.enqueue(new TextEncoder().encode(first.slice(10)));
            controller.close();
          };
        },
      });
      const slow = POST(
        new Request('http://test/api/traces', { method: 'POST', body: stream, headers: AUTH, duplex: 'half' } as RequestInit),
        undefined,
      );
      // Authentication runs before admission: wait until the slow request holds the budget.
      await vi.waitFor(() => expect(bodiesInFlight()).toBe(true), { timeout: 30_000, interval: 5 });
      const busy = await post({ traces: [makeTrace()] });
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect((await busy.json()).error).toMatch(/Server busy/);
      finish();
      expect((await slow).status).toBe(200);
      // The budget is free again.
      expect((await post({ traces: [makeTrace()] })).status).toBe(200);
      expect((await countRows()).traces).toBe(2);
    });
        it('400 for more traces than MAX_BATCH_TRACES', async () => {
      process.env.MAX_BATCH_TRACES = '2';
      await expectError(
        await post({ traces: [makeTrace(), makeTrace(), makeTrace()] }),
        400,
        'Too many traces in one batch: 3; at most 2 are allowed',
      );
      expect((await post({ traces: [makeTrace(), makeTrace()] })).status).toBe(200);
    });
    it('400 for more children of one kind than MAX_CHILDREN_PER_TRACE', async () => {
      process.env.MAX_CHILDREN_PER_TRACE = '1';
      await expectError(await post({ traces: [makeTrace()] }), 400, /traces\[0\]\.spans has 2 entries: at most 1/);
    });
  });

  describe('GET /api/traces', () => {
    async function seed(n: number, fn: (i: number) => Record<string, unknown> = () => ({})) {
      const traces = Array.from({ length: n }, (_, i) =>
        makeTrace({
          id: `t${String(i).padStart(3, '0')}`,
          startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          ...fn(i),
        }),
      );
      expect((await post({ traces })).status).toBe(200);
    }

    it('defaults to page 1, limit 20, startedAt descending, rows without nested arrays', async () => {
      await seed(25);
      const res = await list();
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ total: 25, page: 1, limit: 20, totalPages: 2 });
      expect(body.traces).toHaveLength(20);
      expect(body.traces[0].id).toBe('t024');
      expect(body.traces[19].id).toBe('t005');
      const row = body.traces[0];
      expect(row._count).toEqual({ decisionPoints: 1, spans: 2, events: 1 });
      expect(row).not.toHaveProperty('spans');
      expect(row).not.toHaveProperty('decisionPoints');
      expect(row).not.toHaveProperty('events');
      expect(row.startedAt).toBe('2026-01-01T00:00:24.000Z');
    });
    it('pages with offset (page - 1) * limit and totalPages = ceil(total / limit)', async () => {
      await seed(7);
      const body = await (await list('?page=3&limit=3')).json();
      expect(body).toMatchObject({ total: 7, page: 3, limit: 3, totalPages: 3 });
      expect(body.traces.map((t: { id: string }) => t.id)).toEqual(['t000']);
      const past = await (await list('?page=9&limit=3')).json();
      expect(past).toMatchObject({ traces: [], total: 7, page: 9, limit: 3, totalPages: 3 });
      await truncateAll(db);
      expect(await (await list()).json()).toEqual({ traces: [], total: 0, page: 1, limit: 20, totalPages: 0 });
    });
    it('breaks startedAt ties by id, so pages never overlap', async () => {
      await seed(6, () => ({ startedAt: '2026-01-01T00:00:00.000Z' }));
      const ids: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const body = await (await list(`?page=${page}&limit=2`)).json();
        ids.push(...body.traces.map((t: { id: string }) => t.id));
      }
      expect(ids).toEqual(['t005', 't004', 't003', 't002', 't001', 't000']);
    });
    it('400 for invalid page and limit values', async () => {
      for (const q of ['?page=0', '?page=-1', '?page=1.5', '?page=abc', '?page=']) {
        await expectError(await list(q), 400, 'Invalid page parameter');
      }
      for (const q of ['?limit=0', '?limit=101', '?limit=2.5', '?limit=ten', '?limit=']) {
        await expectError(await list(q), 400, 'Invalid limit parameter');
      }
      expect((await list('?limit=100')).status).toBe(200);
      expect((await list('?limit=1')).status).toBe(200);
    });
    it('400 for an unknown status, listing the allowed values', async () => {
      await expectError(await list('?status=DONE'), 400, /RUNNING, COMPLETED, ERROR/);
    });
    it('filters by status, search (case-insensitive substring) and sessionId, combined with AND', async () => {
      await seed(6, (i) => ({
        status: ['RUNNING', 'COMPLETED', 'ERROR'][i % 3],
        name: i < 3 ? `Checkout Agent ${i}` : `refund-bot ${i}`,
        sessionId: i % 2 === 0 ? 'even' : 'odd',
      }));
      const ids = async (q: string) =>
        ((await (await list(q)).json()).traces as Array<{ id: string }>).map((t) => t.id);
      expect(await ids('?status=ERROR')).toEqual(['t005', 't002']);
      expect(await ids('?search=checkout')).toEqual(['t002', 't001', 't000']);
      expect(await ids('?search=AGENT%201')).toEqual(['t001']);
      expect(await ids('?sessionId=odd')).toEqual(['t005', 't003', 't001']);
      expect(await ids('?sessionId=od')).toEqual([]);
      expect(await ids('?status=RUNNING&sessionId=even')).toEqual(['t000']);
      expect(await ids('?status=COMPLETED&search=refund&sessionId=even')).toEqual(['t004']);
      const body = await (await list('?search=BOT&limit=1')).json();
      expect(body).toMatchObject({ total: 3, totalPages: 3 });
    });
    it('takes an optional userId on ingest, returns it in rows and filters on it exactly (beyond the spec)', async () => {
      await seed(4, (i) => ({ userId: [null, 'u-1', 'u-2', 'u-1'][i] }));
      const body = await (await list('?userId=u-1')).json();
      expect(body.traces.map((t: { id: string; userId: string }) => [t.id, t.userId])).toEqual([
        ['t003', 'u-1'],
        ['t001', 'u-1'],
      ]);
      expect(body.total).toBe(2);
      expect((await (await list('?userId=u')).json()).total).toBe(0);
      expect((await (await list('?userId=')).json()).total).toBe(4);
      expect((await (await detail('t000')).json()).trace).toMatchObject({ userId: null, unpricedCalls: 0 });
      await expectError(await post({ traces: [makeTrace({ userId: 7 })] }), 400, 'traces[0].userId must be a string or null');
    });
    it('treats LIKE wildcards in search as plain characters', async () => {
      await seed(3, (i) => ({ name: ['50% off', '50 percent', 'a_b'][i] }));
      const ids = async (q: string) =>
        ((await (await list(q)).json()).traces as Array<{ id: string }>).map((t) => t.id);
      expect(await ids('?search=%25')).toEqual(['t000']);
      expect(await ids('?search=_')).toEqual(['t002']);
    });
  });

  describe('GET /api/traces/{id}', () => {
    it('returns the trace with children ordered by time', async () => {
      const trace = makeTrace({
        decisionPoints: [
          { id: 'd2', type: 'ROUTING', timestamp: '2026-01-02T03:04:09Z', alternatives: [] },
          { id: 'd1', type: 'PLANNING', timestamp: '2026-01-02T03:04:06Z', alternatives: ['a'] },
        ],
        spans: [
          { id: 'late', name: 'b', type: 'CHAIN', status: 'RUNNING', startedAt: '2026-01-02T03:04:08Z' },
          { id: 'early', name: 'a', type: 'CHAIN', status: 'ERROR', startedAt: '2026-01-02T03:04:06+01:00' },
        ],
        events: [
          { id: 'e2', name: 'b', type: 'ERROR', timestamp: '2026-01-02T03:04:09Z' },
          { id: 'e1', name: 'a', type: 'FALLBACK', timestamp: '2026-01-02T03:04:07Z' },
        ],
      });
      await post({ traces: [trace] });
      const res = await detail(trace.id as string);
      expect(res.status).toBe(200);
      const body = (await res.json()).trace;
      expect(body.decisionPoints.map((d: { id: string }) => d.id)).toEqual(['d1', 'd2']);
      expect(body.spans.map((s: { id: string }) => s.id)).toEqual(['early', 'late']);
      expect(body.spans[0].startedAt).toBe('2026-01-02T02:04:06.000Z');
      expect(body.events.map((e: { id: string }) => e.id)).toEqual(['e1', 'e2']);
      expect(body.spans[1]).toMatchObject({ parentSpanId: null, endedAt: null, input: null, statusMessage: null });
    });
    it('round-trips every field and any JSON value unchanged', async () => {
      const values = [
        { nested: { deep: [1, 2, { x: null }] }, unicode: 'héllo 🌍 日本語', quote: '"<&>]]>' },
        [1, 'two', false, null, { three: 3 }],
        'a plain string',
        42.5,
        true,
        null,
        Array.from({ length: 1 }).reduce<unknown>((acc) => acc, JSON.parse('['.repeat(100) + ']'.repeat(100))),
      ];
      for (const value of values) {
        const trace = makeTrace({
          metadata: value,
          decisionPoints: [
            {
              id: 'd1',
              type: 'CUSTOM',
              chosen: value,
              alternatives: [value, value],
              contextSnapshot: value,
              timestamp: '2026-01-02T03:04:05Z',
            },
          ],
          spans: [{ id: 's', name: 'n', type: 'CUSTOM', status: 'RUNNING', startedAt: '2026-01-02T03:04:05Z', input: value, output: value, metadata: value }],
          events: [{ id: 'e', name: 'n', type: 'CUSTOM', timestamp: '2026-01-02T03:04:05Z', metadata: value }],
        });
        expect((await post({ traces: [trace] })).status).toBe(200);
        const got = (await (await detail(trace.id as string)).json()).trace;
        expect(got.metadata).toEqual(value);
        expect(got.decisionPoints[0]).toMatchObject({ chosen: value, alternatives: [value, value], contextSnapshot: value });
        expect(got.spans[0]).toMatchObject({ input: value, output: value, metadata: value });
        expect(got.events[0].metadata).toEqual(value);
      }
      const full = makeTrace();
      await post({ traces: [full] });
      const got = (await (await detail(full.id as string)).json()).trace;
      const { decisionPoints, spans, events, ...top } = full as Record<string, unknown[]>;
      expect(got).toMatchObject(top);
      expect(got.decisionPoints[0]).toMatchObject(decisionPoints[0] as object);
      expect(got.spans[1]).toMatchObject(spans[1] as object);
      expect(got.events[0]).toMatchObject(events[0] as object);
    });
    it('stores bodies whose text jsonb would refuse where the API does not look, as JavaScript reads them', async () => {
      // Payloads are stored from the request text; these bodies parse in JavaScript and
      // pass validation, but PostgreSQL's jsonb input refuses them as written.
      const cases: Array<[string, (trace: Record<string, unknown>) => string, unknown]> = [
        ['a \\u0000 escape in an ignored field', (t) => JSON.stringify(t).replace(/^\{/, '{"extra":"a\\u0000b",'), { model: 'gpt-x' }],
        ['an unpaired surrogate escape in an ignored field', (t) => JSON.stringify(t).replace(/^\{/, '{"extra":"\\udc00",'), { model: 'gpt-x' }],
        ['a number below numeric range in a payload', (t) => JSON.stringify({ ...t, metadata: 'MARK' }).replace('"MARK"', '[1e-999999, 2]'), [0, 2]],
        ['nesting deeper than jsonb parses, in an ignored field', (t) => JSON.stringify({ ...t, extra: 'MARK' }).replace('"MARK"', '['.repeat(100_000) + ']'.repeat(100_000)), { model: 'gpt-x' }],
        ['a key given twice (the last one wins, as in JSON.parse)', (t) => JSON.stringify(t).replace(/^\{/, '{"metadata":"first",'), { model: 'gpt-x' }],
      ];
      for (const [what, text, metadata] of cases) {
        const trace = makeTrace();
        const res = await post(`{"traces":[${text(trace)}]}`);
        expect(res.status, what).toBe(200);
        const shown = await detail(trace.id as string);
        expect(shown.status, what).toBe(200);
        const got = (await shown.json()).trace;
        expect(got.metadata, what).toEqual(metadata);
        expect(got.spans.length, what).toBe((trace.spans as unknown[]).length);
      }
    });
    it('404 Trace not found for an unknown id', async () => {
      await expectError(await detail('no-such-trace'), 404, 'Trace not found');
    });
    it('400 Invalid trace ID for an empty, over-long or control-character id', async () => {
      for (const id of ['', 'x'.repeat(257), 'a\nb', 'a\u0000b']) {
        await expectError(await detail(id), 400, 'Invalid trace ID');
      }
    });
  });

  describe('failures', () => {
    it('500 Internal server error, logged with a request id, nothing internal in the body', async () => {
      const broken = await open();
      await broken.close();
      useDatabase(broken);
      const res = await post({ traces: [makeTrace({ id: uid() })] });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'Internal server error' });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});
