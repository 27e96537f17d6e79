// The sessions list's search, time range, status and user filters, and its user and first
// input, on every test database; each filter read the same by the walk and by grouping.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { listSessions, parseSessionListParams } from './';

const limits = { maxBatchTraces: 100, maxChildrenPerTrace: 100 };
const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const MIN = 60_000;
const ago = (minutes: number) => new Date(NOW - minutes * MIN).toISOString();

function trace(sessionId: string, minutesAgo: number, fields: Record<string, unknown> = {}) {
  return makeTrace({ id: uid('sf'), sessionId, userId: null, status: 'COMPLETED', startedAt: ago(minutesAgo), endedAt: null, decisionPoints: [], events: [], spans: [], ...fields });
}
const root = (input: unknown) => [{ id: 'r', name: 'agent', type: 'AGENT', status: 'COMPLETED', startedAt: ago(0), input }];

describe('parseSessionListParams: range, search and status', () => {
  const parse = (q: string) => parseSessionListParams(new URLSearchParams(q));
  it('reads them', () => {
    expect(parse('range=24h&search=Checkout&status=ERROR')).toEqual({ page: 1, limit: 20, range: '24h', search: 'Checkout', status: 'ERROR' });
    expect(parse('range=&search=&status=')).toEqual({ page: 1, limit: 20 });
  });
  it.each([
    ['range=2d', 'Invalid range parameter: must be one of 15m, 1h, 24h, 7d, 30d'],
    ['range=1h&from=2026-01-01T00:00:00Z', 'Invalid range parameter: give range or from/to, not both'],
    ['status=FAILED', 'Invalid status parameter: must be one of RUNNING, COMPLETED, ERROR'],
    [`search=${'x'.repeat(201)}`, 'Invalid search parameter: must be at most 200 characters'],
    ['search=a%00', 'Invalid search parameter: must not contain a NUL character'],
  ])('%s is refused: %s', (q, message) => {
    expect(() => parse(q)).toThrow(message);
  });
});

describe.each(testDatabases())('sessions filters on $name', (target) => {
  let database: Database;

  beforeAll(async () => {
    database = await target.open();
    await truncateAll(database);
    const traces = [
      // checkout-1: failed once, latest 10 min ago, alice then bob; first input "Where is my order?"
      trace('checkout-1', 50, { userId: 'alice', spans: root('Where is my order?') }),
      trace('checkout-1', 30, { userId: 'alice', status: 'ERROR', spans: root('again') }),
      trace('checkout-1', 10, { userId: 'bob' }),
      // CHECKOUT-2: running, 40 min ago, no user
      trace('CHECKOUT-2', 45),
      trace('CHECKOUT-2', 40, { status: 'RUNNING' }),
      // refund-3: completed, 3 hours ago, carol
      trace('refund-3', 180, { userId: 'carol', spans: root({ messages: [{ role: 'user', content: 'Refund please' }] }) }),
      // refund-4: completed, 3 days ago
      trace('refund-4', 3 * 1440, { userId: 'carol' }),
    ];
    await ingestTraces(testContext(database), validateIngestBody({ traces }, limits));
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  // The walk (default), and grouping every trace (a walk too short to settle anything).
  const plans = [{}, { firstWalk: 1, maxWalk: 1 }];
  async function ids(query: string): Promise<string[]> {
    const answers = await Promise.all(
      plans.map(async (options) => {
        const list = await listSessions(testContext(database), parseSessionListParams(new URLSearchParams(query)), options);
        expect(list.total, query).toBe(list.sessions.length);
        return list.sessions.map((s) => s.id);
      }),
    );
    expect(answers[1], `${query}: grouped`).toEqual(answers[0]);
    return answers[0];
  }

  it.each([
    ['', ['checkout-1', 'CHECKOUT-2', 'refund-3', 'refund-4']],
    ['search=checkout', ['checkout-1', 'CHECKOUT-2']],
    ['search=-3', ['refund-3']],
    ['search=%25', []],
    ['status=ERROR', ['checkout-1']],
    ['status=RUNNING', ['CHECKOUT-2']],
    ['status=COMPLETED', ['refund-3', 'refund-4']],
    ['range=15m', ['checkout-1']],
    ['range=1h', ['checkout-1', 'CHECKOUT-2']],
    ['range=24h', ['checkout-1', 'CHECKOUT-2', 'refund-3']],
    ['range=7d', ['checkout-1', 'CHECKOUT-2', 'refund-3', 'refund-4']],
    ['userId=carol', ['refund-3', 'refund-4']],
    ['userId=alice&status=ERROR', ['checkout-1']],
    ['userId=bob&status=ERROR', []],
    ['search=refund&range=24h&status=COMPLETED', ['refund-3']],
  ])('%s → %j', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('gives each session its latest user and its first input', async () => {
    const list = await listSessions(testContext(database), parseSessionListParams(new URLSearchParams('')));
    expect(list.sessions.map((s) => [s.id, s.userId, s.firstInput])).toEqual([
      ['checkout-1', 'bob', 'Where is my order?'],
      ['CHECKOUT-2', null, null],
      ['refund-3', 'carol', 'Refund please'],
      ['refund-4', 'carol', null],
    ]);
    const alice = await listSessions(testContext(database), parseSessionListParams(new URLSearchParams('userId=alice')));
    expect(alice.sessions.map((s) => [s.id, s.userId, s.firstInput])).toEqual([['checkout-1', 'alice', 'Where is my order?']]);
  });
});
