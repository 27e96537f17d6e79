// The list's filters and sorts of issue 13 (tag repeated, duration and cost bounds,
// hasErrors, metadata.<key>, sort and order), alone and combined, against answers worked
// out by hand from the five traces below, on every test database; and each invalid value
// refused with a message naming its parameter, through the route.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/traces/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { listTraces } from '@/lib/features/traces/list';
import { parseListParams } from '@/lib/features/query/list-params';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const at = (minute: number) => `2026-02-01T10:0${minute}:00.000Z`;
const ok = { status: 'COMPLETED', startedAt: '2026-02-01T10:00:00.000Z' };

//        started  tags            duration  cost   failed                 metadata
// A      10:05    prod, eu        100       0.50   no                     env=prod, attempt=2
// B      10:04    prod            2500      null   trace ERROR            env=prod, vip=true
// C      10:03    prod, eu, beta  null      0.02   a span ERROR           env=staging
// D      10:02    eu              900       1.25   an ERROR event         {"env": ["prod"]} (not a string)
// E      10:01    (none)          2500      0.50   no (RETRY event only)  none
const TRACES = [
  makeTrace({ id: 'A', startedAt: at(5), tags: ['prod', 'eu'], totalDuration: 100, totalCost: 0.5, metadata: { env: 'prod', attempt: 2 }, events: [] }),
  makeTrace({ id: 'B', startedAt: at(4), tags: ['prod'], totalDuration: 2500, totalCost: null, status: 'ERROR', metadata: { env: 'prod', vip: true }, events: [] }),
  makeTrace({
    id: 'C',
    startedAt: at(3),
    tags: ['prod', 'eu', 'beta'],
    totalDuration: null,
    totalCost: 0.02,
    metadata: { env: 'staging' },
    spans: [{ id: 's1', name: 'tool', type: 'TOOL_CALL', ...ok, status: 'ERROR', statusMessage: 'boom' }],
    events: [],
  }),
  makeTrace({
    id: 'D',
    startedAt: at(2),
    tags: ['eu'],
    totalDuration: 900,
    totalCost: 1.25,
    metadata: { env: ['prod'] },
    events: [{ id: 'e1', type: 'ERROR', name: 'crash', timestamp: at(2) }],
  }),
  makeTrace({
    id: 'E',
    startedAt: at(1),
    tags: [],
    totalDuration: 2500,
    totalCost: 0.5,
    metadata: null,
    events: [{ id: 'e1', type: 'RETRY', name: 'again', timestamp: at(1) }],
  }),
];

describe.each(testDatabases())('list filters and sorts on $name', ({ open }) => {
  let db: Database;

  beforeAll(async () => {
    db = await open();
    await truncateAll(db);
    await ingestTraces(testContext(db), parseIngestBody(JSON.stringify({ traces: TRACES }), LIMITS));
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => {
    useDatabase(db);
  });

  async function ids(query: string): Promise<string[]> {
    const list = await listTraces(testContext(db), parseListParams(new URLSearchParams(`${query}&limit=100`)));
    expect(list.total, query).toBe(list.traces.length);
    return list.traces.map((t) => t.id);
  }

  it.each([
    ['tag=prod', ['A', 'B', 'C']],
    ['tag=prod&tag=eu', ['A', 'C']],
    ['tag=eu&tag=beta&tag=prod', ['C']],
    ['tag=prod&tag=nope', []],
    [`from=${at(2)}&to=${at(4)}`, ['C', 'D']],
    ['minDurationMs=900', ['B', 'D', 'E']],
    ['maxDurationMs=900', ['A', 'D']],
    ['minDurationMs=100&maxDurationMs=100', ['A']],
    ['minCost=0.5', ['A', 'D', 'E']],
    ['maxCost=0.5', ['A', 'C', 'E']],
    ['minCost=0.02&maxCost=0.02', ['C']],
    ['hasErrors=true', ['B', 'C', 'D']],
    ['hasErrors=false', ['A', 'E']],
    ['metadata.env=prod', ['A', 'B']],
    ['metadata.env=staging', ['C']],
    ['metadata.attempt=2', ['A']],
    ['metadata.vip=true', ['B']],
    ['metadata.env=prod&metadata.vip=true', ['B']],
    ['metadata.missing=x', []],
    ['tag=prod&hasErrors=true&minDurationMs=1000', ['B']],
    ['tag=eu&maxCost=1&metadata.env=prod', ['A']],
  ])('%s → %j', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it.each([
    ['', ['A', 'B', 'C', 'D', 'E']],
    ['order=asc', ['E', 'D', 'C', 'B', 'A']],
    ['sort=startedAt&order=desc', ['A', 'B', 'C', 'D', 'E']],
    // Ties (B and E: 2500) break on the id in the same direction; no duration comes last.
    ['sort=duration', ['E', 'B', 'D', 'A', 'C']],
    ['sort=duration&order=asc', ['A', 'D', 'B', 'E', 'C']],
    ['sort=cost', ['D', 'E', 'A', 'C', 'B']],
    ['sort=cost&order=asc', ['C', 'A', 'E', 'D', 'B']],
    ['sort=cost&tag=prod', ['A', 'C', 'B']],
  ])('sorted %s → %j', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('pages a sort without overlap or gaps', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const list = await listTraces(testContext(db), parseListParams(new URLSearchParams(`sort=duration&limit=2&page=${page}`)));
      pages.push(...list.traces.map((t) => t.id));
    }
    expect(pages).toEqual(['E', 'B', 'D', 'A', 'C']);
  });

  it.each([
    ['minDurationMs=abc', 'Invalid minDurationMs parameter: must be a non-negative number'],
    ['maxDurationMs=-1', 'Invalid maxDurationMs parameter: must be a non-negative number'],
    ['minCost=1e999', 'Invalid minCost parameter: must be a non-negative number'],
    ['maxCost=%20', null],
    ['minCost=2&maxCost=1', 'Invalid minCost parameter: must not be greater than maxCost'],
    ['minDurationMs=2&maxDurationMs=1', 'Invalid minDurationMs parameter: must not be greater than maxDurationMs'],
    ['hasErrors=yes', 'Invalid hasErrors parameter: must be true or false'],
    ['sort=name', 'Invalid sort parameter: must be one of startedAt, duration, cost'],
    ['order=up', 'Invalid order parameter: must be one of asc, desc'],
    ['metadata.=x', 'Invalid metadata. parameter: needs a key after "metadata." (metadata.<key>=<value>)'],
    ['metadata.env=a&metadata.env=b', 'Invalid metadata.env parameter: give one value per key'],
    ['tag=%00', 'Invalid tag parameter: must not contain a NUL character'],
    ['metadata.big=1e999999', null],
  ])('%s → 400 %s', async (query, message) => {
    const res = await GET(new Request(`http://test/api/traces?${query}`), undefined);
    if (message === null) {
      expect(res.status, await res.clone().text()).toBe(200);
    } else {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: message });
    }
  });
});
