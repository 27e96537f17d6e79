// GET /api/insights/scores on every test database, over test/support/insights-dataset.ts
// with the scores of test/support/review-scores.ts, worked out by hand. Between 00:00 and
// 04:00 on 2026-03-01 the window holds T5 (00:00, no score), T1 (01:00), T2 (02:00) and
// T3 (03:00); T4 (23:59) joins for the whole day.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import type { ScoreSeriesInsights } from '@/lib/features/insights/types';
import type { Database } from '@/lib/db/open';
import { deleteTraceOrThrow } from '@/lib/features/retention/delete';
import { testContext } from '@/test/support/context';
import { testDatabases } from '@/test/support/databases';
import { WINDOW, type DatasetIds } from '@/test/support/insights-dataset';
import { seedReviewedDataset } from '@/test/support/review-scores';
import { GET } from './route';

const FOUR_HOURS = 'from=2026-03-01T00:00:00Z&to=2026-03-01T04:00:00Z&bucket=hour';
const H = (h: number) => `2026-03-01T0${h}:00:00.000Z`;
const empty = (h: number) => ({ start: H(h), count: 0, average: null, categories: [] });

async function series(query: string): Promise<ScoreSeriesInsights> {
  const res = await GET(new Request(`http://test/api/insights/scores?${query}`), undefined);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as ScoreSeriesInsights;
}

async function expectError(query: string, message: string) {
  const res = await GET(new Request(`http://test/api/insights/scores?${query}`), undefined);
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: message });
}

describe.each(testDatabases())('GET /api/insights/scores on $name', ({ open }) => {
  let db: Database;
  let T: DatasetIds;

  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    T = await seedReviewedDataset(db);
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => {
    useDatabase(db);
  });

  it('per name: count, average and values per bucket of the trace start, every bucket present', async () => {
    const body = await series(FOUR_HOURS);
    expect(body).toMatchObject({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-01T04:00:00.000Z', bucket: 'hour' });
    expect(body.series).toEqual([
      {
        name: 'decision.correct',
        dataType: 'BOOLEAN',
        count: 5,
        average: 0.4,
        categories: [{ value: 'false', count: 3 }, { value: 'true', count: 2 }],
        buckets: [
          empty(0),
          { start: H(1), count: 2, average: 0.5, categories: [{ value: 'false', count: 1 }, { value: 'true', count: 1 }] },
          { start: H(2), count: 2, average: 0, categories: [{ value: 'false', count: 2 }] },
          { start: H(3), count: 1, average: 1, categories: [{ value: 'true', count: 1 }] },
        ],
      },
      {
        name: 'decision.better_option',
        dataType: 'CATEGORICAL',
        count: 3,
        average: null,
        categories: [{ value: 'calc', count: 2 }, { value: 'web', count: 1 }],
        buckets: [
          empty(0),
          { start: H(1), count: 1, average: null, categories: [{ value: 'calc', count: 1 }] },
          { start: H(2), count: 2, average: null, categories: [{ value: 'calc', count: 1 }, { value: 'web', count: 1 }] },
          empty(3),
        ],
      },
      {
        name: 'quality',
        dataType: 'NUMERIC',
        count: 2,
        average: 0.75,
        categories: [],
        buckets: [empty(0), { start: H(1), count: 1, average: 0.5, categories: [] }, { start: H(2), count: 1, average: 1, categories: [] }, empty(3)],
      },
      {
        name: 'tone',
        dataType: 'CATEGORICAL',
        count: 2,
        average: null,
        categories: [{ value: 'curt', count: 1 }, { value: 'friendly', count: 1 }],
        buckets: [
          empty(0),
          { start: H(1), count: 1, average: null, categories: [{ value: 'friendly', count: 1 }] },
          empty(2),
          { start: H(3), count: 1, average: null, categories: [{ value: 'curt', count: 1 }] },
        ],
      },
    ]);
  });

  it('the whole day agrees with the score summary of GET /api/insights/decisions; the default bucket is the overview\'s', async () => {
    const body = await series(`from=${WINDOW.from}&to=${WINDOW.to}`);
    expect(body.bucket).toBe('hour');
    expect(body.series.map((s) => [s.name, s.count, s.average, s.buckets.length])).toEqual([
      ['decision.correct', 6, 0.5, 24],
      ['decision.better_option', 3, null, 24],
      ['tone', 3, null, 24],
      ['quality', 2, 0.75, 24],
    ]);
    // Each series' buckets add up to its count.
    for (const s of body.series) expect(s.buckets.reduce((n, b) => n + b.count, 0)).toBe(s.count);
  });

  it('the trace filters and scoreName narrow it; an empty window has no series', async () => {
    const refund = await series(`${FOUR_HOURS}&name=refund`);
    expect(refund.series.map((s) => [s.name, s.count])).toEqual([['decision.correct', 1], ['tone', 1]]);
    const quality = await series(`${FOUR_HOURS}&scoreName=quality`);
    expect(quality.series.map((s) => s.name)).toEqual(['quality']);
    expect((await series(`${FOUR_HOURS}&status=ERROR&tag=eu`)).series.map((s) => [s.name, s.count])).toEqual([
      ['decision.better_option', 2],
      ['decision.correct', 2],
      ['quality', 1],
    ]);
    expect((await series('from=2026-03-01T00:00:00Z&to=2026-03-01T00:00:00Z')).series).toEqual([]);
  });

  it('bad parameters are the insights 400s, naming them', async () => {
    await expectError('from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 'Invalid from parameter: must not be after to');
    await expectError(`${FOUR_HOURS.replace('hour', 'week')}`, 'Invalid bucket parameter: must be one of minute, hour, day');
    await expectError('from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z&bucket=minute', 'Invalid bucket parameter: the window holds 84960 minute buckets, more than 1500');
    await expectError('status=DONE', 'Invalid status parameter: must be one of RUNNING, COMPLETED, ERROR');
    await expectError(`scoreName=${'n'.repeat(201)}`, 'Invalid scoreName parameter: must be at most 200 characters');
  });

  it('stays exact when a trace is deleted: its scores go with it', async () => {
    await deleteTraceOrThrow(testContext(db), T.T2);
    const body = await series(`${FOUR_HOURS}&scoreName=quality`);
    expect(body.series[0]).toMatchObject({ count: 1, average: 0.5 });
    expect(body.series[0].buckets[2]).toEqual(empty(2));
  });
});
