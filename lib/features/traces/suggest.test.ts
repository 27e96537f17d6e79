// GET /api/traces/suggest's verb: its parameters' rules, each field's distinct values by
// prefix, and the derived "TraceTag" and "TraceModel" rows staying exact through inserts,
// updates and deletes; the migration's span_model() agrees with spanModelOf.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { sql } from '@/lib/db/sql';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { contextAs, testContext } from '@/test/support/context';
import { parseSuggestParams, prefixEnd, suggestValues } from './suggest';
import { spanModelOf } from './span-model';
import type { JsonValue } from './types';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const parse = (q: string) => parseSuggestParams(new URLSearchParams(q));

describe('parseSuggestParams', () => {
  it('reads field, q and limit, with defaults', () => {
    expect(parse('field=name')).toEqual({ field: 'name', q: '', limit: 10 });
    expect(parse('field=model&q=gpt&limit=50')).toEqual({ field: 'model', q: 'gpt', limit: 50 });
    expect(parse('field=tag&q=%20a%20')).toEqual({ field: 'tag', q: ' a ', limit: 10 });
  });
  it.each([
    ['', 'Invalid field parameter: must be one of name, tag, sessionId, userId, model'],
    ['field=status', 'Invalid field parameter: must be one of name, tag, sessionId, userId, model'],
    ['field=name&limit=0', 'Invalid limit parameter: must be a whole number from 1 to 50'],
    ['field=name&limit=51', 'Invalid limit parameter: must be a whole number from 1 to 50'],
    ['field=name&limit=1.5', 'Invalid limit parameter: must be a whole number from 1 to 50'],
    ['field=name&q=a%00', 'Invalid q parameter: must not contain a NUL character'],
    [`field=name&q=${'x'.repeat(1001)}`, 'Invalid q parameter: must be at most 1000 characters'],
  ])('%s → %s', (q, message) => {
    expect(() => parse(q)).toThrow(message);
  });
});

describe('prefixEnd', () => {
  it('raises the last code point, skipping surrogates and dropping U+10FFFF', () => {
    expect(prefixEnd('abc')).toBe('abd');
    expect(prefixEnd('a\u{D7FF}')).toBe('a\u{E000}');
    expect(prefixEnd('a\u{10FFFF}')).toBe('b');
    expect(prefixEnd('\u{10FFFF}')).toBeNull();
    expect(prefixEnd('😀')).toBe('😁');
  });
});

const llm = (id: string, metadata: Record<string, JsonValue>) => ({
  id,
  name: 'llm',
  type: 'LLM_CALL',
  status: 'COMPLETED',
  startedAt: '2026-01-02T03:04:05.200Z',
  metadata,
});

const TRACES = [
  makeTrace({ id: 'A', name: 'checkout', sessionId: 'sess-a', userId: 'alice', tags: ['prod', 'eu'], spans: [llm('m1', { model: 'gpt-4o' }), llm('m2', { 'gen_ai.request.model': 'claude-3' })], decisionPoints: [], events: [] }),
  makeTrace({ id: 'B', name: 'checkout', sessionId: 'sess-b', userId: 'bob', tags: ['prod'], spans: [llm('m1', { model: 'gpt-4o' })], decisionPoints: [], events: [] }),
  makeTrace({ id: 'C', name: 'Checkout v2', sessionId: 'sess-a', userId: null, tags: ['beta', 'prod-eu'], spans: [llm('m1', { model: 'gpt-4o-mini' })], decisionPoints: [], events: [] }),
  makeTrace({ id: 'D', name: 'chat', sessionId: null, userId: 'alice', tags: [], spans: [], decisionPoints: [], events: [] }),
];

describe.each(testDatabases())('suggestValues on $name', ({ open }) => {
  let db: Database;
  const suggest = async (q: string) => (await suggestValues(testContext(db), parse(q))).values;

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

  it('needs the read scope', async () => {
    const anonymous = contextAs(db, { mode: 'protected', keysOnly: false, credential: { kind: 'none' } });
    await expect(suggestValues(anonymous, parse('field=name'))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each([
    ['field=name', ['Checkout v2', 'chat', 'checkout']],
    ['field=name&q=ch', ['chat', 'checkout']],
    ['field=name&q=checkout', ['checkout']],
    ['field=name&q=C', ['Checkout v2']],
    ['field=name&q=x', []],
    ['field=name&limit=1', ['Checkout v2']],
    ['field=sessionId', ['sess-a', 'sess-b']],
    ['field=sessionId&q=sess-b', ['sess-b']],
    ['field=userId', ['alice', 'bob']],
    ['field=tag', ['beta', 'eu', 'prod', 'prod-eu']],
    ['field=tag&q=prod', ['prod', 'prod-eu']],
    ['field=tag&q=prod-', ['prod-eu']],
    ['field=model', ['claude-3', 'gpt-4o', 'gpt-4o-mini']],
    ['field=model&q=gpt-4o&limit=1', ['gpt-4o']],
  ])('%s → %j', async (q, expected) => {
    expect(await suggest(q)).toEqual(expected);
  });

  it('keeps tags exact through updates and deletes', async () => {
    await db.sql.query(sql`UPDATE "Trace" SET "tags" = ARRAY['beta', 'gamma'] WHERE "id" = 'C'`);
    expect(await suggest('field=tag')).toEqual(['beta', 'eu', 'gamma', 'prod']);
    await db.sql.query(sql`DELETE FROM "Trace" WHERE "id" = 'C'`);
    expect(await suggest('field=tag')).toEqual(['eu', 'prod']);
    const rows = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "TraceTag"`);
    expect(rows[0].n).toBe(3);
  });

  it('keeps models exact through span updates and deletes, and lists a trace once per model', async () => {
    await db.sql.query(sql`UPDATE "Span" SET "metadata" = '{"model": "gpt-5"}'::jsonb WHERE "traceId" = 'B' AND "id" = 'm1'`);
    expect(await suggest('field=model')).toEqual(['claude-3', 'gpt-4o', 'gpt-5']);
    await db.sql.query(sql`DELETE FROM "Span" WHERE "traceId" = 'A' AND "id" = 'm2'`);
    expect(await suggest('field=model')).toEqual(['gpt-4o', 'gpt-5']);
    await db.sql.query(sql`UPDATE "Span" SET "type" = 'TOOL_CALL' WHERE "traceId" = 'A' AND "id" = 'm1'`);
    expect(await suggest('field=model')).toEqual(['gpt-5']);
    const rows = await db.sql.query<{ traceId: string; model: string }>(sql`SELECT "traceId", "model" FROM "TraceModel" ORDER BY 1, 2`);
    expect(rows).toEqual([{ traceId: 'B', model: 'gpt-5' }]);
  });

  it("span_model() is spanModelOf's rule", async () => {
    const cases: Array<{ metadata: JsonValue; pricedModel: string | null }> = [
      { metadata: null, pricedModel: null },
      { metadata: null, pricedModel: 'priced' },
      { metadata: { model: '  m  ' }, pricedModel: 'priced' },
      { metadata: { model: '   ' }, pricedModel: 'priced' },
      { metadata: { model: 3 }, pricedModel: null },
      { metadata: { model: 'm', 'ai.model.id': 'ai' }, pricedModel: null },
      { metadata: { 'gen_ai.request.model': 'req', 'gen_ai.response.model': 'res', 'llm.model_name': 'x' }, pricedModel: null },
      { metadata: { 'langfuse.observation.model.name': 'lf', model: 'm' }, pricedModel: null },
      { metadata: { 'ai.response.model': 'r', 'llm.model_name': 'l' }, pricedModel: null },
      { metadata: ['model'], pricedModel: 'p' },
    ];
    for (const c of cases) {
      const [row] = await db.sql.query<{ m: string | null }>(sql`SELECT "span_model"(CAST(${JSON.stringify(c.metadata)} AS jsonb), ${c.pricedModel}) AS m`);
      expect(row.m, JSON.stringify(c)).toBe(spanModelOf(c));
    }
  });
});
