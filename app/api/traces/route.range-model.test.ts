// The list's `range` (a window ending at the request) and `model` filters, and
// GET /api/traces/suggest, through the real route handlers on every test database.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GET } from '@/app/api/traces/route';
import { GET as suggest } from '@/app/api/traces/suggest/route';
import { GET as exportRoute } from '@/app/api/traces/export/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { parseListParams } from '@/lib/features/query/list-params';
import { testContext } from '@/test/support/context';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const llm = (model: string) => ({ id: 'm', name: 'llm', type: 'LLM_CALL', status: 'COMPLETED', startedAt: ago(0), metadata: { model } });

// Started: 10 min, 50 min, 3 h, 2 days, 20 days and 40 days before NOW.
const TRACES = [
  makeTrace({ id: 'T10m', startedAt: ago(10 * MIN), endedAt: null, spans: [llm('gpt-4o')], decisionPoints: [], events: [] }),
  makeTrace({ id: 'T50m', startedAt: ago(50 * MIN), endedAt: null, spans: [llm('claude-3')], decisionPoints: [], events: [] }),
  makeTrace({ id: 'T3h', startedAt: ago(180 * MIN), endedAt: null, spans: [llm('gpt-4o')], decisionPoints: [], events: [] }),
  makeTrace({ id: 'T2d', startedAt: ago(2 * 1440 * MIN), endedAt: null, spans: [], decisionPoints: [], events: [] }),
  makeTrace({ id: 'T20d', startedAt: ago(20 * 1440 * MIN), endedAt: null, spans: [llm('gpt-4o-mini')], decisionPoints: [], events: [] }),
  makeTrace({ id: 'T40d', startedAt: ago(40 * 1440 * MIN), endedAt: null, spans: [], decisionPoints: [], events: [] }),
];

describe('parseListParams: range and model', () => {
  it('keeps range as given (resolved per request, not here) and model exactly', () => {
    expect(parseListParams(new URLSearchParams('range=1h&model=%20gpt%20'))).toEqual({ page: 1, limit: 20, range: '1h', model: ' gpt ' });
    for (const range of ['15m', '1h', '24h', '7d', '30d']) expect(parseListParams(new URLSearchParams(`range=${range}`)).range).toBe(range);
    expect(parseListParams(new URLSearchParams('range=&model='))).toEqual({ page: 1, limit: 20 });
  });
});

describe.each(testDatabases())('range, model and suggest routes on $name', ({ open }) => {
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
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function ids(query: string): Promise<string[]> {
    const res = await GET(new Request(`http://test/api/traces?${query}&limit=100`), undefined);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { traces: { id: string }[]; total: number };
    expect(body.total).toBe(body.traces.length);
    return body.traces.map((t) => t.id);
  }

  it.each([
    ['range=15m', ['T10m']],
    ['range=1h', ['T10m', 'T50m']],
    ['range=24h', ['T10m', 'T50m', 'T3h']],
    ['range=7d', ['T10m', 'T50m', 'T3h', 'T2d']],
    ['range=30d', ['T10m', 'T50m', 'T3h', 'T2d', 'T20d']],
    ['model=gpt-4o', ['T10m', 'T3h']],
    ['model=gpt-4o&range=1h', ['T10m']],
    ['model=gpt', []],
    ['model=claude-3&status=COMPLETED', ['T50m']],
  ])('%s → %j', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('resolves range when each request is served: the same link, later, covers a later window', async () => {
    expect(await ids('range=1h')).toEqual(['T10m', 'T50m']);
    vi.setSystemTime(NOW + 30 * MIN);
    expect(await ids('range=1h')).toEqual(['T10m']);
  });

  it('filters the export by range and model too', async () => {
    const res = await exportRoute(new Request('http://test/api/traces/export?format=ndjson&range=1h&model=gpt-4o'), undefined);
    expect(res.status).toBe(200);
    const lines = (await res.text()).trimEnd().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    expect(lines).toEqual(['T10m']);
  });

  it.each([
    ['range=2h', 'Invalid range parameter: must be one of 15m, 1h, 24h, 7d, 30d'],
    ['range=1H', 'Invalid range parameter: must be one of 15m, 1h, 24h, 7d, 30d'],
    [`range=1h&from=${encodeURIComponent(ago(MIN))}`, 'Invalid range parameter: give range or from/to, not both'],
    [`range=1h&to=${encodeURIComponent(ago(MIN))}`, 'Invalid range parameter: give range or from/to, not both'],
    ['model=a%00', 'Invalid model parameter: must not contain a NUL character'],
  ])('%s → 400 %s', async (query, message) => {
    const res = await GET(new Request(`http://test/api/traces?${query}`), undefined);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
  });

  it('GET /api/traces/suggest answers {values}, or 400 with {error}', async () => {
    const ok = await suggest(new Request('http://test/api/traces/suggest?field=model&q=gpt-4o'), undefined);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ values: ['gpt-4o', 'gpt-4o-mini'] });
    const bad = await suggest(new Request('http://test/api/traces/suggest?field=status'), undefined);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Invalid field parameter: must be one of name, tag, sessionId, userId, model' });
  });
});
