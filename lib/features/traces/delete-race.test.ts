// Deletes (one trace, a session, retention) racing with ingest of whole JSON batches and
// span-by-span OTLP upserts of the same traces and sessions, with the insights deltas
// folded into their rollups, the search indexer, the paths compaction and the status
// count fold running
// meanwhile: afterwards the per-status counts, the "TraceName" table, every trace's child
// counts, the insights rollups, every indexed trace's search words and every trace's
// stored path equal a full recount, and
// no operation failed (no deadlock, no lost update).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Three rounds of ~200 concurrent operations, each followed by full recounts: longer than
// the default on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });
import { isAppError } from '@/lib/core/errors';
import { compactInsights } from '@/lib/features/insights/compact';
import { compactPathsOnce } from '@/lib/features/paths/compact';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { expectDerivedExact, expectPathsExact, expectRollupsExact, expectSearchWordsExact } from '@/test/support/derived';
import { makeTrace } from '@/test/support/fixtures';
import { deleteExpiredTraces, deleteSessionTraces, deleteTraceOrThrow } from '@/lib/features/retention/delete';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { indexSearchBacklog } from '@/lib/features/search/search-index';
import { foldTraceStatusCounts } from './status-counts';
import type { SpanBatchTrace } from '@/lib/features/ingest/span-batch';
import { upsertSpanBatch } from '@/lib/features/ingest/upsert-spans';
import type { SpanInput } from '@/lib/features/ingest/validate';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { sql } from '@/lib/db/sql';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const SESSIONS = ['race-a', 'race-b', 'race-c'];
const OTLP_IDS = Array.from({ length: 6 }, () => hex(16));
const BASE = Date.UTC(2026, 0, 2);

/** An OTLP request's worth of one trace: a few spans (the root in some), each with an event and a decision. */
function otlpBatch(traceId: string, k: number): SpanBatchTrace {
  const spans: SpanInput[] = Array.from({ length: 3 }, (_, i) => {
    const isRoot = k % 4 === 0 && i === 0;
    const start = new Date(BASE + (k % 2) * 40 * 86_400_000 + i);
    return {
      id: isRoot ? 'ffffffffffffffff' : hex(8),
      parentSpanId: isRoot ? null : 'ffffffffffffffff',
      name: `op-${i}`,
      type: 'CUSTOM',
      input: { k },
      output: null,
      tokenCount: 1,
      costUsd: null,
      durationMs: 1,
      status: k % 8 === 0 ? 'ERROR' : 'COMPLETED',
      statusMessage: null,
      startedAt: start,
      endedAt: new Date(start.getTime() + 1),
      metadata: null,
    };
  });
  return {
    traceId,
    spans,
    events: spans.map((s) => ({ id: `${s.id}:e`, spanId: s.id, type: 'CUSTOM', name: 'tick', metadata: null, timestamp: s.startedAt })),
    decisionPoints: spans.map((s) => ({
      id: `${s.id}:d`,
      type: 'TOOL_SELECTION',
      reasoning: null,
      chosen: 'search',
      alternatives: [],
      contextSnapshot: null,
      durationMs: null,
      costUsd: null,
      parentSpanId: s.id,
      timestamp: s.startedAt,
      inferred: true,
    })),
    root: spans[0].parentSpanId === null ? { name: `Run ${k}`, status: spans[0].status, endedAt: spans[0].endedAt, totalDuration: 1, metadata: null } : null,
    provisionalName: 'op-0',
    sessionId: SESSIONS[k % SESSIONS.length],
    tags: null,
  };
}

function jsonBatch(k: number): Record<string, unknown>[] {
  return Array.from({ length: 4 }, (_, i) => {
    const old = (k + i) % 3 === 0;
    const startedAt = new Date(BASE + (old ? 0 : 40 * 86_400_000) + k).toISOString();
    return makeTrace({
      id: `race-json-${k}-${i}-${hex(4)}`,
      name: `Json Run ${k}`,
      sessionId: SESSIONS[(k + i) % SESSIONS.length],
      status: (['RUNNING', 'COMPLETED', 'ERROR'] as const)[(k + i) % 3],
      startedAt,
      endedAt: null,
    });
  });
}

describe.each(testDatabases())('deletes racing with ingest on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    await db.close();
    vi.restoreAllMocks();
  });

  it('leaves per-status counts, the name table, child counts and insights rollups equal to a recount', async () => {
    const jsonIds: string[] = [];
    const failures: unknown[] = [];
    const tolerateNotFound = (p: Promise<unknown>) =>
      p.catch((err) => {
        if (!(isAppError(err) && err.code === 'NOT_FOUND')) failures.push(err);
      });
    const retentionCutoff = new Date(BASE + 20 * 86_400_000);
    for (let round = 0; round < 3; round++) {
      const ops: Promise<unknown>[] = [];
      for (let k = 0; k < 24; k++) {
        const traces = jsonBatch(round * 100 + k);
        jsonIds.push(...traces.map((t) => t.id as string));
        ops.push(ingestTraces(testContext(db), validateIngestBody({ traces }, { maxBatchTraces: 10, maxChildrenPerTrace: 100 })).catch((e) => failures.push(e)));
        ops.push(
          upsertSpanBatch(db.sql, [otlpBatch(OTLP_IDS[k % OTLP_IDS.length], k), otlpBatch(OTLP_IDS[(k + 1) % OTLP_IDS.length], k + 1)], {
            maxChildrenPerTrace: 10_000,
          }).catch((e) => failures.push(e)),
        );
        if (k % 3 === 0) ops.push(deleteSessionTraces(testContext(db), SESSIONS[k % SESSIONS.length]).catch((e) => failures.push(e)));
        if (k % 3 === 1) ops.push(tolerateNotFound(deleteTraceOrThrow(testContext(db), OTLP_IDS[(k + 2) % OTLP_IDS.length])));
        if (k % 3 === 2 && jsonIds.length > 8) ops.push(tolerateNotFound(deleteTraceOrThrow(testContext(db), jsonIds[jsonIds.length - 8])));
        if (k % 6 === 5) ops.push(deleteExpiredTraces(testContext(db), retentionCutoff, 3).catch((e) => failures.push(e)));
        if (k % 8 === 4) ops.push(compactInsights(testContext(db)).catch((e) => failures.push(e)));
        if (k % 4 === 1) ops.push(indexSearchBacklog(db.sql, Infinity, 5).catch((e) => failures.push(e)));
        if (k % 5 === 2) ops.push(compactPathsOnce(db.sql, 7).catch((e) => failures.push(e)));
        if (k % 4 === 3) ops.push(foldTraceStatusCounts(testContext(db)).catch((e) => failures.push(e)));
      }
      await Promise.all(ops);
      expect(failures).toEqual([]);
      await expectDerivedExact(db);
    }
    await compactInsights(testContext(db));
    await expectRollupsExact(db, { compacted: true });
    await indexSearchBacklog(db.sql);
    await expectSearchWordsExact(db, { drained: true });
    await expectPathsExact(db, { compacted: true });
    // And something was both stored and deleted along the way.
    const [{ n }] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM "Trace"`);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(jsonIds.length);
  });
});
