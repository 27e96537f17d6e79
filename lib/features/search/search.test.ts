// Full-text search (`q`) on every test database: each searchable field, values inside
// JSON, any script, literal wildcards and quotes, the matches reported, both search plans
// (index-first and scan-first) giving the same pages, before the indexer has reached the
// traces (queued, tested row by row) and after (their words indexed), and q combined
// with other filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { wordsMatchSql } from '@/lib/features/query/search-sql';
import { indexSearchBacklog } from './search-index';
import { listTraces, type ListOptions } from '@/lib/features/traces/list';
import { parseListParams } from '@/lib/features/query/list-params';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { requeueForSearch } from '@/test/support/derived';
import { raw, sql } from '@/lib/db/sql';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];

// Four traces, each with its own words in a different kind of field. Started one minute
// apart: the list's default order is GERMAN, JAPANESE, QUOTES, PLAIN.
const at = (minute: number) => `2026-02-01T10:0${minute}:00.000Z`;

const GERMAN = makeTrace({
  id: 'german',
  name: 'checkout agent',
  startedAt: at(4),
  endedAt: at(5),
  status: 'ERROR',
  metadata: { customer: 'Müller GmbH', env: 'prod' },
  decisionPoints: [
    {
      id: 'd-cancel',
      type: 'TOOL_SELECTION',
      reasoning: 'Der Kunde möchte die Bestellung stornieren',
      chosen: { tool: 'cancel_order' },
      alternatives: [{ tool: 'refund_order' }, 'escalate'],
      timestamp: at(4),
    },
  ],
  spans: [
    {
      id: 's-root',
      name: 'agent',
      type: 'AGENT',
      status: 'ERROR',
      statusMessage: 'Timeout talking to Zahlungsdienst',
      startedAt: at(4),
    },
    {
      id: 's-lookup',
      parentSpanId: 's-root',
      name: 'lookup_inventory',
      type: 'TOOL_CALL',
      status: 'COMPLETED',
      input: { sku: 'A-1' },
      output: { order: { id: 'ORD-77123', lines: [{ qty: 2 }] } },
      metadata: { region: 'eu-central' },
      startedAt: '2026-02-01T10:04:01.000Z',
    },
  ],
  events: [{ id: 'e-thumb', type: 'USER_FEEDBACK', name: 'user 👍 feedback', metadata: { stars: 5 }, timestamp: at(4) }],
});

const JAPANESE = makeTrace({
  id: 'japanese',
  name: 'support bot',
  startedAt: at(3),
  endedAt: at(4),
  metadata: { env: 'staging' },
  decisionPoints: [],
  spans: [
    {
      id: 's-ja',
      name: 'llm',
      type: 'LLM_CALL',
      status: 'COMPLETED',
      input: { messages: [{ role: 'user', content: '注文番号を教えてください' }] },
      output: 'はい、わかりました',
      startedAt: at(3),
    },
  ],
  events: [{ id: 'e-rocket', type: 'CUSTOM', name: 'launch', metadata: { note: '🚀 shipped' }, timestamp: at(3) }],
});

const QUOTES = makeTrace({
  id: 'quotes',
  name: 'pricing run',
  startedAt: at(2),
  endedAt: at(3),
  metadata: null,
  decisionPoints: [],
  spans: [
    {
      id: 's-q',
      name: 'quote',
      type: 'CUSTOM',
      status: 'COMPLETED',
      output: { text: 'He said "VIP" gets 50% off_code for O\'Brien' },
      startedAt: at(2),
    },
  ],
  events: [],
});

const PLAIN = makeTrace({
  id: 'plain',
  name: 'nightly report',
  startedAt: at(1),
  endedAt: at(2),
  metadata: { env: 'prod' },
  decisionPoints: [],
  spans: [{ id: 's-p', name: 'summarise', type: 'CHAIN', status: 'COMPLETED', output: 'all quiet', startedAt: at(1) }],
  events: [],
});

/** Index-first (the default) and scan-first (a probe cap of 1 makes every term "common"). */
const PLANS: Array<[string, ListOptions]> = [
  ['index-first', {}],
  ['scan-first', { search: { probeCap: 1, walkChunk: 1 } }],
];

describe.each(testDatabases())('full-text search on $name', ({ open }) => {
  let db: Database;

  const seed = async (indexed: boolean) => {
    await truncateAll(db);
    await ingestTraces(testContext(db), parseIngestBody(JSON.stringify({ traces: [GERMAN, JAPANESE, QUOTES, PLAIN] }), LIMITS));
    await requeueForSearch(db);
    if (indexed) expect(await indexSearchBacklog(db.sql)).toEqual({ traces: 4, drained: true });
    const [{ queued, docs }] = await db.sql.query<{ queued: number; docs: number }>(
      sql`SELECT (SELECT count(DISTINCT "traceId") FROM "SearchQueue")::int AS queued, (SELECT count(*) FROM "SearchDoc")::int AS docs`,
    );
    expect({ queued, docs }).toEqual(indexed ? { queued: 0, docs: 4 } : { queued: 4, docs: 0 });
  };

  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });

  const search = (query: string, options: ListOptions = {}) => listTraces(testContext(db), parseListParams(new URLSearchParams(query)), options);
  const ids = async (query: string, options?: ListOptions) => (await search(query, options)).traces.map((t) => t.id);
  const q = (text: string) => `q=${encodeURIComponent(text)}`;

  describe.each([
    ['queued, not yet indexed', false],
    ['indexed', true],
  ])('%s', (_state, indexed) => {
    beforeAll(() => seed(indexed));

    describe.each(PLANS)('%s', (_plan, options) => {
      it.each([
        // [query, traces found, the first match's kind and field]
        ['checkout', ['german'], 'trace', 'name'],
        ['müller gmbh', ['german'], 'trace', 'metadata'],
        ['MÜLLER', ['german'], 'trace', 'metadata'],
        ['lookup_inventory', ['german'], 'span', 'name'],
        ['a-1', ['german'], 'span', 'input'],
        ['ORD-77123', ['german'], 'span', 'output'],
        ['ord-77', ['german'], 'span', 'output'],
        ['zahlungsdienst', ['german'], 'span', 'statusMessage'],
        ['eu-central', ['german'], 'span', 'metadata'],
        ['BESTELLUNG', ['german'], 'decision', 'reasoning'],
        ['möchte', ['german'], 'decision', 'reasoning'],
        ['cancel_order', ['german'], 'decision', 'chosen'],
        ['refund_order', ['german'], 'decision', 'alternatives'],
        ['escalate', ['german'], 'decision', 'alternatives'],
        ['👍', ['german'], 'event', 'name'],
        ['"stars": 5', ['german'], 'event', 'metadata'],
        ['注文番号', ['japanese'], 'span', 'input'],
        ['番号', ['japanese'], 'span', 'input'],
        ['わかりました', ['japanese'], 'span', 'output'],
        ['🚀', ['japanese'], 'event', 'metadata'],
        ['"VIP"', ['quotes'], 'span', 'output'],
        ['50%', ['quotes'], 'span', 'output'],
        ['off_code', ['quotes'], 'span', 'output'],
        ["O'Brien", ['quotes'], 'span', 'output'],
      ])('%j finds %j in the %s %s', async (text, expected, kind, field) => {
        const list = await search(q(text), options);
        expect(list.traces.map((t) => t.id)).toEqual(expected);
        expect(list.total).toBe(expected.length);
        const first = list.traces[0].matches?.[0];
        expect(first).toMatchObject({ kind, field });
        // The snippet is the stored text: inside a JSON string a quote shows escaped.
        const snippet = first?.snippet.toLowerCase() ?? '';
        expect([text, JSON.stringify(text).slice(1, -1)].some((form) => snippet.includes(form.toLowerCase())), snippet).toBe(true);
      });

      it('treats %, _ and \\ as literal characters and finds nothing that is absent', async () => {
        expect(await ids(q('cancel%order'), options)).toEqual([]);
        expect(await ids(q('cancel_orde_'), options)).toEqual([]);
        expect(await ids(q('50%'), options)).toEqual(['quotes']);
        expect(await ids(q('%'), options)).toEqual(['quotes']);
        expect(await ids(q('_'), options)).toEqual(expect.arrayContaining(['german', 'quotes']));
        expect(await ids(q('\\'), options)).toEqual(['quotes']); // the escaped quotes of "VIP" in the JSON text
        expect(await ids(q('nothing like this anywhere'), options)).toEqual([]);
        expect(await ids(q('日本語'), options)).toEqual([]);
      });

      it('combines q with every other filter, and pages in the list order', async () => {
        expect(await ids(`${q('env')}&status=ERROR`, options)).toEqual(['german']);
        expect(await ids(`${q('prod')}&metadata.env=prod`, options)).toEqual(['german', 'plain']);
        expect(await ids(`${q('prod')}&sort=startedAt&order=asc`, options)).toEqual(['plain', 'german']);
        expect(await ids(`${q('a')}&limit=2`, options)).toEqual(['german', 'japanese']);
        expect(await ids(`${q('a')}&limit=2&page=2`, options)).toEqual(['quotes', 'plain']);
        // `search` keeps the spec's meaning: the trace name only.
        expect(await ids('search=ORD-77123', options)).toEqual([]);
        expect(await ids('search=checkout&q=checkout', options)).toEqual(['german']);
      });
    });
  });

  it('reports at most three matches per trace, the trace first, then spans, decisions and events in time order', async () => {
    const [german] = (await search(q('e'))).traces.filter((t) => t.id === 'german');
    expect(german.matches).toHaveLength(3);
    expect(german.matches?.map((m) => [m.kind, m.id, m.field])).toEqual([
      ['trace', 'german', 'name'],
      ['trace', 'german', 'metadata'],
      ['span', 's-root', 'name'],
    ]);
    const [japanese] = (await search(q('launch'))).traces;
    expect(japanese.matches).toEqual([{ kind: 'event', id: 'e-rocket', field: 'name', snippet: 'launch' }]);
  });

  it('cuts long snippets around the match and marks the cuts', async () => {
    const long = makeTrace({
      id: 'long',
      startedAt: at(0),
      spans: [{ id: 's-long', name: 'x', type: 'CUSTOM', status: 'COMPLETED', output: `${'a'.repeat(500)} NEEDLE ${'b'.repeat(500)}`, startedAt: at(0) }],
      decisionPoints: [],
      events: [],
    });
    await ingestTraces(testContext(db), parseIngestBody(JSON.stringify({ traces: [long] }), LIMITS));
    const [hit] = (await search(q('needle'))).traces;
    const snippet = hit.matches?.[0].snippet ?? '';
    expect(snippet).toMatch(/^…a+ NEEDLE b+…$/);
    expect(snippet.length).toBeLessThan(200);
  });

  it('estimates the total when the scan-first plan stops before the end, and says so', async () => {
    const exact = await search(`${q('a')}&limit=1`);
    expect(exact.totalExact).toBe(true);
    const scanned = await search(`${q('a')}&limit=1`, { search: { probeCap: 1, walkChunk: 1 } });
    expect(scanned.traces.map((t) => t.id)).toEqual(exact.traces.map((t) => t.id));
    expect(scanned.totalExact).toBe(false);
    expect(scanned.total).toBeGreaterThanOrEqual(1);
    // Without q there is no estimate and no matches.
    const plain = await search('limit=1');
    expect(plain.totalExact).toBeUndefined();
    expect(plain.traces[0].matches).toBeUndefined();
  });

  it('looks candidates up through the words index', async () => {
    // The probe's condition must be one the trigram index of "SearchDoc" serves, or every
    // search reads every trace's words. (On tables this small the planner prefers a scan unless told otherwise.)
    const words = wordsMatchSql(raw('d."words"'), 'ORD-77123');
    const query = sql`EXPLAIN SELECT d."traceId" FROM "SearchDoc" d WHERE ${words}`;
    const plan = await db.sql.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off');
      return tx.query<{ 'QUERY PLAN': string }>(query.text, query.values);
    });
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('SearchDoc_words_trgm_idx');
  });

  it('refuses a q longer than 200 characters, naming the parameter', () => {
    expect(() => parseListParams(new URLSearchParams(q('é'.repeat(201))))).toThrow('Invalid q parameter: must be at most 200 characters');
    expect(parseListParams(new URLSearchParams(q('🚀'.repeat(200)))).q).toBe('🚀'.repeat(200));
  });
});
