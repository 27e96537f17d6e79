// POST and GET /api/scores through the route handlers: the answers' shapes, a 400 naming
// the field and its index, a 404 naming the target, 413 for a body over MAX_BODY_BYTES,
// and the scores on GET /api/traces/{id}.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { GET as detailRoute } from '@/app/api/traces/[id]/route';
import { GET as exportRoute } from '@/app/api/traces/export/route';
import { POST as ingestRoute } from '@/app/api/traces/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { resetAccess } from '@/test/support/access';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { GET, POST } from './route';

const AUTH = { authorization: 'Bearer scores-route-key', 'content-type': 'application/json' };
const post = (body: unknown) => POST(new Request('http://x/api/scores', { method: 'POST', headers: AUTH, body: typeof body === 'string' ? body : JSON.stringify(body) }));

describe.each(testDatabases())('POST /api/scores on $name', ({ open }) => {
  let db: Database;
  const traceId = uid('route');
  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    resetAccess();
    const res = await ingestRoute(new Request('http://x/api/traces', { method: 'POST', headers: AUTH, body: JSON.stringify({ traces: [makeTrace({ id: traceId })] }) }));
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(() => {
    delete process.env.MAX_BODY_BYTES;
  });

  it('answers {success, count}, and the trace detail carries the scores where they are', async () => {
    const res = await post({ scores: [{ traceId, name: 'quality', value: 4 }, { traceId, spanId: 's1', name: 'thumbs', value: true }] });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: { success: true, count: 2 } });
    const detail = (await (await detailRoute(new Request(`http://x/api/traces/${traceId}`), { params: Promise.resolve({ id: traceId }) })).json()) as {
      trace: { scores: unknown[]; spans: Array<{ id: string; scores?: unknown[] }>; decisionPoints: Array<{ scores?: unknown[] }> };
    };
    expect(detail.trace.scores).toEqual([expect.objectContaining({ name: 'quality', value: 4, source: 'API', author: { kind: 'key', name: 'open mode' } })]);
    expect(detail.trace.spans.find((s) => s.id === 's1')?.scores).toEqual([expect.objectContaining({ name: 'thumbs', value: true })]);
    expect(detail.trace.spans.find((s) => s.id === 's2')).not.toHaveProperty('scores');
    expect(detail.trace.decisionPoints[0]).not.toHaveProperty('scores');
    const list = (await (await GET(new Request(`http://x/api/scores?traceId=${traceId}&limit=1`))).json()) as Record<string, unknown>;
    expect(list).toMatchObject({ total: 2, page: 1, limit: 1, totalPages: 2 });
  });

  it.each([
    ['{"scores": [', 400, 'Invalid JSON in request body'],
    [{ scores: [{ traceId: 't', name: 'n', value: 1 }, { traceId: 't', name: 'n', value: null }] }, 400, 'scores[1].value is required and must be a number, a string or a boolean'],
    [{ scores: [{ traceId: 'nope', name: 'n', value: 1 }] }, 404, 'scores[0].traceId: trace "nope" not found'],
  ])('%j → %i %s', async (body, status, error) => {
    const res = await post(body);
    expect({ status: res.status, body: await res.json() }).toEqual({ status, body: { error } });
  });

  it('metadata nested deeper than payloads may be is a 400 naming the field, as in a trace, and nothing is stored', async () => {
    const nested = (depth: number) => '['.repeat(depth - 1) + '{"x":1}' + ']'.repeat(depth - 1);
    const body = (depth: number) => `{"scores": [{"traceId": "${traceId}", "name": "deep", "value": 1, "metadata": ${nested(depth)}}]}`;
    for (const depth of [257, 6_000, 100_000]) {
      const res = await post(body(depth));
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 400, body: { error: 'scores[0].metadata is nested deeper than 256 levels' } });
    }
    const list = (await (await GET(new Request(`http://x/api/scores?traceId=${traceId}&name=deep`))).json()) as { total: number };
    expect(list.total).toBe(0);
    expect((await post(body(256))).status).toBe(200);
  });

  it('a body over MAX_BODY_BYTES is a 413', async () => {
    process.env.MAX_BODY_BYTES = '1024';
    const res = await post({ scores: [{ traceId, name: 'n', value: 'x'.repeat(2000) }] });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 413, body: { error: 'Request body too large' } });
  });
});

describe.each(testDatabases())('the export carries scores on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    resetAccess();
  });
  afterAll(async () => {
    await db.close();
  });

  it('include=children lines as the detail; CSV a scores column of every score of the trace as JSON', async () => {
    const id = uid('exported');
    const trace = makeTrace({ id, name: id, scores: [{ id: `${id}-a`, name: 'quality', value: 2 }, { id: `${id}-b`, decisionPointId: 'd1', name: 'decision.correct', value: true }] });
    expect((await ingestRoute(new Request('http://x/api/traces', { method: 'POST', headers: AUTH, body: JSON.stringify({ traces: [trace, makeTrace({ name: id })] }) }))).status).toBe(200);
    const line = await (await exportRoute(new Request(`http://x/api/traces/export?name=${id}&include=children`))).text();
    const lines = line.trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string });
    const scored = lines.find((l) => l.id === id)!;
    const detail = (await (await detailRoute(new Request(`http://x/api/traces/${id}`), { params: Promise.resolve({ id }) })).json()) as { trace: unknown };
    expect(scored).toEqual(detail.trace);
    expect(scored).toMatchObject({ scores: [{ id: `${id}-a` }], decisionPoints: [{ scores: [{ id: `${id}-b`, value: true }] }] });
    expect(lines.find((l) => l.id !== id)).not.toHaveProperty('scores');

    const csv = parse(await (await exportRoute(new Request(`http://x/api/traces/export?name=${id}&format=csv`))).text(), { columns: true }) as Array<Record<string, string>>;
    const byId = Object.fromEntries(csv.map((r) => [r.id, JSON.parse(r.scores) as Array<{ id: string }>]));
    expect(byId[id].map((s) => s.id).sort()).toEqual([`${id}-a`, `${id}-b`]);
    expect(Object.values(byId).filter((s) => s.length === 0)).toHaveLength(1);
  });
});
