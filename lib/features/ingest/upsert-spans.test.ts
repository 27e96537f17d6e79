// Spans arrive piecemeal, out of order, repeated and concurrently: the stored trace must
// always add up to exactly what its stored children say.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { closeIdleTraces } from './close-idle';
import { ingestTraces } from './ingest';
import type { SqlExecutor } from '@/lib/db/executor';
import type { LazySpanBatch, SpanBatchTrace } from './span-batch';
import { STORE_CHUNK_SPANS, upsertSpanBatch } from './upsert-spans';
import { validateIngestBody } from './validate';
import type { SpanInput } from './validate';
import { testContext } from '@/test/support/context';
import { interceptStatements } from '@/test/support/executor';

const limits = { maxChildrenPerTrace: 10_000 };
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const at = (ms: number) => new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + ms);

function span(id: string, parent: string | null, startMs: number, over: Partial<SpanInput> = {}): SpanInput {
  return {
    id,
    parentSpanId: parent,
    name: `op-${id.slice(0, 4)}`,
    type: 'CUSTOM',
    input: { q: id },
    output: null,
    tokenCount: null,
    costUsd: null,
    durationMs: 100,
    status: 'COMPLETED',
    statusMessage: null,
    startedAt: at(startMs),
    endedAt: at(startMs + 100),
    metadata: { 'service.name': 'svc' },
    ...over,
  };
}

/** One request's worth of one trace, with an event and an inferred decision per span. */
function batch(traceId: string, spans: SpanInput[], rootName = 'agent run'): SpanBatchTrace {
  const root = spans.find((s) => s.parentSpanId === null);
  return {
    traceId,
    spans,
    events: spans.map((s) => ({ id: `${s.id}:e0`, spanId: s.id, type: 'CUSTOM', name: 'tick', metadata: null, timestamp: s.startedAt })),
    decisionPoints: spans.map((s) => ({
      id: `${s.id}:tool_selection`,
      type: 'TOOL_SELECTION',
      reasoning: null,
      chosen: { tool: 'search' },
      alternatives: [{ tool: 'calculator' }],
      contextSnapshot: null,
      durationMs: null,
      costUsd: null,
      parentSpanId: s.id,
      timestamp: s.startedAt,
      inferred: true,
    })),
    root: root
      ? { name: rootName, status: root.status, endedAt: root.endedAt, totalDuration: root.durationMs, metadata: { service: 'svc' } }
      : null,
    provisionalName: [...spans].sort((a, b) => +a.startedAt - +b.startedAt)[0].name,
    sessionId: null,
    tags: null,
  };
}

interface StoredTrace {
  name: string;
  status: string;
  spanCount: number;
  eventCount: number;
  decisionPointCount: number;
  totalTokens: number | null;
  totalCost: number | null;
  startedAt: Date;
  endedAt: Date | null;
  totalDuration: number | null;
  source: string;
}

describe.each(testDatabases())('span upserts on $name', (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  const stored = async (id: string) =>
    (await db.sql.query<StoredTrace>('SELECT * FROM "Trace" WHERE id = $1', [id]))[0];
  const actual = async (id: string) =>
    (
      await db.sql.query<{ spans: number; events: number; decisions: number; tokens: number | null }>(
        `SELECT (SELECT count(*)::int FROM "Span" WHERE "traceId" = $1) AS spans,
                (SELECT count(*)::int FROM "Event" WHERE "traceId" = $1) AS events,
                (SELECT count(*)::int FROM "DecisionPoint" WHERE "traceId" = $1) AS decisions,
                (SELECT sum("tokenCount") FROM "Span" WHERE "traceId" = $1) AS tokens`,
        [id],
      )
    )[0];

  it('creates the trace RUNNING from its first span and completes it when the root arrives last', async () => {
    const traceId = hex(16);
    const [root, child, grandchild] = [hex(8), hex(8), hex(8)];
    const llm = { type: 'LLM_CALL' as const, tokenCount: 30, costUsd: 0.002 };
    await upsertSpanBatch(db.sql, [batch(traceId, [span(grandchild, child, 300, llm)])], limits);
    let t = await stored(traceId);
    expect(t).toMatchObject({ status: 'RUNNING', spanCount: 1, totalTokens: 30, source: 'OTLP', endedAt: null });
    expect(t.startedAt.toISOString()).toBe(at(300).toISOString());

    await upsertSpanBatch(db.sql, [batch(traceId, [span(child, root, 200, llm)])], limits);
    await upsertSpanBatch(db.sql, [batch(traceId, [span(root, null, 0, { durationMs: 1000, endedAt: at(1000) })])], limits);
    t = await stored(traceId);
    expect(t).toMatchObject({
      name: 'agent run',
      status: 'COMPLETED',
      spanCount: 3,
      eventCount: 3,
      decisionPointCount: 3,
      totalTokens: 60,
      totalDuration: 1000,
    });
    expect(t.totalCost).toBeCloseTo(0.004, 10);
    expect(t.startedAt.toISOString()).toBe(at(0).toISOString());
    expect(t.endedAt?.toISOString()).toBe(at(1000).toISOString());
  });

  it('stores a span sent twice once, and counts it once, whatever the order', async () => {
    const traceId = hex(16);
    const spans = [span(hex(8), null, 0), span(hex(8), null, 5, { parentSpanId: 'ffffffffffffffff', tokenCount: 7, type: 'LLM_CALL' })];
    spans[1].parentSpanId = spans[0].id;
    const requests = [[spans[1]], [spans[0], spans[1]], [spans[1]], [spans[0]]];
    for (const r of requests) await upsertSpanBatch(db.sql, [batch(traceId, r)], limits);
    const t = await stored(traceId);
    expect(t).toMatchObject({ spanCount: 2, eventCount: 2, decisionPointCount: 2, totalTokens: 7, status: 'COMPLETED' });
    expect(await actual(traceId)).toEqual({ spans: 2, events: 2, decisions: 2, tokens: 7 });
  });

  it.each([
    ['in one chunk', STORE_CHUNK_SPANS],
    ['a chunk per trace, pipelined', 1],
  ])('keeps counts exact under concurrent requests for the same traces (%s)', async (_, chunkSpans) => {
    const ids = [hex(16), hex(16)];
    // Model calls priced on the way in (every fifth one an unknown model, left unpriced).
    const usage = (k: number) => ({ inputTokens: 100 + k, outputTokens: 10, inputIncludesCache: true, model: k % 5 ? 'gpt-4o-mini' : 'mystery-model-7' });
    const spans = Array.from({ length: 40 }, (_, k) => span(hex(8), null, k, { tokenCount: 1, type: 'LLM_CALL', usage: usage(k) }));
    // 40 requests, each sending three spans of both traces, overlapping their neighbours.
    await Promise.all(
      spans.map((_, k) => {
        const some = [spans[k], spans[(k + 1) % 40], spans[(k + 7) % 40]].map((s) => ({ ...s, parentSpanId: 'aaaaaaaaaaaaaaaa' }));
        return upsertSpanBatch(db.sql, [batch(ids[k % 2], some), batch(ids[(k + 1) % 2], some)], limits, { chunkSpans });
      }),
    );
    for (const id of ids) {
      const t = await stored(id);
      const a = await actual(id);
      expect(a.spans).toBe(40);
      expect(t).toMatchObject({ spanCount: a.spans, eventCount: a.events, decisionPointCount: a.decisions, totalTokens: a.tokens });
      const [priced] = await db.sql.query<{ cost: number; unpriced: number; kept: number }>(
        `SELECT sum("costUsd") AS cost, count(*) FILTER (WHERE "costUsd" IS NULL)::int AS unpriced,
                (SELECT "unpricedCalls" FROM "Trace" WHERE id = $1) AS kept FROM "Span" WHERE "traceId" = $1`,
        [id],
      );
      expect(priced.unpriced).toBe(8);
      expect(priced.kept).toBe(8);
      // Added in the order requests committed: the same sum up to rounding.
      expect(t.totalCost).toBeCloseTo(priced.cost, 15);
    }
    const counts = await db.sql.query<{ status: string; n: number; kept: number }>(
      `SELECT c.status, (SELECT count(*)::int FROM "Trace" t WHERE t.status = c.status) AS n, c.count::int AS kept FROM "TraceStatusTotal" c`,
    );
    for (const c of counts) expect(c.kept, c.status).toBe(c.n);
  });

  it('stores a request in chunks of whole traces, each trace counted once, the limits and owners checked per trace', async () => {
    const api = makeTrace({ id: hex(16) });
    await ingestTraces(testContext(db), validateIngestBody({ traces: [api] }, { maxBatchTraces: 10, maxChildrenPerTrace: 100 }));
    const ids = Array.from({ length: 5 }, () => hex(16));
    const traces = ids.map((id, k) => {
      const root = hex(8);
      const spans = [span(root, null, 0), ...Array.from({ length: k + 1 }, (_, j) => span(hex(8), root, 10 + j, { tokenCount: 2, type: 'LLM_CALL' }))];
      return batch(id, spans);
    });
    traces.push(batch(api.id as string, [span(hex(8), null, 0)]));
    // Chunks of at least 3 spans: [2 spans, 3 spans], [4], [5], [6] plus the refused trace, sent in trace id order.
    const result = await upsertSpanBatch(db.sql, traces, { maxChildrenPerTrace: 5 }, { chunkSpans: 3 });
    expect(result.acceptedSpans).toBe(2 + 3 + 4 + 5);
    expect(result.rejected).toHaveLength(2);
    expect(result.rejected).toEqual(
      expect.arrayContaining([
        { count: 1, reason: expect.stringContaining('POST /api/traces') },
        { count: 6, reason: expect.stringContaining('exceed 5') },
      ]),
    );
    for (const [k, id] of ids.entries()) {
      if (k === 4) {
        expect(await stored(id)).toBeUndefined();
        continue;
      }
      const t = await stored(id);
      expect(t).toMatchObject({ status: 'COMPLETED', spanCount: k + 2, eventCount: k + 2, decisionPointCount: k + 2, totalTokens: 2 * (k + 1) });
      expect(await actual(id)).toEqual({ spans: k + 2, events: k + 2, decisions: k + 2, tokens: 2 * (k + 1) });
    }
  });

  it('stores nothing when a later chunk fails: the chunks before it roll back with it', async () => {
    const [first, second] = [hex(16), hex(16)].sort();
    // PostgreSQL refuses U+0000 in text: the second chunk's statement fails after the first chunk was stored.
    const bad = batch(second, [span(hex(8), null, 0, { name: 'bad\u0000name' })]);
    await expect(upsertSpanBatch(db.sql, [batch(first, [span(hex(8), null, 0)]), bad], limits, { chunkSpans: 1 })).rejects.toThrow();
    expect(await stored(first)).toBeUndefined();
    expect(await actual(first)).toEqual({ spans: 0, events: 0, decisions: 0, tokens: null });
    // The connection is usable afterwards.
    await upsertSpanBatch(db.sql, [batch(first, [span(hex(8), null, 0)])], limits, { chunkSpans: 1 });
    expect((await stored(first)).spanCount).toBe(1);
  });

  it.runIf(target.name === 'postgres')(
    'runs again, mapping the batch again, when a JSON batch takes a trace id meanwhile, and then refuses its spans',
    async () => {
      const [taken, other] = [hex(16), hex(16)];
      let raced = false;
      // Just before the trace rows are upserted, POST /api/traces stores `taken` on another connection.
      const racing: SqlExecutor = interceptStatements(db.sql, async (text) => {
        if (!raced && text.includes('INSERT INTO "Trace" AS t')) {
          raced = true;
          const body = validateIngestBody({ traces: [makeTrace({ id: taken })] }, { maxBatchTraces: 10, maxChildrenPerTrace: 100 });
          await ingestTraces(testContext(db), body);
        }
      });
      const traces = [batch(taken, [span(hex(8), null, 0)]), batch(other, [span(hex(8), null, 0)])].sort((a, b) =>
        a.traceId < b.traceId ? -1 : 1,
      );
      let mapped = 0;
      const lazy: LazySpanBatch = {
        traceIds: traces.map((t) => t.traceId),
        *traces() {
          for (const t of traces) {
            mapped++;
            yield t;
          }
        },
      };
      const result = await upsertSpanBatch(racing, lazy, limits, { chunkSpans: 1 });
      expect(raced).toBe(true);
      expect(mapped).toBe(4);
      expect(result).toEqual({ acceptedSpans: 1, rejected: [{ count: 1, reason: expect.stringContaining('POST /api/traces') }] });
      expect(await stored(taken)).toMatchObject({ source: 'API', spanCount: 2 });
      expect(await stored(other)).toMatchObject({ source: 'OTLP', spanCount: 1, status: 'COMPLETED' });
      expect(await actual(other)).toEqual({ spans: 1, events: 1, decisions: 1, tokens: null });
    },
  );

  it('refuses spans for a trace the JSON API stored, and the JSON API refuses an id OTLP created', async () => {
    const body = makeTrace({ id: hex(16) });
    await ingestTraces(testContext(db), validateIngestBody({ traces: [body] }, { maxBatchTraces: 10, maxChildrenPerTrace: 100 }));
    const traceId = body.id as string;
    const result = await upsertSpanBatch(db.sql, [batch(traceId, [span(hex(8), null, 0)])], limits);
    expect(result.acceptedSpans).toBe(0);
    expect(result.rejected).toEqual([{ count: 1, reason: expect.stringContaining('POST /api/traces') }]);
    expect(await stored(traceId)).toMatchObject({ spanCount: 2, source: 'API' });

    const otlpId = hex(16);
    await upsertSpanBatch(db.sql, [batch(otlpId, [span(hex(8), null, 0)])], limits);
    const clash = validateIngestBody({ traces: [makeTrace({ id: otlpId })] }, { maxBatchTraces: 10, maxChildrenPerTrace: 100 });
    await expect(ingestTraces(testContext(db), clash)).rejects.toThrow('Duplicate trace ID detected');
  });

  it('refuses the spans that would take a trace past the per-trace limit, and stores the other traces', async () => {
    const [full, other] = [hex(16), hex(16)];
    const small = { maxChildrenPerTrace: 3 };
    await upsertSpanBatch(db.sql, [batch(full, [span(hex(8), 'a1a1a1a1a1a1a1a1', 0), span(hex(8), 'a1a1a1a1a1a1a1a1', 1)])], small);
    const result = await upsertSpanBatch(
      db.sql,
      [batch(full, [span(hex(8), 'a1a1a1a1a1a1a1a1', 2), span(hex(8), 'a1a1a1a1a1a1a1a1', 3)]), batch(other, [span(hex(8), null, 0)])],
      small,
    );
    expect(result).toEqual({ acceptedSpans: 1, rejected: [{ count: 2, reason: expect.stringContaining('exceed 3') }] });
    expect((await stored(full)).spanCount).toBe(2);
    expect((await stored(other)).spanCount).toBe(1);
  });

  it('closes a trace whose root never arrives after the idle timeout, from its local roots', async () => {
    const [ok, failed] = [hex(16), hex(16)];
    const outer = hex(8);
    await upsertSpanBatch(db.sql, [batch(ok, [span(hex(8), 'b1b1b1b1b1b1b1b1', 0), span(hex(8), 'b1b1b1b1b1b1b1b1', 500)])], limits);
    await upsertSpanBatch(
      db.sql,
      [
        batch(failed, [
          span(outer, 'c1c1c1c1c1c1c1c1', 0, { status: 'ERROR', endedAt: at(900) }),
          span(hex(8), outer, 10, { status: 'ERROR' }),
        ]),
      ],
      limits,
    );
    // Not idle yet: nothing closes.
    expect(await closeIdleTraces(testContext(db), new Date(Date.now() - 60_000))).toBe(0);
    expect((await stored(ok)).status).toBe('RUNNING');

    expect(await closeIdleTraces(testContext(db), new Date(Date.now() + 1000))).toBeGreaterThanOrEqual(2);
    expect(await stored(ok)).toMatchObject({ status: 'COMPLETED', totalDuration: 600 });
    expect((await stored(ok)).endedAt?.toISOString()).toBe(at(600).toISOString());
    expect(await stored(failed)).toMatchObject({ status: 'ERROR', totalDuration: 900 });

    // The root that comes late still decides.
    await upsertSpanBatch(db.sql, [batch(ok, [span('b1b1b1b1b1b1b1b1', null, -100, { status: 'ERROR', durationMs: 2000, endedAt: at(1900) })])], limits);
    expect(await stored(ok)).toMatchObject({ status: 'ERROR', totalDuration: 2000, spanCount: 3, name: 'agent run' });
  });

  it('never closes RUNNING traces sent whole to POST /api/traces', async () => {
    const body = makeTrace({ id: hex(16), status: 'RUNNING', endedAt: null });
    await ingestTraces(testContext(db), validateIngestBody({ traces: [body] }, { maxBatchTraces: 10, maxChildrenPerTrace: 100 }));
    await closeIdleTraces(testContext(db), new Date(Date.now() + 1000));
    expect((await stored(body.id as string)).status).toBe('RUNNING');
  });
});
