// Each trace's stored path equals pathOf over its decisions, whoever wrote them: JSON
// batches (concurrent), OTLP upserts of one trace across several requests (a decision
// before its parent span, whose later start reorders tied decisions; a span sent again),
// SQL run by hand (a span moved in time or deleted, decisions changed and deleted, a
// trace's copied figures and decision reviews changed), deletes of a trace, of a session and by retention, and
// TRUNCATE; before and after
// compaction (test/support/derived.ts, expectPathsExact, also runs in the delete races).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/lib/db/open';
import { deleteExpiredTraces, deleteSessionTraces, deleteTraceOrThrow } from '@/lib/features/retention/delete';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import type { SpanBatchTrace } from '@/lib/features/ingest/span-batch';
import { upsertSpanBatch } from '@/lib/features/ingest/upsert-spans';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases } from '@/test/support/databases';
import { expectPathsExact } from '@/test/support/derived';
import { makeTrace } from '@/test/support/fixtures';
import { compactPathsOnce } from './compact';
import { EMPTY_PATH_ID } from '@/lib/features/query/path-sql';
import { sql } from '@/lib/db/sql';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const BASE = Date.UTC(2026, 5, 1);
const LABELS = ['search', 'sql', 'mail'];

// A small deterministic generator (mulberry32), so a failure replays.
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Traces whose decisions repeat, tie in time (ordered by their parent span's start, a missing parent last, then id) and vary in shape. */
function jsonTraces(seed: number, count: number, startMs = BASE): Record<string, unknown>[] {
  const r = random(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  return Array.from({ length: count }, (_, i) => {
    const start = startMs + i * 1000;
    const spans = ['s0', 's1', 's2'].map((id, k) => ({ id, name: `op-${k}`, type: 'AGENT', status: 'COMPLETED', startedAt: new Date(start + 3 - k).toISOString() }));
    const decisions = Array.from({ length: Math.floor(r() * 6) }, (_, j) => ({
      id: pick(['a', 'B', 'c', 'D']) + j,
      type: pick(['TOOL_SELECTION', 'ROUTING'] as const),
      chosen: pick([pick(LABELS), { tool: pick(LABELS) }, { route: pick(LABELS), confidence: r() }, null]),
      alternatives: [],
      timestamp: new Date(start + Math.floor(r() * 3)).toISOString(),
      ...(r() < 0.8 ? { parentSpanId: pick(['s0', 's1', 's2', 'gone']) } : {}),
    }));
    return makeTrace({
      id: `stored-${seed}-${i}`,
      name: `agent-${i % 3}`,
      sessionId: `sess-${seed}-${i % 4}`,
      startedAt: new Date(start).toISOString(),
      endedAt: null,
      status: 'RUNNING',
      spans,
      events: [],
      decisionPoints: decisions,
    });
  });
}

/** One OTLP request of a trace: its spans (id, start) and decisions (parent span id, instant, label). */
function otlpRequest(traceId: string, spans: Array<[string, number]>, decisions: Array<[string, number, string]>): SpanBatchTrace {
  return {
    traceId,
    spans: spans.map(([id, start]) => ({
      id,
      parentSpanId: null,
      name: `op-${id}`,
      type: 'LLM_CALL',
      input: null,
      output: null,
      tokenCount: null,
      costUsd: null,
      durationMs: 1,
      status: 'COMPLETED',
      statusMessage: null,
      startedAt: new Date(start),
      endedAt: new Date(start + 1),
      metadata: null,
    })),
    events: [],
    decisionPoints: decisions.map(([parent, at, label]) => ({
      id: `${parent}:tool`,
      type: 'TOOL_SELECTION',
      reasoning: null,
      chosen: { name: label },
      alternatives: [],
      contextSnapshot: null,
      durationMs: null,
      costUsd: null,
      parentSpanId: parent,
      timestamp: new Date(at),
      inferred: true,
    })),
    root: null,
    provisionalName: 'op',
    sessionId: null,
    tags: null,
  };
}

describe.each(testDatabases())('stored decision paths on $name', ({ open }) => {
  let db: Database;
  const limits = { maxBatchTraces: 1000, maxChildrenPerTrace: 100 };
  const ingest = (traces: Record<string, unknown>[]) => ingestTraces(testContext(db), validateIngestBody({ traces }, limits));
  const marks = async () => (await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "TracePathDirty"`))[0].n;
  const stored = async () => (await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "TracePath"`))[0].n;

  beforeAll(async () => {
    db = await open();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    await db.close();
    vi.restoreAllMocks();
  });

  it('stores concurrent JSON batches’ paths, and forgets deleted traces’ (one, a session, retention)', async () => {
    await Promise.all([1, 2, 3].map((seed) => ingest(jsonTraces(seed, 40, BASE + seed * 100_000))));
    // Read before any compaction: the marked traces' paths are computed.
    await expectPathsExact(db);
    expect(await marks()).toBeGreaterThan(0);
    await expectPathsExact(db, { compacted: true });
    const withPaths = await stored();
    expect(withPaths).toBeGreaterThan(60);

    await deleteTraceOrThrow(testContext(db), 'stored-1-1');
    await deleteSessionTraces(testContext(db), 'sess-2-1');
    // Retention: everything of the first batch.
    await deleteExpiredTraces(testContext(db), new Date(BASE + 150_000));
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    expect(await stored()).toBeLessThan(withPaths - 20);
    const [{ orphans }] = await db.sql.query<{ orphans: number }>(
      sql`SELECT count(*)::int AS orphans FROM "TracePath" tp WHERE NOT EXISTS (SELECT 1 FROM "Trace" t WHERE t."id" = tp."traceId")`,
    );
    expect(orphans).toBe(0);
  });

  it('follows one OTLP trace across requests: tied decisions ordered by spans of later requests, a span sent again', async () => {
    const id = '0badc0de0badc0de0badc0de0badc0de';
    const at = BASE + 7_000_000;
    const [a, b, c] = ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'cccccccccccccccc'];
    const requests = [
      // Two decisions at the same instant, one under a span not stored yet (ordered last).
      otlpRequest(id, [[a, at + 5]], [[a, at + 10, 'search'], [b, at + 10, 'sql']]),
      otlpRequest(id, [[c, at + 2]], [[c, at + 20, 'sql']]),
      // Its span comes alone and starts earlier: that decision now comes first.
      otlpRequest(id, [[b, at + 1]], []),
      // Sent again (the store keeps what it has): nothing changes.
      otlpRequest(id, [[a, at]], [[a, at + 10, 'search']]),
    ];
    for (const [k, request] of requests.entries()) {
      await upsertSpanBatch(db.sql, [request], { maxChildrenPerTrace: 100 });
      await expectPathsExact(db, { compacted: k % 2 === 1 });
    }
    const [{ steps }] = await db.sql.query<{ steps: Array<{ label: string; repeats: number }> }>(
      sql`SELECT dp."steps" FROM "TracePath" tp JOIN "DecisionPath" dp ON dp."id" = tp."pathId" WHERE tp."traceId" = ${id}`,
    );
    expect(steps.map((s) => `${s.label}×${s.repeats}`)).toEqual(['sql×1', 'search×1', 'sql×1']);
  });

  it('follows SQL run by hand: decisions updated and deleted, spans moved, TRUNCATE', async () => {
    await ingest(jsonTraces(9, 30, BASE + 9_000_000));
    await expectPathsExact(db, { compacted: true });
    await db.sql.exec(`UPDATE "DecisionPoint" SET "chosen" = '"changed"' WHERE "traceId" LIKE 'stored-9-%' AND "id" LIKE 'a%'`);
    await db.sql.exec(`UPDATE "DecisionPoint" SET "timestamp" = "timestamp" + interval '2 milliseconds' WHERE "traceId" LIKE 'stored-9-%' AND "id" LIKE 'c%'`);
    await expectPathsExact(db, { compacted: true });
    // A span alone: the decisions tied under it and another span change order.
    await db.sql.exec(`UPDATE "Span" SET "startedAt" = "startedAt" - interval '5 milliseconds' WHERE "traceId" LIKE 'stored-9-%' AND "id" = 's2'`);
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    await db.sql.exec(`DELETE FROM "DecisionPoint" WHERE "traceId" LIKE 'stored-9-%' AND "id" LIKE 'B%'`);
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    await db.sql.exec(`DELETE FROM "Span" WHERE "traceId" LIKE 'stored-9-%' AND "id" = 's0'`);
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    // The figures the fleet read copies: a trace renamed, ended, priced; a span's cost.
    await db.sql.exec(`UPDATE "Trace" SET "name" = 'renamed', "status" = 'ERROR', "endedAt" = "startedAt" + interval '1.5 seconds' WHERE "id" = 'stored-9-3'`);
    await db.sql.exec(`UPDATE "Trace" SET "totalCost" = 0.25 WHERE "id" = 'stored-9-4'`);
    await db.sql.exec(`UPDATE "Span" SET "costUsd" = 0.5 WHERE "traceId" = 'stored-9-5' AND "id" = 's1'`);
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    await db.sql.exec(`UPDATE "Trace" SET "startedAt" = "startedAt" - interval '1 day', "totalCost" = NULL WHERE "id" LIKE 'stored-9-1%'`);
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    // Decision reviews: added, judged again, moved to another name, deleted; other scores count for nothing.
    await db.sql.exec(`INSERT INTO "Score" ("id", "traceId", "decisionPointId", "name", "dataType", "value", "source", "authorKind", "authorName")
      SELECT 'rev-' || d."traceId" || '-' || d."id", d."traceId", d."id", CASE WHEN d."id" LIKE 'D%' THEN 'quality' ELSE 'decision.correct' END,
             'BOOLEAN', (length(d."id") % 2)::float8, 'API', 'user', 'test'
        FROM "DecisionPoint" d WHERE d."traceId" LIKE 'stored-9-%'`);
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    await db.sql.exec(`UPDATE "Score" SET "value" = 1 - "value" WHERE "id" LIKE 'rev-stored-9-2%'`);
    await db.sql.exec(`UPDATE "Score" SET "name" = 'other' WHERE "id" LIKE 'rev-stored-9-3%'`);
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    await db.sql.exec(`DELETE FROM "Score" WHERE "id" LIKE 'rev-stored-9-1%'`);
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    await db.sql.exec('TRUNCATE "DecisionPoint" CASCADE');
    await expectPathsExact(db);
    await expectPathsExact(db, { compacted: true });
    const [{ paths }] = await db.sql.query<{ paths: string[] }>(sql`SELECT array_agg(DISTINCT "pathId") AS paths FROM "TracePath"`);
    expect(paths).toEqual([EMPTY_PATH_ID]);
    await db.sql.exec('TRUNCATE "Trace" CASCADE');
    await expectPathsExact(db, { compacted: true });
    expect(await stored()).toBe(0);
  });

  it('lets one session compact at a time', async () => {
    await ingest(jsonTraces(11, 20, BASE + 11_000_000));
    const results = await Promise.all([compactPathsOnce(db.sql, 5), compactPathsOnce(db.sql, 5), compactPathsOnce(db.sql, 5)]);
    expect(results.filter((n) => n > 0).length).toBeGreaterThan(0);
    await expectPathsExact(db, { compacted: true });
  });
});
