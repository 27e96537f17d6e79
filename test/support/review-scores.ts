// The reviews and scores that the list-filter and score-series tests add to
// test/support/insights-dataset.ts, worked out by hand in those tests:
//
//   decision.correct (BOOLEAN)        decision.better_option      other scores
//   T1.d1 search: true, false         T1.d1: calc                 T1: quality 0.5, tone friendly
//   T2.d1 search: false               T2.d1: web                  T2: quality 1
//   T2.d4 search: false               T2.d4: calc                 T3: tone curt
//   T3.d2 calc:   true                                            T4: tone friendly
//   T4.d1 ROUTING support: true                                   T7 (out): quality 0
//   T6.d1 search: false (T6 is out of the window)                 session s1: tone curt (no trace: left out)
import type { ServiceContext } from '@/lib/core/context';
import { saveScores } from '@/lib/features/scores/save';
import { validateScoresBody } from '@/lib/features/scores/validate';
import type { Database } from '@/lib/db/open';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { testContext } from './context';
import { truncateAll } from './databases';
import { insightsDataset, type DatasetIds } from './insights-dataset';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];

/** Empties the database and stores the insights data set with these scores; returns its ids. */
export async function seedReviewedDataset(db: Database): Promise<DatasetIds> {
  await truncateAll(db);
  const dataset = insightsDataset();
  const ctx = testContext(db);
  await ingestTraces(ctx, parseIngestBody(dataset.body, LIMITS));
  await saveReviewScores(ctx, dataset.ids);
  return dataset.ids;
}

export async function saveReviewScores(ctx: ServiceContext, ids: DatasetIds): Promise<void> {
  const correct = (trace: string, d: string, value: boolean) => ({ traceId: trace, decisionPointId: d, name: 'decision.correct', value });
  const better = (trace: string, d: string, value: string) => ({ traceId: trace, decisionPointId: d, name: 'decision.better_option', value });
  await saveScores(
    ctx,
    validateScoresBody({
      scores: [
        correct(ids.T1, 'd1', true),
        correct(ids.T1, 'd1', false),
        correct(ids.T2, 'd1', false),
        correct(ids.T2, 'd4', false),
        correct(ids.T3, 'd2', true),
        correct(ids.T4, 'd1', true),
        correct(ids.T6, 'd1', false),
        better(ids.T1, 'd1', 'calc'),
        better(ids.T2, 'd1', 'web'),
        better(ids.T2, 'd4', 'calc'),
        { traceId: ids.T1, name: 'quality', value: 0.5 },
        { traceId: ids.T2, name: 'quality', value: 1 },
        { traceId: ids.T7, name: 'quality', value: 0 },
        { traceId: ids.T1, name: 'tone', value: 'friendly' },
        { traceId: ids.T3, name: 'tone', value: 'curt' },
        { traceId: ids.T4, name: 'tone', value: 'friendly' },
        { sessionId: 's1', name: 'tone', value: 'curt' },
      ],
    }),
  );
}
