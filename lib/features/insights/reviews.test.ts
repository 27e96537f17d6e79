// The review figures of GET /api/insights/decisions and its score summary, on every test
// database, over test/support/insights-dataset.ts with test/support/review-scores.ts's scores, worked out by hand:
//
//   decision.correct (BOOLEAN)        decision.better_option      other scores
//   T1.d1 search: true, false         T1.d1: calc                 T1: quality 0.5, tone friendly
//   T2.d1 search: false               T2.d1: web                  T2: quality 1
//   T2.d4 search: false               T2.d4: calc                 T3: tone curt
//   T3.d2 calc:   true                                            T4: tone friendly
//   T4.d1 ROUTING support: true                                   T7 (out): quality 0
//   T6.d1 search: false (T6 is out of the window)                 session s1: tone curt (no trace: left out)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/insights/decisions/route';
import { useDatabase } from '@/lib/db';
import type { Database } from '@/lib/db/open';
import { deleteTraceOrThrow } from '@/lib/features/retention/delete';
import { testContext } from '@/test/support/context';
import { testDatabases } from '@/test/support/databases';
import { WINDOW, type DatasetIds } from '@/test/support/insights-dataset';
import { seedReviewedDataset } from '@/test/support/review-scores';
import type { DecisionInsights, OptionStats } from './types';

async function figures(query = ''): Promise<DecisionInsights> {
  const res = await GET(new Request(`http://test/api/insights/decisions?from=${WINDOW.from}&to=${WINDOW.to}${query}`), undefined);
  expect(res.status).toBe(200);
  return (await res.json()) as DecisionInsights;
}

const review = (options: OptionStats[], type: string, label: string) => {
  const o = options.find((x) => x.type === type && x.label === label)!;
  return { reviewed: o.reviewed, judgedRight: o.judgedRight, judgedRightShare: o.judgedRightShare, betterOptions: o.betterOptions };
};
const NONE = { reviewed: 0, judgedRight: 0, judgedRightShare: null, betterOptions: [] };

describe.each(testDatabases())('review figures in GET /api/insights/decisions on $name', ({ open }) => {
  let db: Database;
  let ids: DatasetIds;

  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    ids = await seedReviewedDataset(db);
  });
  afterAll(async () => {
    await db.close();
  });

  it('per option: reviews, judged right, the share and the better options named', async () => {
    const { options, scores } = await figures();
    expect(review(options, 'TOOL_SELECTION', 'search')).toEqual({
      reviewed: 4,
      judgedRight: 1,
      judgedRightShare: 0.25,
      betterOptions: [
        { label: 'calc', count: 2 },
        { label: 'web', count: 1 },
      ],
    });
    expect(review(options, 'TOOL_SELECTION', 'calc')).toEqual({ reviewed: 1, judgedRight: 1, judgedRightShare: 1, betterOptions: [] });
    expect(review(options, 'ROUTING', 'support')).toEqual({ reviewed: 1, judgedRight: 1, judgedRightShare: 1, betterOptions: [] });
    expect(review(options, 'ROUTING', 'billing')).toEqual(NONE);
    expect(review(options, 'ESCALATION', 'human')).toEqual(NONE);
    expect(scores).toEqual([
      { name: 'decision.better_option', dataType: 'CATEGORICAL', count: 3, average: null, categories: [{ value: 'calc', count: 2 }, { value: 'web', count: 1 }] },
      { name: 'decision.correct', dataType: 'BOOLEAN', count: 6, average: 0.5, categories: [{ value: 'false', count: 3 }, { value: 'true', count: 3 }] },
      { name: 'quality', dataType: 'NUMERIC', count: 2, average: 0.75, categories: [] },
      { name: 'tone', dataType: 'CATEGORICAL', count: 3, average: null, categories: [{ value: 'friendly', count: 2 }, { value: 'curt', count: 1 }] },
    ]);
  });

  it('the trace filters apply to the reviews and the scores', async () => {
    const { options, scores } = await figures('&name=refund');
    expect(review(options, 'TOOL_SELECTION', 'calc')).toEqual({ reviewed: 1, judgedRight: 1, judgedRightShare: 1, betterOptions: [] });
    expect(review(options, 'ROUTING', 'support')).toEqual({ reviewed: 1, judgedRight: 1, judgedRightShare: 1, betterOptions: [] });
    expect(scores).toEqual([
      { name: 'decision.correct', dataType: 'BOOLEAN', count: 2, average: 1, categories: [{ value: 'true', count: 2 }] },
      { name: 'tone', dataType: 'CATEGORICAL', count: 2, average: null, categories: [{ value: 'curt', count: 1 }, { value: 'friendly', count: 1 }] },
    ]);
  });

  it('stay exact when a trace is deleted: its scores go with it', async () => {
    await deleteTraceOrThrow(testContext(db), ids.T2);
    const { options, scores } = await figures();
    expect(review(options, 'TOOL_SELECTION', 'search')).toEqual({
      reviewed: 2,
      judgedRight: 1,
      judgedRightShare: 0.5,
      betterOptions: [{ label: 'calc', count: 1 }],
    });
    expect(scores?.find((s) => s.name === 'quality')).toEqual({ name: 'quality', dataType: 'NUMERIC', count: 1, average: 0.5, categories: [] });
  });
});
