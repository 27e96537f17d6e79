// GET /api/insights/overview through its route handler, on every test database, with the
// figures of test/support/overview-dataset.ts worked out by hand (see the table there).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDatabase } from '@/lib/db';
import { MAX_BUCKETS } from '@/lib/features/insights/overview';
import type { OverviewBucketStats, OverviewFigures, OverviewInsights } from '@/lib/features/insights/types';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { OVERVIEW_WINDOW as WINDOW, overviewDataset } from '@/test/support/overview-dataset';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { GET } from './route';
import { testContext } from '@/test/support/context';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const IN_WINDOW = `from=${WINDOW.from}&to=${WINDOW.to}`;

function overview(query = ''): Promise<Response> {
  return GET(new Request(`http://test/api/insights/overview${query ? `?${query}` : ''}`), undefined);
}

async function figures(query: string): Promise<OverviewInsights> {
  const res = await overview(query);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as OverviewInsights;
}

async function expectError(res: Response, message: string) {
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: message });
}

/** Sums and percentiles are floating point: compared to 9 digits, everything else exactly. */
function approx(value: unknown): unknown {
  if (typeof value === 'number') return expect.closeTo(value, 9);
  if (Array.isArray(value)) return value.map(approx);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, approx(v)]));
  return value;
}

const ZERO: OverviewFigures = { traces: 0, errorTraces: 0, costUsd: 0, tokens: 0, p50DurationMs: null, p95DurationMs: null };

function figuresOf(traces: number, errorTraces: number, costUsd: number, tokens: number, p50: number | null, p95: number | null): OverviewFigures {
  return { traces, errorTraces, costUsd, tokens, p50DurationMs: p50, p95DurationMs: p95 };
}

const at = (time: string) => `2026-03-01T${time}.000Z`;
const empty = (start: string): OverviewBucketStats => ({ start, ...ZERO });

// The window's hourly buckets. 00: A (1000 ms), B (3000 ms), C (not ended); p50 of
// [1000, 3000] is 2000, p95 is 1000 + 0.95 × 2000 = 2900; cost A's total 0.5 + B's spans
// 0.1 + 0.2 (C has none); tokens 100 + B's spans 10 + 30 + C's 7. 01: nothing. 02: D
// (2000 ms, ERROR, no cost anywhere, span tokens 5), H (6500 ms, totalCost 0 wins over
// its span's 5, no tokens); p95 = 2000 + 0.95 × 4500. 03: E at the last millisecond, not ended.
const HOURS: OverviewBucketStats[] = [
  { start: at('00:00:00'), ...figuresOf(3, 1, 0.8, 147, 2000, 2900) },
  empty(at('01:00:00')),
  { start: at('02:00:00'), ...figuresOf(2, 1, 0, 5, 4250, 6275) },
  { start: at('03:00:00'), ...figuresOf(1, 0, 0.25, 50, null, null) },
];
// Durations [1000, 2000, 3000, 6500]: p50 at rank 1.5 is 2500, p95 at rank 2.85 is
// 3000 + 0.85 × 3500 = 5975. F (at `to`) and G (just before `from`) are out.
const TOTALS = figuresOf(6, 2, 1.05, 202, 2500, 5975);

describe.each(testDatabases())('GET /api/insights/overview on $name', ({ open }) => {
  let db: Database;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    await truncateAll(db);
    await ingestTraces(testContext(db), parseIngestBody(JSON.stringify(overviewDataset()), LIMITS));
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => {
    useDatabase(db);
    delete process.env.API_KEYS;
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });

  it('answers every hourly bucket of the window, empty ones as zeros, worked out by hand', async () => {
    const res = await overview(`${IN_WINDOW}&bucket=hour`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual(approx({ from: WINDOW.from, to: WINDOW.to, bucket: 'hour', totals: TOTALS, buckets: HOURS }));
  });

  it('defaults to minute buckets for a 4-hour window: every minute present, in order', async () => {
    const body = await figures(IN_WINDOW);
    expect(body.bucket).toBe('minute');
    const expected = Array.from({ length: 240 }, (_, k) => empty(new Date(Date.parse(WINDOW.from) + k * 60_000).toISOString()));
    const set = (k: number, f: OverviewFigures) => (expected[k] = { start: expected[k].start, ...f });
    set(0, figuresOf(1, 0, 0.5, 100, 1000, 1000)); // A: its totals, not its span's 9 and 900
    set(30, figuresOf(1, 1, 0.3, 40, 3000, 3000)); // B: sums of its spans, nulls skipped
    set(45, figuresOf(1, 0, 0, 7, null, null)); // C: no cost anywhere, not ended
    set(130, figuresOf(1, 1, 0, 5, 2000, 2000)); // D: span costs all null
    set(140, figuresOf(1, 0, 0, 0, 6500, 6500)); // H: totalCost 0, no tokens anywhere
    set(239, figuresOf(1, 0, 0.25, 50, null, null)); // E at 03:59:59.999
    expect(body).toEqual(approx({ from: WINDOW.from, to: WINDOW.to, bucket: 'minute', totals: TOTALS, buckets: expected }));
  });

  it('day buckets: one, equal to the totals', async () => {
    expect(await figures(`${IN_WINDOW}&bucket=day`)).toEqual(
      approx({ from: WINDOW.from, to: WINDOW.to, bucket: 'day', totals: TOTALS, buckets: [{ start: at('00:00:00'), ...TOTALS }] }),
    );
  });

  it('applies the trace filters: status, name, tag, sessionId, and combined', async () => {
    const hourly = async (filter: string) => figures(`${IN_WINDOW}&bucket=hour&${filter}`);
    // B and D: durations [3000, 2000].
    const errors = await hourly('status=ERROR');
    expect(errors.totals).toEqual(approx(figuresOf(2, 2, 0.3, 45, 2500, 2950)));
    expect(errors.buckets).toEqual(
      approx([
        { start: at('00:00:00'), ...figuresOf(1, 1, 0.3, 40, 3000, 3000) },
        empty(at('01:00:00')),
        { start: at('02:00:00'), ...figuresOf(1, 1, 0, 5, 2000, 2000) },
        empty(at('03:00:00')),
      ]),
    );
    // C, D, H: exact and case-sensitive.
    expect((await hourly('name=refund')).totals).toEqual(approx(figuresOf(3, 1, 0, 12, 4250, 6275)));
    expect((await hourly('name=Refund')).totals).toEqual(ZERO);
    // A, B, D, E: durations [1000, 3000, 2000].
    expect((await hourly('tag=prod')).totals).toEqual(approx(figuresOf(4, 2, 1.05, 195, 2000, 2900)));
    // A, C, E.
    expect((await hourly('sessionId=s1')).totals).toEqual(approx(figuresOf(3, 0, 0.75, 157, 1000, 1000)));
    // A, E.
    expect((await hourly('tag=prod&sessionId=s1')).totals).toEqual(approx(figuresOf(2, 0, 0.75, 150, 1000, 1000)));
    // Nothing matches: every bucket still present, zeros; percentiles null.
    expect(await hourly('tag=none')).toEqual({
      from: WINDOW.from,
      to: WINDOW.to,
      bucket: 'hour',
      totals: ZERO,
      buckets: ['00', '01', '02', '03'].map((h) => empty(at(`${h}:00:00`))),
    });
  });

  it('window edges: the first bucket contains `from`, the last the millisecond before `to`', async () => {
    // B starts a millisecond before `from`, D at `to`: only C, in the 00 bucket; 02 holds
    // 02:00 to 02:09:59.999 and is empty.
    expect(await figures(`from=${at('00:30:00').replace('.000', '.001')}&to=${at('02:10:00')}&bucket=hour`)).toEqual({
      from: '2026-03-01T00:30:00.001Z',
      to: at('02:10:00'),
      bucket: 'hour',
      totals: figuresOf(1, 0, 0, 7, null, null),
      buckets: [{ start: at('00:00:00'), ...figuresOf(1, 0, 0, 7, null, null) }, empty(at('01:00:00')), empty(at('02:00:00'))],
    });
    // An aligned `to` opens no bucket of its own.
    const aligned = await figures(`from=${at('01:00:00')}&to=${at('03:00:00')}&bucket=hour`);
    expect(aligned.buckets).toEqual(approx([HOURS[1], HOURS[2]]));
    // An empty window has no bucket.
    expect(await figures(`from=${at('01:00:00')}&to=${at('01:00:00')}&bucket=hour`)).toMatchObject({ totals: ZERO, buckets: [] });
    // A wider window takes in G (5000 ms, first bucket) and F (10000 ms, last bucket).
    const wide = await figures('from=2026-02-28T23:00:00Z&to=2026-03-01T05:00:00Z&bucket=hour');
    expect(wide.buckets.map((b) => b.start)).toEqual(['2026-02-28T23:00:00.000Z', ...['00', '01', '02', '03', '04'].map((h) => at(`${h}:00:00`))]);
    expect(wide.buckets[0]).toEqual({ start: '2026-02-28T23:00:00.000Z', ...figuresOf(1, 0, 100, 1000, 5000, 5000) });
    expect(wide.buckets[5]).toEqual({ start: at('04:00:00'), ...figuresOf(1, 0, 100, 1000, 10000, 10000) });
    // Durations [1000, 2000, 3000, 5000, 6500, 10000]: p50 at rank 2.5, p95 at rank 4.75.
    expect(wide.totals).toEqual(approx(figuresOf(8, 2, 201.05, 2202, 4000, 6500 + 0.75 * 3500)));
  });

  it('chooses the bucket from the window: minute up to 6 hours, hour up to 14 days, day beyond', async () => {
    const choice = async (from: string, to: string) => {
      const body = await figures(`from=${from}&to=${to}`);
      return [body.bucket, body.buckets.length];
    };
    expect(await choice(at('00:00:00'), at('06:00:00'))).toEqual(['minute', 360]);
    expect(await choice(at('00:00:00'), '2026-03-01T06:00:00.001Z')).toEqual(['hour', 7]);
    expect(await choice(at('00:00:00'), '2026-03-15T00:00:00.000Z')).toEqual(['hour', 336]);
    expect(await choice(at('00:00:00'), '2026-03-15T00:00:00.001Z')).toEqual(['day', 15]);
    // 30 days from mid-day: 31 day buckets.
    expect(await choice('2026-03-01T12:00:00.000Z', '2026-03-31T12:00:00.000Z')).toEqual(['day', 31]);
    // The default window, the last 24 hours: hourly, 24 or 25 buckets as now is aligned or not.
    const body = await figures('');
    expect(body.bucket).toBe('hour');
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(24 * 3600 * 1000);
    expect(body.buckets.length).toBe(Date.parse(body.to) % 3_600_000 === 0 ? 24 : 25);
    expect(body.buckets[0].start).toBe(new Date(Math.floor(Date.parse(body.from) / 3_600_000) * 3_600_000).toISOString());
    // Empty means absent.
    expect((await figures(`${IN_WINDOW}&bucket=`)).bucket).toBe('minute');
  });

  it(`refuses a window of more than ${MAX_BUCKETS} buckets`, async () => {
    // 25 hours of minutes is exactly the maximum.
    expect((await figures(`from=${at('00:00:00')}&to=2026-03-02T01:00:00Z&bucket=minute`)).buckets).toHaveLength(MAX_BUCKETS);
    await expectError(
      await overview(`from=${at('00:00:00')}&to=2026-03-02T01:00:00.001Z&bucket=minute`),
      'Invalid bucket parameter: the window holds 1501 minute buckets, more than 1500',
    );
    // 2026-01-01 to 03-05: 63 days, 1512 hours.
    await expectError(
      await overview('from=2026-01-01T00:00:00Z&to=2026-03-05T00:00:00Z&bucket=hour'),
      'Invalid bucket parameter: the window holds 1512 hour buckets, more than 1500',
    );
    // 2020 and 2024 (366 days each), 2021-2023 and 2025 (365 each), then 59 days of 2026: 2251 days.
    await expectError(
      await overview('from=2020-01-01T00:00:00Z&to=2026-03-01T00:00:00Z&bucket=day'),
      'Invalid bucket parameter: the window holds 2251 day buckets, more than 1500',
    );
    // With no bucket named, even days are too many: the window is at fault.
    await expectError(
      await overview('from=2020-01-01T00:00:00Z&to=2026-03-01T00:00:00Z'),
      'Invalid from parameter: the window holds 2251 day buckets, more than 1500',
    );
  });

  it('400 naming the parameter for each invalid value', async () => {
    for (const bucket of ['week', 'Hour', 'minutes']) {
      await expectError(await overview(`bucket=${bucket}`), 'Invalid bucket parameter: must be one of minute, hour, day');
    }
    const iso = 'must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z)';
    await expectError(await overview('from=yesterday'), `Invalid from parameter: ${iso}`);
    await expectError(await overview('to=1700000000'), `Invalid to parameter: ${iso}`);
    await expectError(await overview(`from=${WINDOW.to}&to=${WINDOW.from}`), 'Invalid from parameter: must not be after to');
    await expectError(await overview('status=DONE'), 'Invalid status parameter: must be one of RUNNING, COMPLETED, ERROR');
    for (const name of ['name', 'tag', 'sessionId']) {
      await expectError(await overview(`${name}=a%00b`), `Invalid ${name} parameter: must not contain a NUL character`);
    }
    expect((await overview('from=&to=&status=&name=&tag=&sessionId=&bucket=')).status).toBe(200);
  });
});
