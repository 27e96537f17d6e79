// Decision reviews by branch: the pure placing of a review on its trace's path (folded
// repeats, the fork's prefix), and pathReviews on a hand-computed data set on every test
// database (the window and name filter, boolean reviews only, the read bound's flag).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScores } from '@/lib/features/scores';
import { validateScoresBody } from '@/lib/features/scores/validate';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { validateIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from '@/test/support/context';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace, uid } from '@/test/support/fixtures';
import { asKey } from '@/test/support/scores';
import { branchReviewsOf, judgedRightShareOf, stepOfDecisions } from './branch-reviews';
import { parsePathParams } from './fleet';
import { forkId } from './ids';
import { compactPathsOnce } from './compact';
import { pathReviews } from './reviews';
import type { PathDecision, Step } from './steps';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const ROUTE: Step = { type: 'ROUTING', label: 'billing', repeats: 1 };

describe('branchReviewsOf', () => {
  const decisions: Array<PathDecision & { traceId: string }> = [
    { traceId: 't1', id: 'r', type: 'ROUTING', chosen: { route: 'billing' }, timestamp: at(0) },
    { traceId: 't1', id: 's1', type: 'TOOL_SELECTION', chosen: 'sql', timestamp: at(1) },
    { traceId: 't1', id: 's2', type: 'TOOL_SELECTION', chosen: { tool: 'sql' }, timestamp: at(2) },
    { traceId: 't2', id: 'r', type: 'ROUTING', chosen: 'billing', timestamp: at(0) },
    { traceId: 't2', id: 'k', type: 'TOOL_SELECTION', chosen: 'search_kb', timestamp: at(1) },
  ];

  it('places each decision on its folded step', () => {
    const { steps, stepOf } = stepOfDecisions(decisions.filter((d) => d.traceId === 't1'));
    expect(steps).toEqual([ROUTE, { type: 'TOOL_SELECTION', label: 'sql', repeats: 2 }]);
    expect([...stepOf]).toEqual([['r', 0], ['s1', 1], ['s2', 1]]);
  });

  it('counts each review for the option its decision chose after its prefix', () => {
    const branches = branchReviewsOf(decisions, [
      { traceId: 't1', decisionPointId: 's1', value: 1 },
      { traceId: 't1', decisionPointId: 's2', value: 0 },
      { traceId: 't2', decisionPointId: 'k', value: 1 },
      { traceId: 't2', decisionPointId: 'r', value: 0 },
      // A review of a decision not given: ignored.
      { traceId: 't2', decisionPointId: 'gone', value: 1 },
    ]);
    const afterRoute = forkId([ROUTE]);
    expect(judgedRightShareOf(branches, afterRoute, { type: 'TOOL_SELECTION', label: 'sql' })).toEqual({ share: 0.5, reviewed: 2 });
    expect(judgedRightShareOf(branches, afterRoute, { type: 'TOOL_SELECTION', label: 'search_kb' })).toEqual({ share: 1, reviewed: 1 });
    expect(judgedRightShareOf(branches, forkId([]), { type: 'ROUTING', label: 'billing' })).toEqual({ share: 0, reviewed: 1 });
    expect(judgedRightShareOf(branches, afterRoute, { type: 'TOOL_SELECTION', label: 'other' })).toBeNull();
    expect(branches.reduce((n, b) => n + b.reviewed, 0)).toBe(4);
  });
});

describe.each(testDatabases())('pathReviews on $name', (target) => {
  let database: Database;
  const ctx = () => testContext(database);
  const NAME = `reviews-agent-${process.pid}`;
  const t0 = Date.UTC(2026, 2, 1, 12, 0, 0);
  const iso = (ms: number) => new Date(t0 + ms).toISOString();
  const ids = [uid('rv'), uid('rv'), uid('rv')];

  beforeAll(async () => {
    database = await target.open();
    await truncateAll(database);
    const trace = (id: string, tool: string, start: number, name = NAME) =>
      makeTrace({
        id,
        name,
        sessionId: null,
        status: 'COMPLETED',
        startedAt: iso(start),
        endedAt: iso(start + 1000),
        spans: [],
        events: [],
        decisionPoints: [
          { id: 'd0', type: 'ROUTING', chosen: 'billing', alternatives: ['tech'], timestamp: iso(start + 10) },
          { id: 'd1', type: 'TOOL_SELECTION', chosen: tool, alternatives: ['sql', 'search_kb'], timestamp: iso(start + 20) },
        ],
      });
    await ingestTraces(
      ctx(),
      validateIngestBody({ traces: [trace(ids[0], 'sql', 0), trace(ids[1], 'sql', 10_000), trace(ids[2], 'search_kb', 20_000, `${NAME}-other`)] }, { maxBatchTraces: 10, maxChildrenPerTrace: 10 }),
    );
    await saveScores(
      asKey(database),
      validateScoresBody({
        scores: [
          { traceId: ids[0], decisionPointId: 'd1', name: 'decision.correct', value: true },
          { traceId: ids[1], decisionPointId: 'd1', name: 'decision.correct', value: false },
          { traceId: ids[1], decisionPointId: 'd1', name: 'decision.correct', value: true },
          { traceId: ids[2], decisionPointId: 'd1', name: 'decision.correct', value: true },
          // Not a decision review, or not a boolean: ignored.
          { traceId: ids[0], name: 'decision.correct', value: false },
          { traceId: ids[0], decisionPointId: 'd0', name: 'decision.quality', value: 0.2 },
        ],
      }),
    );
  });

  afterAll(async () => {
    await database?.close();
  });

  const reviews = (query: string) => pathReviews(ctx(), parsePathParams(new URLSearchParams(`from=${iso(-1000)}&to=${iso(3_600_000)}&${query}`)));

  it('gives the judged-right share of each option at each fork, for the window and name', async () => {
    const result = await reviews(`name=${NAME}`);
    expect(result).toMatchObject({ name: NAME, reviewedTraces: 2, limited: false });
    expect(result.branches).toEqual([{ forkId: forkId([ROUTE]), type: 'TOOL_SELECTION', label: 'sql', reviewed: 3, judgedRight: 2 }]);
    const all = await reviews('');
    expect(all.reviewedTraces).toBe(3);
    expect(judgedRightShareOf(all.branches, forkId([ROUTE]), { type: 'TOOL_SELECTION', label: 'search_kb' })).toEqual({ share: 1, reviewed: 1 });
    // The same from the stored rows once the marked traces are compacted, and through "Trace" for a session filter.
    while ((await compactPathsOnce(database.sql)) > 0);
    expect(await reviews(`name=${NAME}`)).toEqual(result);
    expect(await reviews('')).toEqual(all);
    expect((await reviews(`name=${NAME}&status=COMPLETED`)).reviewedTraces).toBe(2);
    expect((await reviews('sessionId=none-such')).reviewedTraces).toBe(0);
  });

  it('is empty for a window without reviews, and refuses bad parameters', async () => {
    const empty = await pathReviews(ctx(), parsePathParams(new URLSearchParams(`from=${iso(-10_000_000)}&to=${iso(-5_000_000)}`)));
    expect(empty).toMatchObject({ reviewedTraces: 0, limited: false, branches: [] });
    expect(() => parsePathParams(new URLSearchParams('to=soon'))).toThrow('Invalid to parameter');
  });
});
