// Sessions read from the traces that share a sessionId, on every test database: figures,
// order, paging, the window and user filters, and each trace's input and output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { contextAs, testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { getSessionOrThrow, listSessions, parseSessionListParams } from './';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };

const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 10, minute)).toISOString();

function span(id: string, fields: Record<string, unknown>) {
  return { id, name: id, type: 'CUSTOM', status: 'COMPLETED', startedAt: at(0), ...fields };
}

/** A trace of a session at a minute, with the spans given (none by default). */
function trace(sessionId: string | null, minute: number, fields: Record<string, unknown> = {}) {
  return makeTrace({ id: uid('sess'), sessionId, startedAt: at(minute), endedAt: at(minute + 1), decisionPoints: [], events: [], spans: [], ...fields });
}

describe('parseSessionListParams', () => {
  const parse = (q: string) => parseSessionListParams(new URLSearchParams(q));

  it('reads page and limit as the trace list does, and from, to and userId as its filters', () => {
    expect(parse('')).toEqual({ page: 1, limit: 20 });
    expect(parse('page=2&limit=5&userId=u1&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&other=x')).toEqual({
      page: 2,
      limit: 5,
      userId: 'u1',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
    });
  });

  it.each([
    ['page=0', 'Invalid page parameter'],
    ['page=1.5', 'Invalid page parameter'],
    ['page=abc', 'Invalid page parameter'],
    ['limit=0', 'Invalid limit parameter'],
    ['limit=101', 'Invalid limit parameter'],
    ['from=yesterday', 'Invalid from parameter: must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z)'],
    ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'Invalid from parameter: must not be after to'],
  ])('%s is refused: %s', (query, message) => {
    expect(() => parse(query)).toThrow(message);
  });
});

describe.each(testDatabases())('sessions on $name', (target) => {
  let database: Database;
  const ctx = () => testContext(database);

  beforeAll(async () => {
    database = await target.open();
    await truncateAll(database);
    const traces = [
      // "a": three traces, one failed; started at minutes 1, 5 and 9.
      trace('a', 5, { totalCost: 0.25, totalTokens: 100, userId: 'ann' }),
      trace('a', 1, {
        totalCost: 0.5,
        totalTokens: 50,
        userId: 'ann',
        spans: [
          span('child', { parentSpanId: 'root', startedAt: at(1), input: 'not this' }),
          span('root', { startedAt: at(1), input: { question: 'Where is order 7?' }, output: { answer: 'Shipped.' } }),
        ],
      }),
      trace('a', 9, {
        status: 'ERROR',
        totalCost: null,
        totalTokens: null,
        userId: 'bob',
        spans: [
          // A root without payloads: the model calls give them, the first's input and the last's output.
          span('agent', { type: 'AGENT', startedAt: at(9) }),
          span('call-2', { type: 'LLM_CALL', parentSpanId: 'agent', startedAt: at(10), input: 'second question', output: 'second answer' }),
          span('call-1', { type: 'LLM_CALL', parentSpanId: 'agent', startedAt: at(9), input: [{ role: 'user', content: 'first question' }], output: 'first answer' }),
        ],
      }),
      // "b": one trace at minute 7, no costs.
      trace('b', 7, { totalCost: null, totalTokens: null }),
      // "c": one trace at minute 3.
      trace('c', 3, { totalCost: 1, totalTokens: 10 }),
      // "d": one trace at minute 7, as "b": the tie is ordered by id, descending.
      trace('d', 7, { totalCost: null, totalTokens: null }),
      // No session: never listed.
      trace(null, 20),
    ];
    await ingestTraces(ctx(), validateIngestBody({ traces }, limits));
  });

  afterAll(async () => {
    await database?.close();
  });

  it('lists sessions by latest activity with their figures', async () => {
    const list = await listSessions(ctx(), { page: 1, limit: 20 });
    // The list's own additions (user, first input) are in filters.test.ts.
    expect(list).toMatchObject({
      sessions: [
        { id: 'a', traces: 3, errorTraces: 1, firstStartedAt: at(1), lastStartedAt: at(9), totalCost: 0.75, totalTokens: 150 },
        { id: 'd', traces: 1, errorTraces: 0, firstStartedAt: at(7), lastStartedAt: at(7), totalCost: null, totalTokens: null },
        { id: 'b', traces: 1, errorTraces: 0, firstStartedAt: at(7), lastStartedAt: at(7), totalCost: null, totalTokens: null },
        { id: 'c', traces: 1, errorTraces: 0, firstStartedAt: at(3), lastStartedAt: at(3), totalCost: 1, totalTokens: 10 },
      ],
      total: 4,
      page: 1,
      limit: 20,
      totalPages: 1,
    });
  });

  it('pages, and a page past the end is empty with the right totals', async () => {
    const second = await listSessions(ctx(), { page: 2, limit: 3 });
    expect(second.sessions.map((s) => s.id)).toEqual(['c']);
    expect(second).toMatchObject({ total: 4, page: 2, limit: 3, totalPages: 2 });
    expect(await listSessions(ctx(), { page: 9, limit: 2 })).toMatchObject({ sessions: [], total: 4, totalPages: 2 });
  });

  it('walks the traces in steps that grow until the page is certain, ties included, with the same answers', async () => {
    const whole = await listSessions(ctx(), { page: 1, limit: 20 });
    // maxWalk 0: grouping every trace instead of walking.
    for (const options of [{ firstWalk: 1 }, { firstWalk: 2 }, { firstWalk: 3 }, { firstWalk: 1, maxWalk: 4 }, { maxWalk: 0 }]) {
      for (const limit of [1, 2, 3]) {
        const ids: string[] = [];
        for (let page = 1; page <= Math.ceil(4 / limit); page++) {
          const one = await listSessions(ctx(), { page, limit }, options);
          expect(one.total).toBe(4);
          ids.push(...one.sessions.map((s) => s.id));
        }
        expect(ids, `${JSON.stringify(options)}, limit ${limit}`).toEqual(whole.sessions.map((s) => s.id));
      }
    }
  });

  it('from and to keep the sessions whose latest trace started in [from, to)', async () => {
    for (const options of [{}, { firstWalk: 1 }, { maxWalk: 0 }]) {
      const window = await listSessions(ctx(), { page: 1, limit: 20, from: at(3), to: at(8) }, options);
      expect(window.sessions.map((s) => [s.id, s.traces])).toEqual([['d', 1], ['b', 1], ['c', 1]]);
      expect(window.total).toBe(3);
      const since = await listSessions(ctx(), { page: 1, limit: 20, from: at(7) }, options);
      expect(since.sessions.map((s) => s.id)).toEqual(['a', 'd', 'b']);
      // "a" started before minute 4 too, but its latest trace is later.
      const before = await listSessions(ctx(), { page: 1, limit: 1, to: at(4) }, options);
      expect(before.sessions.map((s) => s.id)).toEqual(['c']);
      expect(before.total).toBe(1);
    }
  });

  it('userId keeps that user’s traces', async () => {
    const ann = await listSessions(ctx(), { page: 1, limit: 20, userId: 'ann' });
    expect(ann.sessions).toMatchObject([{ id: 'a', traces: 2, errorTraces: 0, firstStartedAt: at(1), lastStartedAt: at(5), totalCost: 0.75, totalTokens: 150 }]);
    expect((await listSessions(ctx(), { page: 1, limit: 20, userId: 'nobody' })).total).toBe(0);
  });

  it('reads a session oldest first: the root span’s input and output, else the first and last model calls’', async () => {
    const detail = await getSessionOrThrow(ctx(), 'a');
    expect((await listSessions(ctx(), { page: 1, limit: 1 })).sessions[0]).toMatchObject(detail.session);
    expect(detail.traces.map((t) => t.startedAt)).toEqual([at(1), at(5), at(9)]);
    const [first, middle, last] = detail.traces;
    expect(first).toMatchObject({ status: 'COMPLETED', input: { question: 'Where is order 7?' }, output: { answer: 'Shipped.' }, totalCost: 0.5, endedAt: at(2) });
    expect(middle).toMatchObject({ input: null, output: null });
    expect(last).toMatchObject({ status: 'ERROR', input: [{ role: 'user', content: 'first question' }], output: 'second answer', totalCost: null });
    expect(Object.keys(first).sort()).toEqual(['endedAt', 'id', 'input', 'name', 'output', 'startedAt', 'status', 'totalCost', 'totalTokens']);
  });

  it('an unknown session is NOT_FOUND, an impossible id VALIDATION', async () => {
    await expect(getSessionOrThrow(ctx(), 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Session not found' });
    await expect(getSessionOrThrow(ctx(), '')).rejects.toMatchObject({ code: 'VALIDATION', message: 'Invalid session ID' });
  });

  it('needs the read scope', async () => {
    const nobody = contextAs(database, { mode: 'protected', keysOnly: true, credential: { kind: 'none' } });
    await expect(listSessions(nobody, { page: 1, limit: 20 })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(getSessionOrThrow(nobody, 'a')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
