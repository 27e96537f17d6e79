// GET /api/insights/decisions through its route handler, on every test database, with the
// figures of test/support/insights-dataset.ts worked out by hand (see the table there).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as getList } from '@/app/api/traces/route';
import { useDatabase } from '@/lib/db';
import { OPTIONS_PER_TYPE } from '@/lib/features/insights/decisions';
import type { DecisionInsights } from '@/lib/features/insights/types';
import type { Database } from '@/lib/db/open';
import { testDatabases, truncateAll } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { insightsDataset, WINDOW, type DatasetIds } from '@/test/support/insights-dataset';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { GET } from './route';
import { testContext } from '@/test/support/context';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];
const IN_WINDOW = `from=${WINDOW.from}&to=${WINDOW.to}`;

function insights(query = ''): Promise<Response> {
  return GET(new Request(`http://test/api/insights/decisions${query ? `?${query}` : ''}`), undefined);
}

async function figures(query: string): Promise<DecisionInsights> {
  const res = await insights(query);
  expect(res.status, await res.clone().text()).toBe(200);
  return unreviewed((await res.json()) as DecisionInsights);
}

/**
 * The answer without its review figures, once they are checked to be empty: this dataset
 * has no scores (reviews.test.ts scores it).
 */
function unreviewed(body: DecisionInsights): DecisionInsights {
  const { scores, ...rest } = body;
  expect(scores).toEqual([]);
  return {
    ...rest,
    options: body.options.map(({ reviewed, judgedRight, judgedRightShare, betterOptions, ...option }) => {
      expect({ reviewed, judgedRight, judgedRightShare, betterOptions }).toEqual({ reviewed: 0, judgedRight: 0, judgedRightShare: null, betterOptions: [] });
      return option;
    }),
  };
}

async function expectError(res: Response, message: string) {
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: message });
}

/** Shares and means are floating point: compared to 12 digits, everything else exactly. */
function approx(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isInteger(value)) return expect.closeTo(value, 12);
  if (Array.isArray(value)) return value.map(approx);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, approx(v)]));
  return value;
}

describe.each(testDatabases())('GET /api/insights/decisions on $name', ({ open }) => {
  let db: Database;
  let ids: DatasetIds;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    db = await open();
    useDatabase(db);
    await truncateAll(db);
    const dataset = insightsDataset();
    ids = dataset.ids;
    await ingestTraces(testContext(db), parseIngestBody(dataset.body, LIMITS));
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

  it('answers every figure of the window, worked out by hand', async () => {
    const res = await insights(IN_WINDOW);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = unreviewed((await res.json()) as DecisionInsights);
    // T1-T5 start in the window (T5 at its first instant, T4 at its last millisecond); T6
    // starts at its end and T7 just before it, so their decisions are out, even T6's whose
    // timestamps fall inside. T4's escalation is stamped after the window: its trace is in.
    expect(body).toEqual(
      approx({
        from: WINDOW.from,
        to: WINDOW.to,
        totals: { traces: 5, decisionPoints: 11 },
        byType: [
          // T1.d1, T1.d2, T2.d1, T2.d4, T3.d2 in T1, T2, T3; durations 10, 20, 30 (two null);
          // costs 0.01, 0.03, 0.05 (two null); T2 and T3 ended in ERROR.
          { type: 'TOOL_SELECTION', count: 5, traces: 3, avgDurationMs: 20, avgCostUsd: 0.03, errorTraceShare: 2 / 3 },
          // T2.d2 (ERROR), T4.d2: durations -, 12; costs -, 0.5.
          { type: 'ESCALATION', count: 2, traces: 2, avgDurationMs: 12, avgCostUsd: 0.5, errorTraceShare: 0.5 },
          // T1.d3, T2.d3 (ERROR): durations 4, 6; no cost at all.
          { type: 'RETRY', count: 2, traces: 2, avgDurationMs: 5, avgCostUsd: null, errorTraceShare: 0.5 },
          // T3.d1 (ERROR), T4.d1: durations 8, -; costs 0.02, 0.04.
          { type: 'ROUTING', count: 2, traces: 2, avgDurationMs: 8, avgCostUsd: 0.03, errorTraceShare: 0.5 },
        ],
        options: [
          // Chosen by T1.d1 ({tool}), T2.d1 ({name}: its tool is a number), T2.d4 ("search");
          // offered by those and T1.d2. Chosen in T1 and T2 (twice in T2, counted once): 1 of 2 in ERROR.
          { type: 'TOOL_SELECTION', label: 'search', chosen: 3, offered: 4, errorTraceShareWhenChosen: 0.5 },
          // {agent:human} in T2 (also among its alternatives: offered once) and "human" in T4.
          { type: 'ESCALATION', label: 'human', chosen: 2, offered: 2, errorTraceShareWhenChosen: 0.5 },
          // "calc" in T1.d2 and {tool:calc} in T3.d2; offered also by T1.d1 and T2.d1.
          { type: 'TOOL_SELECTION', label: 'calc', chosen: 2, offered: 4, errorTraceShareWhenChosen: 0.5 },
          // T2.d3 chose 1.0, labelled "1" like its alternative 1 (offered once); T2 is ERROR.
          { type: 'RETRY', label: '1', chosen: 1, offered: 1, errorTraceShareWhenChosen: 1 },
          // T1.d3 chose nothing: labelled "null".
          { type: 'RETRY', label: 'null', chosen: 1, offered: 1, errorTraceShareWhenChosen: 0 },
          { type: 'ROUTING', label: 'billing', chosen: 1, offered: 2, errorTraceShareWhenChosen: 1 },
          { type: 'ROUTING', label: 'support', chosen: 1, offered: 2, errorTraceShareWhenChosen: 0 },
          // Offered, never chosen.
          { type: 'ESCALATION', label: 'bot', chosen: 0, offered: 1, errorTraceShareWhenChosen: null },
          { type: 'RETRY', label: '2.5', chosen: 0, offered: 1, errorTraceShareWhenChosen: null },
          { type: 'TOOL_SELECTION', label: 'web', chosen: 0, offered: 1, errorTraceShareWhenChosen: null },
        ],
        ratesByTraceName: [
          // T1, T2: retries T1.d3, T2.d3; escalation T2.d2.
          { name: 'checkout', traces: 2, retryPer100: 100, escalationPer100: 50 },
          // T3, T4: escalation T4.d2.
          { name: 'refund', traces: 2, retryPer100: 0, escalationPer100: 50 },
          { name: 'chat', traces: 1, retryPer100: 0, escalationPer100: 0 },
        ],
      }),
    );
  });

  it('applies the trace filters: status, name, tag, sessionId, and combined', async () => {
    const errors = await figures(`${IN_WINDOW}&status=ERROR`);
    // T2 and T3.
    expect(errors.totals).toEqual({ traces: 2, decisionPoints: 6 });
    expect(errors.byType).toEqual(
      approx([
        { type: 'TOOL_SELECTION', count: 3, traces: 2, avgDurationMs: 25, avgCostUsd: 0.05, errorTraceShare: 1 },
        { type: 'ESCALATION', count: 1, traces: 1, avgDurationMs: null, avgCostUsd: null, errorTraceShare: 1 },
        { type: 'RETRY', count: 1, traces: 1, avgDurationMs: 6, avgCostUsd: null, errorTraceShare: 1 },
        { type: 'ROUTING', count: 1, traces: 1, avgDurationMs: 8, avgCostUsd: 0.02, errorTraceShare: 1 },
      ]),
    );
    expect(errors.ratesByTraceName).toEqual([
      { name: 'checkout', traces: 1, retryPer100: 100, escalationPer100: 100 },
      { name: 'refund', traces: 1, retryPer100: 0, escalationPer100: 0 },
    ]);

    const refund = await figures(`${IN_WINDOW}&name=refund`);
    expect(refund.totals).toEqual({ traces: 2, decisionPoints: 4 });
    expect(refund.options.map((o) => [o.type, o.label, o.chosen, o.offered, o.errorTraceShareWhenChosen])).toEqual([
      ['ESCALATION', 'human', 1, 1, 0],
      ['ROUTING', 'billing', 1, 2, 1],
      ['ROUTING', 'support', 1, 2, 0],
      ['TOOL_SELECTION', 'calc', 1, 1, 1],
    ]);
    // Exact, not a substring, and case-sensitive.
    expect((await figures(`${IN_WINDOW}&name=Refund`)).totals).toEqual({ traces: 0, decisionPoints: 0 });
    expect((await figures(`${IN_WINDOW}&name=ref`)).totals).toEqual({ traces: 0, decisionPoints: 0 });

    // T1, T2, T4.
    expect((await figures(`${IN_WINDOW}&tag=prod`)).totals).toEqual({ traces: 3, decisionPoints: 9 });
    // T1, T3.
    expect((await figures(`${IN_WINDOW}&sessionId=s1`)).totals).toEqual({ traces: 2, decisionPoints: 5 });
    // T1, T4.
    const prodDone = await figures(`${IN_WINDOW}&tag=prod&status=COMPLETED`);
    expect(prodDone.totals).toEqual({ traces: 2, decisionPoints: 5 });
    expect(prodDone.ratesByTraceName).toEqual([
      { name: 'checkout', traces: 1, retryPer100: 100, escalationPer100: 0 },
      { name: 'refund', traces: 1, retryPer100: 0, escalationPer100: 100 },
    ]);
    // Nothing matches: empty arrays, not nulls.
    expect(await figures(`${IN_WINDOW}&tag=none`)).toEqual({
      from: WINDOW.from,
      to: WINDOW.to,
      totals: { traces: 0, decisionPoints: 0 },
      byType: [],
      options: [],
      ratesByTraceName: [],
    });
  });

  it('counts traces by startedAt in the half-open window [from, to)', async () => {
    // 02:00 to 03:00: T2 only (T3 starts at 03:00).
    expect((await figures('from=2026-03-01T02:00:00Z&to=2026-03-01T03:00:00Z')).totals).toEqual({ traces: 1, decisionPoints: 4 });
    // The same window with offsets, one "+" left unencoded (read as a space).
    const offsets = await figures('from=2026-03-01T03:00:00+01:00&to=2026-03-01T04:00:00%2B01:00');
    expect(offsets).toMatchObject({ from: '2026-03-01T02:00:00.000Z', to: '2026-03-01T03:00:00.000Z', totals: { traces: 1, decisionPoints: 4 } });
    // An empty window is allowed.
    expect((await figures('from=2026-03-01T02:00:00Z&to=2026-03-01T02:00:00Z')).totals).toEqual({ traces: 0, decisionPoints: 0 });
    // A wider window takes in T6 and T7.
    const wide = await figures('from=2026-02-28T00:00:00Z&to=2026-03-03T00:00:00Z');
    expect(wide.totals).toEqual({ traces: 7, decisionPoints: 14 });
    expect(wide.ratesByTraceName[0]).toEqual({ name: 'checkout', traces: 4, retryPer100: 75, escalationPer100: 25 });
  });

  it('defaults to the last 24 hours, and a missing end to now or 24 hours before `to`', async () => {
    const before = Date.now();
    const body = await figures('');
    const to = Date.parse(body.to);
    expect(to).toBeGreaterThanOrEqual(before);
    expect(to).toBeLessThanOrEqual(Date.now());
    expect(to - Date.parse(body.from)).toBe(24 * 3600 * 1000);
    expect(body.totals).toEqual({ traces: 0, decisionPoints: 0 });
    // Only `to`: the 24 hours before it (T1-T4 and T6's window ends at T6).
    expect(await figures(`to=${WINDOW.to}`)).toMatchObject({ from: WINDOW.from, totals: { traces: 5 } });
    // Only `from`: until now (every trace after it, T6 included).
    expect((await figures('from=2026-03-01T01:00:00Z')).totals).toEqual({ traces: 5, decisionPoints: 13 });
  });

  it('400 naming the parameter for each invalid value', async () => {
    const iso = 'must be an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z)';
    await expectError(await insights('from=yesterday'), `Invalid from parameter: ${iso}`);
    await expectError(await insights('from=2026-02-30T00:00:00Z'), `Invalid from parameter: ${iso}`);
    await expectError(await insights('to=1700000000'), `Invalid to parameter: ${iso}`);
    await expectError(await insights('from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z'), 'Invalid from parameter: must not be after to');
    // A start in the future with the default end (now).
    await expectError(await insights('from=2999-01-01T00:00:00Z'), 'Invalid from parameter: must not be after to');
    await expectError(await insights('status=DONE'), 'Invalid status parameter: must be one of RUNNING, COMPLETED, ERROR');
    for (const name of ['name', 'tag', 'sessionId']) {
      await expectError(await insights(`${name}=a%00b`), `Invalid ${name} parameter: must not contain a NUL character`);
    }
    // Empty values are absent, as in the list.
    expect((await insights('from=&to=&status=&name=&tag=&sessionId=')).status).toBe(200);
  });

  it('drills down: the list with the same filters returns exactly the traces behind each option', async () => {
    const body = await figures(IN_WINDOW);
    const chosenIn: Record<string, string[]> = {
      'TOOL_SELECTION search': [ids.T2, ids.T1],
      'TOOL_SELECTION calc': [ids.T3, ids.T1],
      'ESCALATION human': [ids.T4, ids.T2],
      'RETRY 1': [ids.T2],
      'RETRY null': [ids.T1],
      'ROUTING billing': [ids.T3],
      'ROUTING support': [ids.T4],
    };
    for (const option of body.options) {
      const query = new URLSearchParams({ ...WINDOW, decisionType: option.type, chosen: option.label, limit: '100' });
      const list = await (await getList(new Request(`http://test/api/traces?${query}`), undefined)).json();
      const traces: string[] = list.traces.map((t: { id: string }) => t.id);
      expect(traces, `${option.type} ${option.label}`).toEqual(chosenIn[`${option.type} ${option.label}`] ?? []);
      if (option.chosen > 0) {
        query.set('status', 'ERROR');
        const errors = await (await getList(new Request(`http://test/api/traces?${query}`), undefined)).json();
        expect(errors.total / list.total).toBe(option.errorTraceShareWhenChosen);
      }
    }
  });

  it(`keeps at most ${OPTIONS_PER_TYPE} options per type, the most chosen`, async () => {
    // A day of its own: one trace choosing option-0 once, option-1 twice, ... and offering 120 options.
    const alternatives = Array.from({ length: 120 }, (_, k) => `option-${k}`);
    const decisionPoints = alternatives.slice(0, 15).flatMap((label, k) =>
      Array.from({ length: k }, (_, n) => ({ id: `${label}-${n}`, type: 'PLANNING', chosen: label, alternatives, timestamp: '2026-04-01T00:00:01Z' })),
    );
    const trace = makeTrace({ id: `many-${db.kind}`, startedAt: '2026-04-01T00:00:00Z', decisionPoints });
    await ingestTraces(testContext(db), parseIngestBody(JSON.stringify({ traces: [trace] }), LIMITS));
    const body = await figures('from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z');
    expect(body.options).toHaveLength(OPTIONS_PER_TYPE);
    expect(body.options.slice(0, 3).map((o) => [o.label, o.chosen, o.offered])).toEqual([
      ['option-14', 14, 105],
      ['option-13', 13, 105],
      ['option-12', 12, 105],
    ]);
    // Then the never chosen, bytewise by label: option-0 (never chosen), option-100, option-101, ...
    expect(body.options[14]).toMatchObject({ label: 'option-0', chosen: 0, offered: 105 });
    expect(body.options[15]).toMatchObject({ label: 'option-100', chosen: 0 });
    expect(body.totals).toEqual({ traces: 1, decisionPoints: 105 });
  });
});
