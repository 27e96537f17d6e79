// Model calls priced on both ingest paths, and what the trace and its spans say about
// it: costSource, pricedModel, totalCost (client costs and computed ones, each model call
// once) and unpricedCalls; userId stored, returned and filtered. Every test database.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { calcPrice } from '@pydantic/genai-prices';
import { overviewInsights, parseOverviewParams } from '@/lib/features/insights/overview';
import { planOtlpRequest } from '@/lib/features/otlp/map';
import type { ModelUsage } from '@/lib/features/pricing/types';
import type { Database } from '@/lib/db/open';
import { expectDerivedExact } from '@/test/support/derived';
import { testDatabases } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { span as otlpSpan, MS, START } from '@/test/support/otlp-spans';
import { testContext } from '@/test/support/context';
import { getTraceOrThrow } from './detail';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { listTraces } from './list';
import { parseListParams } from '@/lib/features/query/list-params';
import type { SpanBatchTrace } from '@/lib/features/ingest/span-batch';
import { upsertSpanBatch } from '@/lib/features/ingest/upsert-spans';
import { parseIngestBody, type SpanInput } from '@/lib/features/ingest/validate';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 };
const STARTED = '2026-03-01T10:00:00.000Z';
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** The catalog's own price for a call, in its terms (input includes the cache). */
const catalog = (usage: Record<string, number>, model: string, providerId?: string) =>
  calcPrice(usage, model, { timestamp: new Date(STARTED), ...(providerId && { providerId }) })!.total_price;

const GPT_4O = catalog({ input_tokens: 1000, cache_read_tokens: 800, output_tokens: 100 }, 'gpt-4o', 'openai');
const SONNET = catalog({ input_tokens: 4840, cache_write_tokens: 4735, cache_read_tokens: 100, output_tokens: 255 }, 'claude-sonnet-4-20250514', 'anthropic');

const llm = (id: string, metadata: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  parentSpanId: 'root',
  name: `llm ${id}`,
  type: 'LLM_CALL',
  status: 'COMPLETED',
  startedAt: STARTED,
  metadata,
  ...extra,
});

const OPENAI_CALL = { model: 'gpt-4o', provider: 'openai', usage: { input_tokens: 1000, cache_read_tokens: 800, output_tokens: 100 } };
const ANTHROPIC_CALL = {
  model: 'claude-sonnet-4-20250514',
  provider: 'anthropic',
  usage: { input_tokens: 5, cache_creation_input_tokens: 4735, cache_read_input_tokens: 100, output_tokens: 255 },
};

/** A JSON API trace without totals, whose spans are the given model calls under an agent span. */
function jsonTrace(fields: Record<string, unknown>, calls: Array<Record<string, unknown>>) {
  return makeTrace({
    totalCost: null,
    totalTokens: null,
    startedAt: STARTED,
    decisionPoints: [],
    events: [],
    spans: [{ id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', startedAt: STARTED }, ...calls],
    ...fields,
  });
}

describe.each(testDatabases())('model call pricing on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const ingest = (traces: unknown[]) => ingestTraces(testContext(db), parseIngestBody(JSON.stringify({ traces }), LIMITS));
  const detail = (id: string) => getTraceOrThrow(testContext(db), id);
  const spanOf = async (traceId: string, spanId: string) => (await detail(traceId)).spans.find((s) => s.id === spanId)!;

  it('JSON API: prices model calls from their metadata; the client cost wins; unknown models stay unpriced and are counted', async () => {
    const user = uid('user');
    const id = uid('priced');
    await ingest([
      jsonTrace({ id, userId: user }, [
        llm('openai', OPENAI_CALL),
        llm('anthropic', ANTHROPIC_CALL),
        llm('client', OPENAI_CALL, { costUsd: 0.25 }),
        llm('mystery', { model: 'mystery-model-7', usage: { input_tokens: 10, output_tokens: 1 } }),
        // The same call as "openai" reported again: priced, not counted in the trace.
        llm('copy', { ...OPENAI_CALL, duplicateOf: 'openai' }),
        // Not model calls: a tool naming a model, and a model call without usage.
        { ...llm('tool', OPENAI_CALL), type: 'TOOL_CALL' },
        llm('bare', { model: 'gpt-4o' }),
      ]),
    ]);
    const trace = await detail(id);
    expect(trace).toMatchObject({ userId: user, unpricedCalls: 1 });
    // Full double precision: the sum of the stored span costs, in span order, exactly.
    expect(trace.totalCost).toBe(GPT_4O + SONNET + 0.25);
    const bySpan = Object.fromEntries(trace.spans.map((s) => [s.id, [s.costUsd, s.costSource, s.pricedModel]]));
    expect(bySpan).toEqual({
      root: [null, null, null],
      openai: [GPT_4O, 'catalog', 'gpt-4o'],
      anthropic: [SONNET, 'catalog', 'claude-sonnet-4-0'],
      client: [0.25, 'client', null],
      mystery: [null, null, null],
      copy: [GPT_4O, 'catalog', 'gpt-4o'],
      tool: [null, null, null],
      bare: [null, null, null],
    });
    expect(GPT_4O).toBeGreaterThan(0);
  });

  it("JSON API: the client's totalCost stands, and a trace without model calls keeps no totalCost", async () => {
    const [sent, none] = [uid('sent'), uid('none')];
    await ingest([
      jsonTrace({ id: sent, totalCost: 9 }, [llm('openai', OPENAI_CALL), llm('mystery', { model: 'mystery-model-7', usage: { input_tokens: 1 } })]),
      jsonTrace({ id: none }, [llm('client', null, { costUsd: 0.5 })]),
    ]);
    expect(await detail(sent)).toMatchObject({ totalCost: 9, unpricedCalls: 1, userId: null });
    expect((await spanOf(sent, 'openai')).costUsd).toBe(GPT_4O);
    expect(await detail(none)).toMatchObject({ totalCost: null, unpricedCalls: 0 });
    expect(await spanOf(none, 'client')).toMatchObject({ costUsd: 0.5, costSource: 'client', pricedModel: null });
  });

  it('JSON API: MODEL_PRICES_FILE prices override the catalog', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'prices-')), 'prices.json');
    writeFileSync(file, JSON.stringify([{ pattern: '^gpt-4o$', inputPerMillion: 2, outputPerMillion: 8, cacheReadPerMillion: 1 }]));
    vi.stubEnv('MODEL_PRICES_FILE', file);
    const id = uid('custom');
    await ingest([jsonTrace({ id }, [llm('openai', OPENAI_CALL), llm('anthropic', ANTHROPIC_CALL)])]);
    const custom = (200 * 2 + 800 * 1 + 100 * 8) / 1e6;
    expect(await spanOf(id, 'openai')).toMatchObject({ costUsd: custom, costSource: 'custom', pricedModel: '^gpt-4o$' });
    expect(await spanOf(id, 'anthropic')).toMatchObject({ costUsd: SONNET, costSource: 'catalog' });
    expect((await detail(id)).totalCost).toBe(custom + SONNET);
  });

  it('insights add computed costs, from rollups and raw alike', async () => {
    // An hour of its own: no other test writes there.
    const id = uid('insights');
    await ingest([jsonTrace({ id, startedAt: '2031-05-05T10:30:00.000Z' }, [llm('openai', OPENAI_CALL, { startedAt: '2031-05-05T10:30:00.000Z' })])]);
    const { totalCost } = await detail(id);
    expect(totalCost).toBeGreaterThan(0);
    for (const query of ['from=2031-05-05T10:00:00Z&to=2031-05-05T11:00:00Z', `from=2031-05-05T10:00:00Z&to=2031-05-05T11:00:00Z&name=support-agent%20run`]) {
      const overview = await overviewInsights(testContext(db), parseOverviewParams(new URLSearchParams(query), new Date('2031-05-06T00:00:00Z')));
      expect(overview.totals.costUsd, query).toBe(totalCost);
    }
  });

  it('lists and filters by userId exactly', async () => {
    const user = uid('user');
    const ids = [uid('u'), uid('u'), uid('u')];
    await ingest([
      jsonTrace({ id: ids[0], userId: user, startedAt: '2026-03-01T10:00:00.000Z' }, []),
      jsonTrace({ id: ids[1], userId: `${user}-other`, startedAt: '2026-03-01T10:01:00.000Z' }, []),
      jsonTrace({ id: ids[2], userId: user, startedAt: '2026-03-01T10:02:00.000Z' }, [llm('mystery', { model: 'mystery-model-7', usage: { input_tokens: 1 } })]),
    ]);
    const list = await listTraces(testContext(db), parseListParams(new URLSearchParams({ userId: user })));
    expect(list.total).toBe(2);
    expect(list.traces.map((t) => [t.id, t.userId, t.unpricedCalls])).toEqual([
      [ids[2], user, 1],
      [ids[0], user, 0],
    ]);
    expect(parseListParams(new URLSearchParams({ userId: '' })).userId).toBeUndefined();
  });

  describe('OTLP store', () => {
    const usage = (over: Partial<ModelUsage> = {}): ModelUsage => ({
      inputTokens: 1000,
      cacheReadTokens: 800,
      outputTokens: 100,
      inputIncludesCache: true,
      model: 'gpt-4o',
      provider: 'openai',
      ...over,
    });
    const at = new Date(STARTED);
    const span = (id: string, parent: string | null, over: Partial<SpanInput> = {}): SpanInput => ({
      id,
      parentSpanId: parent,
      name: `op ${id}`,
      type: 'LLM_CALL',
      input: null,
      output: null,
      tokenCount: 1100,
      costUsd: null,
      durationMs: 1,
      status: 'COMPLETED',
      statusMessage: null,
      startedAt: at,
      endedAt: at,
      metadata: null,
      ...over,
    });
    const request = (traceId: string, spans: SpanInput[], userId?: string): SpanBatchTrace => ({
      traceId,
      spans,
      events: [],
      decisionPoints: [],
      root: spans.some((s) => s.parentSpanId === null)
        ? { name: 'run', status: 'COMPLETED', endedAt: at, totalDuration: 1, metadata: null, userId: userId ?? null }
        : null,
      provisionalName: spans[0].name,
      sessionId: null,
      tags: null,
    });
    const limits = { maxChildrenPerTrace: 10_000 };

    it('adds computed and client costs once per model call, over requests in any order and resent', async () => {
      const traceId = hex(16);
      const [root, a, b, copy, mystery] = [hex(8), hex(8), hex(8), hex(8), hex(8)];
      const spans = {
        a: span(a, root, { usage: usage() }),
        b: span(b, root, { costUsd: 0.125, usage: usage() }),
        copy: span(copy, a, { usage: usage(), metadata: { duplicateOf: a } }),
        mystery: span(mystery, root, { tokenCount: 11, usage: usage({ model: 'mystery-model-7', cacheReadTokens: undefined, inputTokens: 10, outputTokens: 1 }) }),
        root: span(root, null, { type: 'AGENT', tokenCount: null }),
      };
      const requests = [[spans.copy, spans.a], [spans.mystery], [spans.a, spans.mystery, spans.b], [spans.root], [spans.copy, spans.root]];
      for (const r of requests) await upsertSpanBatch(db.sql, [request(traceId, r, 'user-otlp')], limits);
      const trace = await detail(traceId);
      expect(trace).toMatchObject({ userId: 'user-otlp', unpricedCalls: 1, totalTokens: 1100 + 1100 + 11 });
      expect(trace.totalCost).toBe(GPT_4O + 0.125);
      expect((await spanOf(traceId, a)).costSource).toBe('catalog');
      expect((await spanOf(traceId, copy))).toMatchObject({ costUsd: GPT_4O, costSource: 'catalog', pricedModel: 'gpt-4o' });
      expect((await spanOf(traceId, b))).toMatchObject({ costUsd: 0.125, costSource: 'client' });
      expect((await spanOf(traceId, mystery))).toMatchObject({ costUsd: null, costSource: null });
      // A recount from the stored spans: tokens and cost of every span not marked a copy.
      const [recount] = await db.sql.query<{ tokens: number; cost: number }>(
        `SELECT sum("tokenCount") AS tokens, sum("costUsd") AS cost FROM "Span" WHERE "traceId" = $1 AND NOT coalesce("metadata" ? 'duplicateOf', false)`,
        [traceId],
      );
      expect(recount).toEqual({ tokens: trace.totalTokens, cost: trace.totalCost });
      await expectDerivedExact(db);
    });

    it("takes userId from the root span's fields only", async () => {
      const traceId = hex(16);
      const [root, child] = [hex(8), hex(8)];
      await upsertSpanBatch(db.sql, [request(traceId, [span(child, root)])], limits);
      expect((await detail(traceId)).userId).toBeNull();
      await upsertSpanBatch(db.sql, [request(traceId, [span(root, null, { type: 'AGENT' })], 'u-root')], limits);
      expect((await detail(traceId)).userId).toBe('u-root');
    });

    it('prices a hand-built OTLP model call end to end and keeps its user.id', async () => {
      const root = otlpSpan({ name: 'agent', attributes: { 'user.id': 'u-42', 'gen_ai.operation.name': 'invoke_agent' } });
      const call = otlpSpan({
        parentSpanId: root.spanId,
        name: 'chat gpt-4o',
        traceId: root.traceId.replace(/^.{4}/, hex(2)),
        startTimeUnixNano: START + MS,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.response.model': 'gpt-4o-2024-08-06',
          'gen_ai.usage.input_tokens': 1000,
          'gen_ai.usage.cache_read.input_tokens': 800,
          'gen_ai.usage.output_tokens': 100,
        },
      });
      const traceId = call.traceId;
      root.traceId = traceId;
      await upsertSpanBatch(db.sql, planOtlpRequest([root, call]), limits);
      const trace = await detail(traceId);
      const price = calcPrice({ input_tokens: 1000, cache_read_tokens: 800, output_tokens: 100 }, 'gpt-4o-2024-08-06', {
        providerId: 'openai',
        timestamp: new Date(Number((START + MS) / MS)),
      })!.total_price;
      expect(trace).toMatchObject({ userId: 'u-42', unpricedCalls: 0, totalCost: price });
      expect(trace.spans.find((s) => s.id === call.spanId)).toMatchObject({ costUsd: price, costSource: 'catalog', pricedModel: 'gpt-4o' });
    });
  });
});
