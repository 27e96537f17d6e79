// GET /api/traces/export through the route handler, on every test database: NDJSON rows
// are the list's rows and `include=children` lines the detail's traces, for the same
// filters; CSV reads back with a real CSV parser, tricky values included; empty exports;
// the 400s. Streaming and batching: export.stream.test.ts.
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as detail } from '@/app/api/traces/[id]/route';
import { GET as list } from '@/app/api/traces/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { insightsDataset, WINDOW, type DatasetIds } from '@/test/support/insights-dataset';
import { CSV_COLUMNS, CSV_HEADER } from '@/lib/features/traces/export/export';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import type { TraceListItem } from '@/lib/features/traces/types';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { GET } from './route';
import { testContext } from '@/test/support/context';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const BASE = 'http://test';

const exportOf = (query: string) => GET(new Request(`${BASE}/api/traces/export?${query}`), undefined);

/**
 * Every row of the list for a query, all pages, as GET /api/traces returns them; without
 * a `q` search's `matches`, which the export leaves out.
 */
async function listRows(query: string): Promise<TraceListItem[]> {
  const rows: TraceListItem[] = [];
  for (let page = 1; ; page++) {
    const res = await list(new Request(`${BASE}/api/traces?${query}&limit=100&page=${page}`), undefined);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { traces: TraceListItem[]; totalPages: number };
    // The page's search matches and row previews are the list's, not the trace's: the export leaves them out.
    rows.push(
      ...body.traces.map(({ matches, inputPreview, outputPreview, models, scoreSummary, ...row }) => (void matches, void inputPreview, void outputPreview, void models, void scoreSummary, row)),
    );
    if (page >= body.totalPages) return rows;
  }
}

async function ndjson(query: string): Promise<unknown[]> {
  const res = await exportOf(query);
  expect(res.status, await res.clone().text()).toBe(200);
  const text = await res.text();
  if (text === '') return [];
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as unknown);
}

// Quotes, commas, CR/LF, a leading "=" (a spreadsheet formula), tabs, German, Japanese,
// emoji (outside the BMP), right-to-left text.
const TRICKY_NAME = 'say "hi", then\r\nleave; =SUM(A1)\tÄrger über 東京の注文 🚀 שלום';
const TRICKY_METADATA = { 'k,"ey"': 'line1\nline2', nested: { emoji: '🙂', ja: 'ログ', quote: '"', n: 1.5 }, list: [1, 'a,b'] };

describe.each(testDatabases())('GET /api/traces/export on $name', ({ open }) => {
  let db: Database;
  let T: DatasetIds;
  let tricky: string;
  let bare: string;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    db = await open();
    await truncateAll(db);
    const dataset = insightsDataset();
    T = dataset.ids;
    await ingestTraces(testContext(db), parseIngestBody(dataset.body, LIMITS));
    const trickyTrace = makeTrace({
      name: TRICKY_NAME,
      sessionId: 'sess "quoted", with comma',
      tags: ['a,b', 'c"d', 'ünï', '🏷️'],
      metadata: TRICKY_METADATA,
      startedAt: '2026-02-01T00:00:00.000Z',
    });
    // No optional field at all: nulls everywhere, an empty tag list.
    const bareTrace = { id: `bare-${Date.now()}`, name: 'bare', status: 'RUNNING', startedAt: '2026-02-01T00:00:00.000Z', tags: [], decisionPoints: [], spans: [], events: [] };
    tricky = trickyTrace.id as string;
    bare = bareTrace.id;
    // The number as written (1.0) must reach an include=children line as the detail sends it.
    const body = JSON.stringify({ traces: [trickyTrace, bareTrace] }).replace('"n":1.5', '"n":1.50');
    await ingestTraces(testContext(db), parseIngestBody(body, LIMITS));
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

  const FILTERS = [
    '',
    'status=ERROR',
    `from=${WINDOW.from}&to=${WINDOW.to}`,
    'tag=prod',
    'name=checkout',
    'search=CHECK',
    'sessionId=s1',
    'decisionType=TOOL_SELECTION',
    'chosen=search',
    'decisionType=ESCALATION&status=COMPLETED',
    `search=${encodeURIComponent('東京')}`,
    `q=${encodeURIComponent('東京の')}`,
    'q=weather',
    'q=weather&status=ERROR&tag=prod',
    `q=${encodeURIComponent('"quote"')}`,
  ];

  it.each(FILTERS)('NDJSON lines are the list rows for "%s", in the list order', async (query) => {
    const expected = await listRows(query);
    expect(await ndjson(query)).toEqual(expected);
    if (query === 'chosen=search') expect(expected.map((r) => r.id)).toEqual([T.T6, T.T2, T.T1]);
  });

  it('filters apply: an export holds exactly the matching traces', async () => {
    const ids = async (q: string) => ((await ndjson(q)) as TraceListItem[]).map((r) => r.id);
    expect(await ids(`from=${WINDOW.from}&to=${WINDOW.to}`)).toEqual([T.T4, T.T3, T.T2, T.T1, T.T5]);
    expect(await ids('status=ERROR')).toEqual([T.T6, T.T3, T.T2]);
    expect(await ids(`search=${encodeURIComponent('über')}`)).toEqual([tricky]);
    expect((await ids('')).length).toBe(9);
    // Full-text search: the text is in the tricky trace's metadata, and in no other trace.
    expect(await ids(`q=${encodeURIComponent('ログ')}`)).toEqual([tricky]);
    expect(await ids('q=nothing%20says%20this')).toEqual([]);
  });

  it.each(['', 'status=ERROR', 'name=checkout&tag=prod'])('include=children lines are the traces GET /api/traces/{id} returns ("%s")', async (query) => {
    const rows = await listRows(query);
    const lines = (await ndjson(`${query}&include=children`)) as { id: string }[];
    expect(lines.map((l) => l.id)).toEqual(rows.map((r) => r.id));
    for (const line of lines) {
      const res = await detail(new Request(`${BASE}/api/traces/${encodeURIComponent(line.id)}`), { params: Promise.resolve({ id: line.id }) });
      expect(line).toEqual(((await res.json()) as { trace: unknown }).trace);
    }
  });

  it('include=children sends the database text as the detail does (numbers keep their digits)', async () => {
    const res = await exportOf(`search=${encodeURIComponent('über')}&include=children`);
    const text = await res.text();
    expect(text.split('\n')).toHaveLength(2);
    expect(text).toContain('"n": 1.50');
    const one = await detail(new Request(`${BASE}/api/traces/${tricky}`), { params: Promise.resolve({ id: tricky }) });
    expect(JSON.parse(text)).toEqual(((await one.json()) as { trace: unknown }).trace);
  });

  it('CSV: a header, one row per trace, nested fields as JSON, parsed back by csv-parse', async () => {
    const res = await exportOf('format=csv');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await res.text();
    expect(text.startsWith(`${CSV_HEADER.join(',')}\r\n`)).toBe(true);
    const records = parse(text, { columns: true, relax_column_count: false }) as Record<string, string>[];
    const rows = await listRows('');
    expect(records).toHaveLength(rows.length);
    expect(records.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    for (const [i, row] of rows.entries()) {
      const record = records[i];
      expect(Object.keys(record)).toEqual([...CSV_HEADER]);
      expect(record.scores).toBe('[]');
      for (const column of CSV_COLUMNS) {
        const value = row[column];
        if (value === null) expect(record[column], column).toBe('');
        else if (typeof value === 'object') expect(JSON.parse(record[column]), column).toEqual(value);
        else expect(record[column], column).toBe(String(value));
      }
    }
    const t = records.find((r) => r.id === tricky)!;
    expect(t.name).toBe(TRICKY_NAME);
    expect(t.sessionId).toBe('sess "quoted", with comma');
    expect(JSON.parse(t.tags)).toEqual(['a,b', 'c"d', 'ünï', '🏷️']);
    expect(JSON.parse(t.metadata)).toEqual(TRICKY_METADATA);
    expect(JSON.parse(t._count)).toEqual({ decisionPoints: 1, spans: 2, events: 1 });
    const b = records.find((r) => r.id === bare)!;
    expect(b).toMatchObject({ sessionId: '', metadata: '', totalCost: '', endedAt: '', tags: '[]' });
  });

  it('CSV honours the filters like NDJSON', async () => {
    const records = parse(await (await exportOf('format=csv&status=ERROR&tag=prod')).text(), { columns: true }) as { id: string }[];
    expect(records.map((r) => r.id)).toEqual((await listRows('status=ERROR&tag=prod')).map((r) => r.id));
  });

  it('an empty result: the header alone (CSV), an empty body (NDJSON), still 200 and a download', async () => {
    const csv = await exportOf('format=csv&name=nothing-has-this-name');
    expect(csv.status).toBe(200);
    expect(await csv.text()).toBe(`${CSV_HEADER.join(',')}\r\n`);
    for (const q of ['name=nothing-has-this-name', 'name=nothing-has-this-name&include=children']) {
      const res = await exportOf(q);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-ndjson');
      expect(await res.text()).toBe('');
    }
  });

  it('answers as a download with a sensible name, never cached', async () => {
    const cases = [
      ['format=ndjson', 'application/x-ndjson', /^attachment; filename="crossroads-traces-\d{8}T\d{6}Z\.ndjson"$/],
      ['', 'application/x-ndjson', /^attachment; filename="crossroads-traces-\d{8}T\d{6}Z\.ndjson"$/],
      ['format=csv', 'text/csv; charset=utf-8', /^attachment; filename="crossroads-traces-\d{8}T\d{6}Z\.csv"$/],
      ['include=children', 'application/x-ndjson', /^attachment; filename="crossroads-traces-with-children-\d{8}T\d{6}Z\.ndjson"$/],
    ] as const;
    for (const [query, type, disposition] of cases) {
      const res = await exportOf(query);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toMatch(disposition);
      expect(res.headers.get('cache-control')).toBe('no-store');
      await res.body?.cancel();
    }
  });

  it('refuses an invalid format or include with a 400 naming the parameter', async () => {
    const cases = [
      ['format=xml', 'Invalid format parameter: must be one of ndjson, csv'],
      ['format=NDJSON', 'Invalid format parameter: must be one of ndjson, csv'],
      ['include=spans', 'Invalid include parameter: must be children'],
      ['format=csv&include=children', 'Invalid include parameter: children is only available with format=ndjson'],
    ];
    for (const [query, error] of cases) {
      const res = await exportOf(query);
      expect({ query, status: res.status, body: await res.json() }).toEqual({ query, status: 400, body: { error } });
    }
  });

  it('refuses invalid filters with the list’s 400s, word for word', async () => {
    for (const query of ['status=DONE', 'from=yesterday', 'decisionType=GUESS', `chosen=${'x'.repeat(201)}`, 'name=a%00b', `from=${WINDOW.to}&to=${WINDOW.from}`]) {
      const [fromList, fromExport] = [await list(new Request(`${BASE}/api/traces?${query}`), undefined), await exportOf(query)];
      expect(fromList.status, query).toBe(400);
      expect({ status: fromExport.status, body: await fromExport.json() }).toEqual({ status: 400, body: await fromList.json() });
    }
  });

  it('ignores the list’s paging: an export is every match', async () => {
    expect(await ndjson('page=3&limit=1')).toHaveLength(9);
  });
});
