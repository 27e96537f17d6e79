// GET /api/traces with the filters of issue 12 (decisionType, chosen, from, to, tag, name)
// through the route handler, on every test database, over test/support/insights-dataset.ts.
// The spec's parameters and messages are covered, unchanged, by route.test.ts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { insightsDataset, WINDOW, type DatasetIds } from '@/test/support/insights-dataset';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseListParams } from '@/lib/features/query/list-params';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { GET } from './route';
import { testContext } from '@/test/support/context';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const IN_WINDOW = `from=${WINDOW.from}&to=${WINDOW.to}`;

function list(query = ''): Promise<Response> {
  return GET(new Request(`http://test/api/traces${query ? `?${query}` : ''}`), undefined);
}

async function expectError(res: Response, message: string) {
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: message });
}

describe.each(testDatabases())('GET /api/traces filters on $name', ({ open }) => {
  let db: Database;
  let T: DatasetIds;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    db = await open();
    await truncateAll(db);
    const dataset = insightsDataset();
    T = dataset.ids;
    await ingestTraces(testContext(db), parseIngestBody(dataset.body, LIMITS));
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => {
    useDatabase(db);
    delete process.env.API_KEYS;
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });

  /** The ids of the page, newest first, after checking the total against them when all fit. */
  async function ids(query: string): Promise<string[]> {
    const res = await list(`${query}&limit=100`);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    const found = body.traces.map((t: { id: string }) => t.id);
    expect(body.total, `total of ${query}`).toBe(found.length);
    expect(body.totalPages).toBe(Math.ceil(found.length / 100));
    return found;
  }

  // Newest first, the dataset is: T6, T4, T3, T2, T1, T5, T7.
  it('decisionType: traces with at least one decision of that type', async () => {
    expect(await ids('decisionType=TOOL_SELECTION')).toEqual([T.T6, T.T3, T.T2, T.T1, T.T7]);
    expect(await ids('decisionType=RETRY')).toEqual([T.T6, T.T2, T.T1]);
    expect(await ids('decisionType=ESCALATION')).toEqual([T.T4, T.T2]);
    expect(await ids('decisionType=PLANNING')).toEqual([]);
  });

  it('chosen: traces with a decision whose chosen label is that, of the type when one is given', async () => {
    // {tool:search} in T1 and T6, {name:search, tool:5} and "search" in T2.
    expect(await ids('chosen=search')).toEqual([T.T6, T.T2, T.T1]);
    expect(await ids('decisionType=TOOL_SELECTION&chosen=search')).toEqual([T.T6, T.T2, T.T1]);
    expect(await ids('decisionType=ROUTING&chosen=search')).toEqual([]);
    expect(await ids('decisionType=TOOL_SELECTION&chosen=calc')).toEqual([T.T3, T.T1, T.T7]);
    expect(await ids('chosen=human')).toEqual([T.T4, T.T2]);
    // An absent chosen is "null"; 1.0 is "1".
    expect(await ids('chosen=null')).toEqual([T.T1]);
    expect(await ids('decisionType=RETRY&chosen=1')).toEqual([T.T2]);
    // Only offered, never chosen; and labels are exact, case-sensitive.
    expect(await ids('chosen=2.5')).toEqual([]);
    expect(await ids('chosen=web')).toEqual([]);
    expect(await ids('chosen=Search')).toEqual([]);
    expect(await ids('chosen=sear')).toEqual([]);
  });

  it('from and to: the half-open window of startedAt', async () => {
    expect(await ids(IN_WINDOW)).toEqual([T.T4, T.T3, T.T2, T.T1, T.T5]);
    expect(await ids('from=2026-03-01T03:00:00Z')).toEqual([T.T6, T.T4, T.T3]);
    expect(await ids('to=2026-03-01T00:00:00Z')).toEqual([T.T7]);
    expect(await ids('to=2026-03-01T00:00:00.001Z')).toEqual([T.T5, T.T7]);
    expect(await ids('from=2026-03-01T02:00:00Z&to=2026-03-01T02:00:00Z')).toEqual([]);
    // Offsets, and an unencoded "+" (read as a space): 04:00+02:00 is 02:00Z.
    expect(await ids('from=2026-03-01T04:00:00+02:00&to=2026-03-01T03:00:00%2B00:00')).toEqual([T.T2]);
  });

  it('tag and name: one tag carried, the exact name', async () => {
    expect(await ids('tag=prod')).toEqual([T.T6, T.T4, T.T2, T.T1]);
    expect(await ids('tag=eu')).toEqual([T.T2]);
    expect(await ids('tag=pro')).toEqual([]);
    expect(await ids('name=checkout')).toEqual([T.T6, T.T2, T.T1, T.T7]);
    expect(await ids('name=Checkout')).toEqual([]);
    expect(await ids('name=check')).toEqual([]);
    // search stays a case-insensitive substring.
    expect(await ids('search=CHECK')).toEqual([T.T6, T.T2, T.T1, T.T7]);
  });

  it('combines every filter with AND, the spec\'s status, search and sessionId included', async () => {
    expect(await ids('chosen=search&status=ERROR')).toEqual([T.T6, T.T2]);
    expect(await ids('decisionType=TOOL_SELECTION&search=HECK')).toEqual([T.T6, T.T2, T.T1, T.T7]);
    expect(await ids('decisionType=ROUTING&sessionId=s1')).toEqual([T.T3]);
    expect(await ids(`tag=prod&${IN_WINDOW}`)).toEqual([T.T4, T.T2, T.T1]);
    expect(await ids('name=refund&chosen=support')).toEqual([T.T4]);
    expect(await ids('status=COMPLETED&name=checkout&tag=dev')).toEqual([T.T7]);
    expect(await ids('status=COMPLETED&sessionId=s2&decisionType=TOOL_SELECTION&chosen=calc')).toEqual([T.T7]);
    expect(
      await ids(`decisionType=TOOL_SELECTION&chosen=search&${IN_WINDOW}&tag=prod&name=checkout&status=ERROR&search=OUT&sessionId=s2`),
    ).toEqual([T.T2]);
    expect(await ids(`decisionType=TOOL_SELECTION&chosen=search&${IN_WINDOW}&sessionId=s1`)).toEqual([T.T1]);
  });

  it('pages and counts the filtered traces', async () => {
    const page = async (n: number) => (await list(`decisionType=TOOL_SELECTION&limit=2&page=${n}`)).json();
    expect(await page(1)).toMatchObject({ total: 5, page: 1, limit: 2, totalPages: 3 });
    expect((await page(1)).traces.map((t: { id: string }) => t.id)).toEqual([T.T6, T.T3]);
    expect((await page(2)).traces.map((t: { id: string }) => t.id)).toEqual([T.T2, T.T1]);
    expect((await page(3)).traces.map((t: { id: string }) => t.id)).toEqual([T.T7]);
    expect(await page(4)).toMatchObject({ traces: [], total: 5, totalPages: 3 });
    // Totals the fast paths must not take: a status or a search with another filter.
    expect(await (await list('status=ERROR&tag=prod&limit=1')).json()).toMatchObject({ total: 2, totalPages: 2 });
    expect(await (await list(`search=check&${IN_WINDOW}&limit=1`)).json()).toMatchObject({ total: 2 });
    expect(await (await list('status=ERROR&chosen=search&limit=1')).json()).toMatchObject({ total: 2 });
    // And the ones they take still agree.
    expect(await (await list('status=ERROR&limit=1')).json()).toMatchObject({ total: 3 });
    expect(await (await list('search=check&limit=1')).json()).toMatchObject({ total: 4 });
    expect(await (await list('limit=1')).json()).toMatchObject({ total: 7 });
    // The rows are the list's rows, counts included.
    const [row] = (await (await list(`name=refund&chosen=human`)).json()).traces;
    expect(row).toMatchObject({ id: T.T4, name: 'refund', status: 'COMPLETED', tags: ['prod'], sessionId: 's3', _count: { decisionPoints: 2, spans: 0, events: 0 } });
    expect(row.startedAt).toBe('2026-03-01T23:59:59.999Z');
  });

  it('ignores empty values, as for the spec\'s filters', async () => {
    expect(await ids('decisionType=&chosen=&from=&to=&tag=&name=')).toHaveLength(7);
  });

  it('400 naming the parameter for each invalid value, after the spec\'s checks', async () => {
    const iso = 'must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z)';
    await expectError(
      await list('decisionType=NOPE'),
      'Invalid decisionType parameter: must be one of TOOL_SELECTION, ROUTING, RETRY, ESCALATION, MEMORY_RETRIEVAL, PLANNING, CUSTOM',
    );
    await expectError(await list('decisionType=tool_selection'), /* enums are exact */ 'Invalid decisionType parameter: must be one of TOOL_SELECTION, ROUTING, RETRY, ESCALATION, MEMORY_RETRIEVAL, PLANNING, CUSTOM');
    await expectError(await list(`chosen=${'x'.repeat(201)}`), 'Invalid chosen parameter: a label is at most 200 characters');
    await expectError(await list('from=yesterday'), `Invalid from parameter: ${iso}`);
    await expectError(await list('from=2026-13-01T00:00:00Z'), `Invalid from parameter: ${iso}`);
    await expectError(await list('to=2026-03-01'), `Invalid to parameter: ${iso}`);
    await expectError(await list('from=2026-03-02T00:00:00Z&to=2026-03-01T23:59:59Z'), 'Invalid from parameter: must not be after to');
    for (const name of ['name', 'tag', 'chosen', 'search', 'sessionId']) {
      await expectError(await list(`${name}=a%00b`), `Invalid ${name} parameter: must not contain a NUL character`);
    }
    // The spec's checks come first, with their messages.
    await expectError(await list('page=0&decisionType=NOPE'), 'Invalid page parameter');
    await expectError(await list('limit=101&from=x'), 'Invalid limit parameter');
    await expectError(await list('status=DONE&decisionType=NOPE'), 'Invalid status parameter: must be one of RUNNING, COMPLETED, ERROR');
    // 200 characters (astral ones: 400 UTF-16 units) is a label's length.
    expect((await list(`chosen=${encodeURIComponent('🌍'.repeat(200))}`)).status).toBe(200);
  });

  it('matches labels cut at 200 characters and unicode labels', async () => {
    const long = 'é'.repeat(250);
    const trace = makeTrace({
      id: `long-${db.kind}`,
      decisionPoints: [
        { id: 'a', type: 'CUSTOM', chosen: long, alternatives: [], timestamp: '2026-01-02T03:04:05Z' },
        { id: 'b', type: 'CUSTOM', chosen: { tool: '日本語 🌍' }, alternatives: [], timestamp: '2026-01-02T03:04:05Z' },
        { id: 'c', type: 'CUSTOM', chosen: { query: 'a b', k: 5 }, alternatives: [], timestamp: '2026-01-02T03:04:05Z' },
      ],
    });
    await ingestTraces(testContext(db), parseIngestBody(JSON.stringify({ traces: [trace] }), LIMITS));
    try {
      const q = (label: string) => ids(`chosen=${encodeURIComponent(label)}`);
      expect(await q(long.slice(0, 200))).toEqual([trace.id]);
      expect(await q('日本語 🌍')).toEqual([trace.id]);
      expect(await q('{"k":5,"query":"a b"}')).toEqual([trace.id]);
      expect(await q('{"query":"a b","k":5}')).toEqual([]);
    } finally {
      await db.sql.query('DELETE FROM "Trace" WHERE id = $1', [trace.id]);
    }
  });
});

describe('parseListParams', () => {
  it('reads the new filters and normalises the dates to UTC', () => {
    const query = new URLSearchParams(
      'decisionType=ROUTING&chosen=a b&from=2026-03-01T02:00:00+02:00&to=2026-03-01 03:00&tag=t&name=n',
    );
    expect(parseListParams(query)).toEqual({
      page: 1,
      limit: 20,
      decisionType: 'ROUTING',
      chosen: 'a b',
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-01T03:00:00.000Z',
      tag: ['t'],
      name: 'n',
    });
  });
});
