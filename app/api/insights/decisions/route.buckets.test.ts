// GET /api/insights/decisions?bucket=: the optional series of decisions by type over time
// (the insights page's "decisions by type over time" chart), on every test database, with
// the figures of test/support/insights-dataset.ts worked out by hand.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import type { DecisionInsights } from '@/lib/features/insights/types';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { insightsDataset, WINDOW } from '@/test/support/insights-dataset';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { GET } from './route';
import { testContext } from '@/test/support/context';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const IN_WINDOW = `from=${WINDOW.from}&to=${WINDOW.to}`;

function insights(query: string): Promise<Response> {
  return GET(new Request(`http://test/api/insights/decisions?${query}`), undefined);
}

async function figures(query: string): Promise<DecisionInsights> {
  const res = await insights(query);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as DecisionInsights;
}

const hour = (h: number) => `2026-03-01T${String(h).padStart(2, '0')}:00:00.000Z`;

describe.each(testDatabases())('GET /api/insights/decisions?bucket= on $name', ({ open }) => {
  let db: Database;
  const savedKeys = process.env.API_KEYS;

  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    await truncateAll(db);
    await ingestTraces(testContext(db), parseIngestBody(insightsDataset().body, LIMITS));
  });
  afterAll(async () => {
    process.env.API_KEYS = savedKeys;
    await db.close();
  });
  beforeEach(() => {
    useDatabase(db);
    delete process.env.API_KEYS;
  });

  it('counts decision points and their traces per type and hour of the trace start, every hour present', async () => {
    const body = await figures(`${IN_WINDOW}&bucket=hour`);
    expect(body.bucket).toBe('hour');
    expect(body.buckets).toHaveLength(24);
    expect(body.buckets!.map((b) => b.start)).toEqual(Array.from({ length: 24 }, (_, h) => hour(h)));
    const byHour = Object.fromEntries(body.buckets!.filter((b) => b.byType.length > 0).map((b) => [b.start, b.byType]));
    // T1 (01:00): two tool selections, a retry. T2 (02:00): two tool selections, an
    // escalation, a retry. T3 (03:00): a routing, a tool selection. T4 (23:59:59.999): a
    // routing, and an escalation stamped after the window, counted by its trace. T5 has no
    // decision; T6 (window end) and T7 (before it) are out, whatever their decisions' times.
    expect(byHour).toEqual({
      [hour(1)]: [
        { type: 'RETRY', count: 1, traces: 1 },
        { type: 'TOOL_SELECTION', count: 2, traces: 1 },
      ],
      [hour(2)]: [
        { type: 'ESCALATION', count: 1, traces: 1 },
        { type: 'RETRY', count: 1, traces: 1 },
        { type: 'TOOL_SELECTION', count: 2, traces: 1 },
      ],
      [hour(3)]: [
        { type: 'ROUTING', count: 1, traces: 1 },
        { type: 'TOOL_SELECTION', count: 1, traces: 1 },
      ],
      [hour(23)]: [
        { type: 'ESCALATION', count: 1, traces: 1 },
        { type: 'ROUTING', count: 1, traces: 1 },
      ],
    });
  });

  it('adds up to byType over one day bucket, and leaves the other figures as they are without a bucket', async () => {
    const withDay = await figures(`${IN_WINDOW}&bucket=day`);
    expect(withDay.buckets).toEqual([
      {
        start: WINDOW.from,
        byType: [
          { type: 'ESCALATION', count: 2, traces: 2 },
          { type: 'RETRY', count: 2, traces: 2 },
          { type: 'ROUTING', count: 2, traces: 2 },
          { type: 'TOOL_SELECTION', count: 5, traces: 3 },
        ],
      },
    ]);
    const without = await figures(IN_WINDOW);
    expect(without).not.toHaveProperty('buckets');
    expect(without).not.toHaveProperty('bucket');
    const { bucket, buckets, ...rest } = withDay;
    expect(bucket).toBe('day');
    expect(buckets).toBeDefined();
    expect(rest).toEqual(without);
  });

  it('takes the trace filters, and a window not aligned to the buckets starts in a partial one', async () => {
    const body = await figures(`from=2026-03-01T01:30:00Z&to=2026-03-01T03:30:00Z&bucket=hour&name=checkout`);
    expect(body.buckets).toEqual([
      { start: hour(1), byType: [] },
      {
        start: hour(2),
        byType: [
          { type: 'ESCALATION', count: 1, traces: 1 },
          { type: 'RETRY', count: 1, traces: 1 },
          { type: 'TOOL_SELECTION', count: 2, traces: 1 },
        ],
      },
      { start: hour(3), byType: [] },
    ]);
  });

  it('refuses a bucket as the overview does', async () => {
    let res = await insights(`${IN_WINDOW}&bucket=week`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Invalid bucket parameter: must be one of minute, hour, day' });
    res = await insights(`from=2026-03-01T00:00:00Z&to=2026-03-03T00:00:00Z&bucket=minute`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Invalid bucket parameter: the window holds 2880 minute buckets, more than 1500' });
  });
});
