// The insights answers read from the hour rollups equal the answers computed from the
// traces themselves, to the last digit, on generated data written by every writer (JSON
// batches, OTLP upserts that move a trace's hour, status and name, deletes), before and
// after the deltas are folded in, for windows with and without partial edge hours, with a
// status filter and with hour and day buckets. And the rollups equal a recount.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { expectRollupsExact } from '@/test/support/derived';
import { makeTrace } from '@/test/support/fixtures';
import { deleteSessionTraces, deleteTraceOrThrow } from '@/lib/features/retention/delete';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import type { SpanBatchTrace } from '@/lib/features/ingest/span-batch';
import { upsertSpanBatch } from '@/lib/features/ingest/upsert-spans';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import type { RunStatus } from '@/lib/features/traces/types';
import { compactInsights } from './compact';
import { decisionsFromRollups, decisionsFromTraces } from './decisions';
import { RATE_NAMES } from './name-rates';
import { overviewFromRollups, overviewFromTraces } from './overview';
import { rollupPlan } from './rollups';
import type { DecisionInsights, DecisionParams, OverviewBucket, OverviewParams } from './types';
import { testContext } from '@/test/support/context';
import { sql } from '@/lib/db/sql';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const BASE = Date.UTC(2026, 4, 1);
const HOUR = 3_600_000;
const TOOLS = ['search', 'calc', 'weather', 'mail'];

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

function jsonTraces(
  seed: number,
  count: number,
  name: (i: number, r: () => number) => string = (i) => `agent-${i % 5}`,
  base = BASE,
): Record<string, unknown>[] {
  const r = random(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  return Array.from({ length: count }, (_, i) => {
    const start = base + Math.floor(r() * 50 * HOUR);
    const decisions = Array.from({ length: Math.floor(r() * 4) }, (_, j) => {
      const tool = pick(TOOLS);
      const shape = Math.floor(r() * 4);
      return {
        id: `d${j}`,
        type: pick(['TOOL_SELECTION', 'RETRY', 'ESCALATION', 'ROUTING'] as const),
        reasoning: null,
        chosen: shape === 0 ? tool : shape === 1 ? { tool, confidence: r() } : shape === 2 ? { name: tool } : null,
        // Sometimes lists the chosen option among the alternatives (counted once).
        alternatives: TOOLS.filter((t) => t !== tool || r() < 0.3).slice(0, 1 + Math.floor(r() * 3)),
        durationMs: r() < 0.3 ? null : Math.round(r() * 1000) / 10,
        costUsd: r() < 0.3 ? null : Math.round(r() * 1e6) / 1e7,
        timestamp: new Date(start + j).toISOString(),
      };
    });
    return makeTrace({
      id: `rollup-${seed}-${i}`,
      name: name(i, r),
      sessionId: `s-${i % 7}`,
      status: pick(['COMPLETED', 'ERROR', 'RUNNING'] as const),
      startedAt: new Date(start).toISOString(),
      endedAt: r() < 0.2 ? null : new Date(start + Math.floor(r() * 60_000)).toISOString(),
      totalCost: r() < 0.3 ? null : Math.round(r() * 1e5) / 1e6,
      totalTokens: r() < 0.3 ? null : Math.floor(r() * 5000),
      decisionPoints: decisions,
      events: [],
    });
  });
}

/** An OTLP request for one trace: one span (the root when `root` is set), one inferred decision. */
function otlpSpan(traceId: string, k: number, startMs: number, root: { status: RunStatus } | null): SpanBatchTrace {
  const id = root ? 'aaaaaaaaaaaaaaaa' : `${k}`.padStart(16, 'b');
  const start = new Date(startMs);
  return {
    traceId,
    spans: [
      {
        id,
        parentSpanId: root ? null : 'aaaaaaaaaaaaaaaa',
        name: root ? 'root' : `llm-${k}`,
        type: root ? 'AGENT' : 'LLM_CALL',
        input: null,
        output: null,
        tokenCount: root ? null : 100 + k,
        costUsd: root ? null : 0.001 * k,
        durationMs: 5,
        status: root?.status ?? 'COMPLETED',
        statusMessage: null,
        startedAt: start,
        endedAt: new Date(startMs + 5),
        metadata: null,
      },
    ],
    events: [],
    decisionPoints: [
      {
        id: `${id}:tool`,
        type: 'TOOL_SELECTION',
        reasoning: null,
        chosen: { name: TOOLS[k % TOOLS.length], arguments: { k } },
        alternatives: TOOLS.map((name) => ({ name })),
        contextSnapshot: null,
        durationMs: null,
        costUsd: null,
        parentSpanId: id,
        timestamp: start,
        inferred: true,
      },
    ],
    root: root ? { name: `otlp run ${k}`, status: root.status, endedAt: new Date(startMs + 5), totalDuration: 5, metadata: null } : null,
    provisionalName: `llm-${k}`,
    sessionId: 's-otlp',
    tags: null,
  };
}

describe.each(testDatabases())('insights from rollups on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const limits = { maxBatchTraces: 1000, maxChildrenPerTrace: 100 };
    // Concurrent JSON batches, OTLP upserts of a few traces span by span (children before
    // their root, the later spans starting earlier: the trace's hour moves), and deletes.
    const otlpIds = ['0123456789abcdef0123456789abcdef', 'fedcba9876543210fedcba9876543210'];
    await Promise.all([
      ...Array.from({ length: 6 }, (_, b) => ingestTraces(testContext(db), validateIngestBody({ traces: jsonTraces(b + 1, 40) }, limits))),
      // More names than ratesByTraceName keeps (RATE_NAMES): a few repeated over the days,
      // and many with one trace each, which once folded are not summed (name-rates.ts).
      ingestTraces(
        testContext(db),
        validateIngestBody({ traces: jsonTraces(7, 400, (i, r) => (r() < 0.3 ? `run-${Math.floor(r() * 40)}` : `once-${i}`)) }, limits),
      ),
      // A month earlier, outside every window: with them, the windows below hold few
      // traces for the history's size, and the single names of the narrower ones are
      // found by sorting the window's rows instead of walking the names (name-rates.ts).
      ingestTraces(testContext(db), validateIngestBody({ traces: jsonTraces(8, 1000, (i) => `earlier-${i}`, BASE - 30 * 24 * HOUR) }, limits)),
      ...otlpIds.map(async (traceId, t) => {
        for (let k = 1; k <= 6; k++) {
          await upsertSpanBatch(db.sql, [otlpSpan(traceId, k, BASE + 30 * HOUR - k * 40 * 60_000 + t, null)], { maxChildrenPerTrace: 100 });
        }
        await upsertSpanBatch(db.sql, [otlpSpan(traceId, 0, BASE + 20 * HOUR + 7, { status: t === 0 ? 'ERROR' : 'COMPLETED' })], {
          maxChildrenPerTrace: 100,
        });
      }),
    ]);
    await deleteSessionTraces(testContext(db), 's-3');
    await deleteTraceOrThrow(testContext(db), 'rollup-2-5').catch(() => undefined);
  });
  afterAll(async () => {
    await db.close();
    vi.restoreAllMocks();
  });

  const windows: Array<{ label: string; from: number; to: number; bucket: OverviewBucket; status?: RunStatus }> = [
    { label: 'whole hours, hourly', from: BASE + 2 * HOUR, to: BASE + 40 * HOUR, bucket: 'hour' },
    { label: 'partial edges, hourly', from: BASE + 2 * HOUR + 17 * 60_000, to: BASE + 45 * HOUR + 1, bucket: 'hour' },
    { label: 'partial edges, daily', from: BASE - 5 * HOUR + 59 * 60_000, to: BASE + 60 * HOUR + 30 * 60_000, bucket: 'day' },
    { label: 'ERROR only, edges', from: BASE + 90 * 60_000, to: BASE + 49 * HOUR + 15 * 60_000, bucket: 'hour', status: 'ERROR' },
    { label: 'RUNNING only, whole days', from: BASE, to: BASE + 72 * HOUR, bucket: 'day', status: 'RUNNING' },
  ];

  const windowParams = (w: (typeof windows)[number]): OverviewParams & DecisionParams => ({
    from: new Date(w.from).toISOString(),
    to: new Date(w.to).toISOString(),
    bucket: w.bucket,
    ...(w.status ? { status: w.status } : {}),
  });

  const compare = async (w: (typeof windows)[number]) => {
    const params = windowParams(w);
    const plan = rollupPlan(params, params.bucket);
    expect(plan, w.label).not.toBeNull();
    const fromTraces = await decisionsFromTraces(testContext(db), params);
    expect(await decisionsFromRollups(testContext(db), params, plan!), w.label).toEqual(fromTraces);
    expect(await overviewFromRollups(testContext(db), params, plan!), w.label).toEqual(await overviewFromTraces(testContext(db), params));
    return fromTraces;
  };

  it('answers every window exactly as the traces do, before and after compaction, and the rollups equal a recount', async () => {
    const before: DecisionInsights[] = [];
    for (const w of windows) before.push(await compare(w));
    // The data is not trivial: decisions of several types, options chosen and offered.
    expect(before[2].totals.decisionPoints).toBeGreaterThan(200);
    expect(before[2].options.some((o) => o.chosen < o.offered)).toBe(true);
    expect(before[3].totals.traces).toBeGreaterThan(0);
    // The list of names is cut, and holds names of several traces and names of one: once
    // folded, the latter are read without summing (name-rates.ts), and must still agree.
    const kinds = new Set(before[2].ratesByTraceName.map((n) => `${n.name.split('-')[0]}:${n.traces > 1 ? 'n' : 1}`));
    expect(before[2].ratesByTraceName).toHaveLength(RATE_NAMES);
    for (const kind of ['agent:n', 'run:n', 'once:1']) expect(kinds).toContain(kind);
    await expectRollupsExact(db);

    expect(await compactInsights(testContext(db))).toBeGreaterThan(0);
    await expectRollupsExact(db, { compacted: true });
    for (const [i, w] of windows.entries()) expect(await compare(w)).toEqual(before[i]);

    // Deletes after compaction leave deltas again; answers still agree, and after folding.
    // Through the app's verb (set-based) and by hand (the row trigger).
    await deleteSessionTraces(testContext(db), 's-1');
    await db.sql.query(sql`DELETE FROM "Trace" WHERE "name" = 'agent-2' AND "status" = 'ERROR'`);
    await expectRollupsExact(db);
    for (const w of windows) await compare(w);
    await compactInsights(testContext(db));
    await expectRollupsExact(db, { compacted: true });
    for (const w of windows) await compare(w);
  });

  it('reads raw what rollups cannot serve: name, tag or session filters, minute buckets, windows without a whole hour', () => {
    const from = new Date(BASE).toISOString();
    const to = new Date(BASE + 5 * HOUR).toISOString();
    expect(rollupPlan({ from, to }, 'hour')).not.toBeNull();
    expect(rollupPlan({ from, to, status: 'ERROR' }, 'hour')).not.toBeNull();
    expect(rollupPlan({ from, to, name: 'agent-1' }, 'hour')).toBeNull();
    expect(rollupPlan({ from, to, tag: ['prod'] }, 'hour')).toBeNull();
    expect(rollupPlan({ from, to, sessionId: 's-1' }, 'hour')).toBeNull();
    expect(rollupPlan({ from, to }, 'minute')).toBeNull();
    expect(rollupPlan({ from: new Date(BASE + 60_000).toISOString(), to: new Date(BASE + HOUR + 59 * 60_000).toISOString() }, 'hour')).toBeNull();
    expect(rollupPlan({ from: new Date(BASE + 60_000).toISOString(), to: new Date(BASE + 2 * HOUR + 1).toISOString() }, 'hour')).toMatchObject({
      hoursFrom: new Date(BASE + HOUR),
      hoursTo: new Date(BASE + 2 * HOUR),
      edges: [
        { from: new Date(BASE + 60_000), to: new Date(BASE + HOUR) },
        { from: new Date(BASE + 2 * HOUR), to: new Date(BASE + 2 * HOUR + 1) },
      ],
    });
  });
});
