// The demo data set on every test database: what it holds, loading it twice, removing it
// (nothing left behind, nothing of the user's touched), and who may do either.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '@/lib/core/access/decide';
import type { Database } from '@/lib/db/open';
import { sql } from '@/lib/db/sql';
import { getTraceOrThrow } from '@/lib/features/traces/detail';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { contextAs, testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { reviewFigures } from '@/lib/features/insights/reviews';
import { forkId, pathReviews } from '@/lib/features/paths';
import { nextReview } from '@/lib/features/reviews';
import { createScoreConfig, parseConfigBody } from '@/lib/features/scores';
import { asPerson } from '@/test/support/scores';
import { demoTraces } from './dataset';
import { countDemoTraces, DEMO_ID_PREFIX, loadDemoData, removeDemoData } from './';
import { DEMO_EVALUATOR, DEMO_REVIEWERS, DEMO_UNREVIEWED_NEWEST, demoScores } from './reviews';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');

const principal = (credential: Principal['credential'], mode: Principal['mode'] = 'protected'): Principal => ({ mode, credential, keysOnly: false });
const viewer = principal({ kind: 'session', identity: { userId: 'u1', email: 'v@x.test', name: 'v', role: 'viewer' } });
const admin = principal({ kind: 'session', identity: { userId: 'u2', email: 'a@x.test', name: 'a', role: 'admin' } });
const ingestKey = principal({ kind: 'key', identity: { keyId: 'k1', keyName: 'ci', scopes: ['ingest', 'read'] } });
const openBrowser = principal({ kind: 'none' }, 'open');
const openWithKey = principal({ kind: 'key', identity: null }, 'open');

describe('the demo data set', () => {
  const traces = demoTraces(NOW);

  it('is 40-80 marked runs over the day before now, with sessions, users, errors and feedback', () => {
    expect(traces.length).toBeGreaterThanOrEqual(40);
    expect(traces.length).toBeLessThanOrEqual(80);
    for (const t of traces) {
      expect(t.id.startsWith(DEMO_ID_PREFIX)).toBe(true);
      expect(t.tags).toContain('demo');
      expect(t.metadata).toMatchObject({ crossroadsDemo: true });
      expect(Date.parse(t.startedAt)).toBeLessThan(NOW);
      expect(Date.parse(t.startedAt)).toBeGreaterThan(NOW - 86_400_000);
    }
    expect(new Set(traces.map((t) => t.sessionId).filter(Boolean)).size).toBeGreaterThanOrEqual(10);
    const errors = traces.filter((t) => t.status === 'ERROR').length;
    expect(errors / traces.length).toBeGreaterThan(0.1);
    expect(errors / traces.length).toBeLessThan(0.5);
    expect(traces.some((t) => t.events.some((e) => e.type === 'USER_FEEDBACK'))).toBe(true);
  });

  it('reads like real support conversations: each turn follows the one before, answers differ, and a later turn is asked with the conversation so far', () => {
    const support = traces.filter((t) => t.sessionId).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    const answers = support.map((t) => (t.spans[0].output as { message?: string } | undefined)?.message).filter((m): m is string => !!m);
    // No stock sentence: nearly every answer is its own (a few cases recur across sessions).
    expect(new Set(answers).size).toBeGreaterThan(answers.length * 0.6);
    const bySession = new Map<string, typeof support>();
    for (const t of support) bySession.set(t.sessionId!, [...(bySession.get(t.sessionId!) ?? []), t]);
    for (const [session, turns] of bySession) {
      const questions = turns.map((t) => (t.spans[0].input as { message: string }).message);
      expect(new Set(questions).size, session).toBe(questions.length);
      // The order a customer names is the one the agent looks up and answers about.
      const order = questions[0].match(/#(\d+)/)?.[1];
      if (order) expect(JSON.stringify(turns[0].spans.find((s) => s.type === 'TOOL_CALL')?.input)).toContain(order);
      const lastPlan = turns.at(-1)!.spans.find((s) => s.name === 'choose next step')!;
      const said = (lastPlan.input as { messages: Array<{ role: string; content: string | null }> }).messages.filter((m) => m.role !== 'system');
      // Every earlier completed turn's question and answer come before the last question.
      const earlier = turns.slice(0, -1).filter((t) => t.status === 'COMPLETED').length;
      expect(said.length, session).toBe(earlier * 2 + 1);
      expect(said.at(-1)?.content).toBe(questions.at(-1));
    }
  });

  it('has every kind of decision a reader looks for, routing with confidences, and priced model calls with chat messages', () => {
    const decisions = traces.flatMap((t) => t.decisionPoints);
    for (const type of ['TOOL_SELECTION', 'ROUTING', 'ESCALATION', 'RETRY', 'PLANNING', 'MEMORY_RETRIEVAL']) {
      expect(decisions.some((d) => d.type === type), type).toBe(true);
    }
    const routing = decisions.find((d) => d.type === 'ROUTING')!;
    expect(routing.chosen).toMatchObject({ confidence: expect.any(Number) });
    expect(routing.alternatives.every((a) => typeof (a as { confidence?: unknown }).confidence === 'number')).toBe(true);
    const llm = traces.flatMap((t) => t.spans).filter((s) => s.type === 'LLM_CALL');
    expect(llm.every((s) => s.costUsd! > 0 && s.tokenCount! > 0)).toBe(true);
    expect(llm[0].input).toMatchObject({ messages: expect.arrayContaining([expect.objectContaining({ role: 'user' })]) });
  });

  it('has a fork where failing runs part from successful ones: the first tool the analyst picks', () => {
    const analyst = traces.filter((t) => t.name === 'sql-analyst');
    const byFirst = (tool: string) => analyst.filter((t) => (t.decisionPoints[0].chosen as { tool: string }).tool === tool);
    const errorRate = (list: typeof analyst) => list.filter((t) => t.status === 'ERROR').length / list.length;
    expect(byFirst('describe_table').length).toBeGreaterThan(2);
    expect(byFirst('run_sql').length).toBeGreaterThan(2);
    expect(errorRate(byFirst('describe_table'))).toBe(0);
    expect(errorRate(byFirst('run_sql'))).toBeGreaterThan(0.3);
  });

  it('is the same for the same clock', () => {
    expect(demoTraces(NOW)).toEqual(traces);
    expect(demoScores(demoTraces(NOW))).toEqual(demoScores(traces));
  });

  it('has reviews that judge the fork: blind queries and failed refunds wrong, with the better option and why', () => {
    const scores = demoScores(traces).flatMap((set) => set.scores);
    const decision = (s: (typeof scores)[number]) => traces.find((t) => t.id === s.traceId)!.decisionPoints.find((d) => d.id === s.decisionPointId)!;
    const reviews = scores.filter((s) => s.name === 'decision.correct');
    const firstTool = (tool: string) => reviews.filter((s) => s.decisionPointId === 'first-tool' && (decision(s).chosen as { tool: string }).tool === tool);
    expect(firstTool('run_sql').map((s) => s.value)).toEqual([false, false, false, false, false]);
    expect(firstTool('describe_table').map((s) => s.value)).toEqual(Array(9).fill(true));
    const better = scores.filter((s) => s.name === 'decision.better_option');
    expect(better.filter((s) => s.value === 'describe_table')).toHaveLength(5);
    expect(better.filter((s) => s.value === 'lookup_order')).toHaveLength(2);
    expect(better.filter((s) => s.value === 'search, read, summarise')).toHaveLength(3);
    expect(better.every((s) => typeof s.comment === 'string' && s.comment.length > 0)).toBe(true);
    // Every failed run is reviewed; of the newest completed runs none is, for the queue.
    const reviewedTraces = new Set(reviews.map((s) => s.traceId));
    expect(traces.filter((t) => t.status === 'ERROR').every((t) => reviewedTraces.has(t.id))).toBe(true);
    const newest = [...traces].sort((a, b) => b.startedAt.localeCompare(a.startedAt)).slice(0, DEMO_UNREVIEWED_NEWEST);
    expect(newest.filter((t) => t.status === 'COMPLETED' && !reviewedTraces.has(t.id)).length).toBeGreaterThan(5);
    expect(reviews).toHaveLength(129);
    // Span and trace scores besides: tone labels on replies, the evaluator's quality per run.
    expect(scores.filter((s) => s.name === 'tone' && s.spanId === 'reply')).toHaveLength(14);
    expect(scores.filter((s) => s.name === 'answer_quality' && s.spanId === undefined && s.decisionPointId === undefined)).toHaveLength(62);
  });
});

describe.each(testDatabases())('demo data on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    await db?.close();
    vi.restoreAllMocks();
  });
  beforeEach(async () => truncateAll(db));

  const scoresBySource = async () => {
    const rows = await db.sql.query<{ source: string; author: string; n: number }>(
      sql`SELECT "source"::text AS source, "authorName" AS author, count(*)::int AS n FROM "Score" WHERE "traceId" LIKE 'demo-%' GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    return rows;
  };

  const counts = async () => {
    const [row] = await db.sql.query<{ traces: string; spans: string; decisions: string; events: string }>(
      sql`SELECT (SELECT count(*) FROM "Trace" WHERE "id" LIKE 'demo-%') AS traces,
              (SELECT count(*) FROM "Span" WHERE "traceId" LIKE 'demo-%') AS spans,
              (SELECT count(*) FROM "DecisionPoint" WHERE "traceId" LIKE 'demo-%') AS decisions,
              (SELECT count(*) FROM "Event" WHERE "traceId" LIKE 'demo-%') AS events`,
    );
    return { traces: Number(row.traces), spans: Number(row.spans), decisions: Number(row.decisions), events: Number(row.events) };
  };

  it('loads through ingest, reloads without doubling, and removes everything it stored and nothing else', async () => {
    const expected = demoTraces(NOW);
    const ctx = testContext(db);
    // A trace of the user's that looks like demo data but lacks its metadata mark stays.
    const mine = makeTrace({ id: 'demo-mine', tags: ['demo'], metadata: { note: 'mine' } });
    const MINE = { spans: 2, decisions: 1, events: 1 }; // makeTrace's children
    await ingestTraces(ctx, validateIngestBody({ traces: [mine] }, { maxBatchTraces: 10, maxChildrenPerTrace: 100 }));

    expect(await loadDemoData(ctx, NOW)).toEqual({ traces: expected.length, replaced: 0 });
    const first = await counts();
    expect(first).toEqual({
      traces: expected.length + 1,
      spans: expected.reduce((n, t) => n + t.spans.length, 0) + MINE.spans,
      decisions: expected.reduce((n, t) => n + t.decisionPoints.length, 0) + MINE.decisions,
      events: expected.reduce((n, t) => n + t.events.length, 0) + MINE.events,
    });
    expect(await countDemoTraces(ctx)).toBe(expected.length);
    const stored = await getTraceOrThrow(ctx, expected[0].id);
    expect(stored).toMatchObject({ name: expected[0].name, tags: expected[0].tags, sessionId: expected[0].sessionId ?? null });

    // Again, an hour later: the same set, moved up to the new clock.
    expect(await loadDemoData(ctx, NOW + 3_600_000)).toEqual({ traces: expected.length, replaced: expected.length });
    expect(await counts()).toEqual(first);
    expect((await getTraceOrThrow(ctx, expected[0].id)).startedAt).toBe(new Date(Date.parse(expected[0].startedAt) + 3_600_000).toISOString());

    // The reviews and scores came with them, each with its author; reloading replaced them.
    const feedback = expected.flatMap((t) => t.events).filter((e) => e.type === 'USER_FEEDBACK').length;
    expect(await scoresBySource()).toEqual([
      { source: 'ANNOTATION', author: DEMO_REVIEWERS.analysis, n: 55 },
      { source: 'ANNOTATION', author: DEMO_REVIEWERS.support, n: 98 },
      { source: 'API', author: DEMO_EVALUATOR, n: 62 },
      { source: 'FEEDBACK', author: 'demo data load by test', n: feedback },
    ]);

    expect(await removeDemoData(ctx)).toBe(expected.length);
    expect(await scoresBySource()).toEqual([]);
    expect(await counts()).toEqual({ traces: 1, spans: MINE.spans, decisions: MINE.decisions, events: MINE.events });
    expect(await countDemoTraces(ctx)).toBe(0);
    expect(await removeDemoData(ctx)).toBe(0);
    // The derived figures follow: the per-status counts hold only the user's trace.
    const [status] = await db.sql.query<{ n: string }>(sql`SELECT coalesce(sum("count"), 0) AS n FROM "TraceStatusTotal"`);
    expect(Number(status.n)).toBe(1);
  });

  it("is all or nothing: scores that do not fit this server's score configs refuse the load (409), and an earlier load stays", async () => {
    const ctx = testContext(db);
    await loadDemoData(ctx, NOW);
    const before = { counts: await counts(), scores: await scoresBySource() };
    // An admin's own meaning of a name the demo uses: its tone labels are not these.
    await createScoreConfig(ctx, parseConfigBody(JSON.stringify({ name: 'tone', dataType: 'CATEGORICAL', categories: ['polite', 'rude'] })));
    try {
      const refusal = { code: 'CONFLICT', message: expect.stringMatching(/^The demo data does not fit this server's score configs: .*"tone"/) };
      await expect(loadDemoData(ctx, NOW + 3_600_000)).rejects.toMatchObject(refusal);
      expect({ counts: await counts(), scores: await scoresBySource() }).toEqual(before);
      await removeDemoData(ctx);
      await expect(loadDemoData(ctx, NOW)).rejects.toMatchObject(refusal);
      expect(await counts()).toEqual({ traces: 0, spans: 0, decisions: 0, events: 0 });
    } finally {
      await db.sql.query(sql`DELETE FROM "ScoreConfig"`);
    }
  });

  it("shows its reviews in insights, on the paths' branches and in the review queue", async () => {
    const ctx = testContext(db);
    await loadDemoData(ctx, NOW);
    const window = { from: new Date(NOW - 2 * 86_400_000).toISOString(), to: new Date(NOW + 3_600_000).toISOString() };
    const figures = await reviewFigures(ctx, window);
    const judged = (label: string) => figures.judged.find((j) => j.type === 'TOOL_SELECTION' && j.label === label);
    expect(judged('describe_table')).toMatchObject({ reviewed: 9, right: 9 });
    // run_sql: the analyst's blind first queries (5, wrong) and its queries after describing (9, right).
    expect(judged('run_sql')).toMatchObject({ reviewed: 14, right: 9 });
    expect(judged('issue_refund')).toMatchObject({ reviewed: 3, right: 1 });
    expect(figures.better).toEqual(
      expect.arrayContaining([
        { type: 'TOOL_SELECTION', label: 'run_sql', better: 'describe_table', count: 5 },
        { type: 'TOOL_SELECTION', label: 'issue_refund', better: 'lookup_order', count: 2 },
        { type: 'PLANNING', label: 'answer from memory', better: 'search, read, summarise', count: 3 },
      ]),
    );
    expect(figures.scores.map((s) => `${s.name}:${s.count}`)).toEqual(
      expect.arrayContaining(['answer_quality:62', 'decision.better_option:10', 'decision.correct:129', 'tone:14']),
    );

    const paths = await pathReviews(ctx, { ...window, name: 'sql-analyst' });
    const atStart = (label: string) => paths.branches.find((b) => b.forkId === forkId([]) && b.label === label);
    expect(atStart('run_sql')).toMatchObject({ reviewed: 5, judgedRight: 0 });
    expect(atStart('describe_table')).toMatchObject({ reviewed: 9, judgedRight: 9 });

    const next = await nextReview(asPerson(db, 'ada'), {});
    expect(next.progress).toEqual({ reviewed: 129, total: 156 });
    expect(next.item?.traceId.startsWith(DEMO_ID_PREFIX)).toBe(true);
  });

  it('is loaded by admins and ingest keys (any key in open mode), removed by admins, refused to others', async () => {
    const as = (p: Principal) => contextAs(db, p);
    await expect(loadDemoData(as(viewer), NOW)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(loadDemoData(as(openBrowser), NOW)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect((await loadDemoData(as(ingestKey), NOW)).traces).toBeGreaterThan(0);
    expect((await loadDemoData(as(openWithKey), NOW)).replaced).toBeGreaterThan(0);
    expect((await loadDemoData(as(admin), NOW)).replaced).toBeGreaterThan(0);

    await expect(removeDemoData(as(viewer))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(removeDemoData(as(ingestKey))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await countDemoTraces(as(viewer))).toBeGreaterThan(0);
    expect(await removeDemoData(as(admin))).toBeGreaterThan(0);
  });
});
