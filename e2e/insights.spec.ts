// The insights page (issue 12) in Chromium against the production build. The dataset goes
// in through the real POST /api/traces, every trace tagged with this run's tag, and every
// page below is filtered to that tag, so the figures hold in a database shared with other
// spec files. The expected figures are worked out by hand in the table below.
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { runId, simpleTrace, type DecisionInput, type TraceInput } from './fixtures';
import { insightsDemo } from './insights-demo';
import { E2E_ADMIN } from '../playwright.config';
import { contrastProblems, expect, open, postTraces, rowNames, shotPath, test } from './viewer-helpers';

const R = runId();
const TAG = `ins-${R}`;
const P = `insights-${R}`;
const CHECKOUT = `${P}-checkout`;
const REFUND = `${P}-refund`;

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

//  trace  name      status     started    ended after  cost   tokens  decisions (type: chosen | alternatives)
//  A1     checkout  COMPLETED  10 min ago  2 s          0.10   1,000   TOOL: {tool:search} | {tool:search},{tool:calc};  RETRY: "again"
//  A2     checkout  ERROR      20 min ago  4 s          0.20   2,000   TOOL: "calc" | "search";  ESCALATION: {agent:human} | {agent:bot}
//  A3     refund    COMPLETED  30 min ago  6 s          0.30   3,000   TOOL: {tool:search} | "calc","web"
//  B1     refund    ERROR      5 h ago     8 s          0.40   4,000   TOOL: "search" | -;  ROUTING: {route:billing} | {route:support}
//  C1     checkout  COMPLETED  3 days ago  1 s          1.00  10,000   TOOL: "web" | "search"
//  D1     checkout  COMPLETED  20 days ago 3 s          (spans: 0.50 + 0.25; 500 + 250 tokens)
//
// Last hour (A1-A3): 3 traces, 1 error (33.3%), $0.60, 6,000 tokens; durations 2, 4, 6 s:
//   p50 4 s, p95 4 + 0.9 × 2 = 5.8 s (interpolated). search chosen 2 of 3 offered (0% errors).
// Last 24 hours (+B1): 4 traces, 2 errors (50%), $1.00, 10,000 tokens; p50 5 s, p95 6 + 0.85 × 2 = 7.7 s.
//   Tool selection: search chosen 3 (A1, A3, B1) of 4 offered (A2 lists it), errors when
//   chosen 1 of 3 traces (33.3%); calc chosen 1 (A2) of 3 offered (A1, A2, A3), 100%; web
//   offered once, never chosen. Decision types: tool selection 4 in 4 traces (50% in error).
//   Rates: checkout 2 traces, 50 retries and 50 escalations per 100; refund 2 traces, 0 and 0.
// Last 7 days (+C1): 5 traces, 2 errors (40%), $2.00, 20,000 tokens.
// Last 30 days (+D1): 6 traces, $2.75, 20,750 tokens.
function dataset(now: number): TraceInput[] {
  const trace = (id: string, name: string, status: 'COMPLETED' | 'ERROR', ago: number, seconds: number, cost: number | undefined, tokens: number | undefined, decisionPoints: Array<Omit<DecisionInput, 'timestamp'>>): TraceInput => {
    const start = now - ago;
    return simpleTrace({
      id: `${id}-${R}`,
      name,
      status,
      tags: [TAG, 'e2e'],
      startedAt: new Date(start).toISOString(),
      endedAt: new Date(start + seconds * 1000).toISOString(),
      totalCost: cost,
      totalTokens: tokens,
      decisionPoints: decisionPoints.map((d, i) => ({ ...d, timestamp: new Date(start + 100 * (i + 1)).toISOString() })),
    });
  };
  const d1 = trace('D1', CHECKOUT, 'COMPLETED', 20 * DAY, 3, undefined, undefined, []);
  const at = d1.startedAt;
  d1.spans = [
    { id: 's1', name: 'plan', type: 'LLM_CALL', status: 'COMPLETED', startedAt: at, costUsd: 0.5, tokenCount: 500 },
    { id: 's2', name: 'answer', type: 'LLM_CALL', status: 'COMPLETED', startedAt: at, costUsd: 0.25, tokenCount: 250 },
  ];
  return [
    trace('A1', CHECKOUT, 'COMPLETED', 10 * MIN, 2, 0.1, 1000, [
      { id: 't', type: 'TOOL_SELECTION', chosen: { tool: 'search' }, alternatives: [{ tool: 'search' }, { tool: 'calc' }] },
      { id: 'r', type: 'RETRY', chosen: 'again', alternatives: [] },
    ]),
    trace('A2', CHECKOUT, 'ERROR', 20 * MIN, 4, 0.2, 2000, [
      { id: 't', type: 'TOOL_SELECTION', chosen: 'calc', alternatives: ['search'] },
      { id: 'e', type: 'ESCALATION', chosen: { agent: 'human' }, alternatives: [{ agent: 'bot' }] },
    ]),
    trace('A3', REFUND, 'COMPLETED', 30 * MIN, 6, 0.3, 3000, [
      { id: 't', type: 'TOOL_SELECTION', chosen: { tool: 'search' }, alternatives: ['calc', 'web'] },
    ]),
    trace('B1', REFUND, 'ERROR', 5 * HOUR, 8, 0.4, 4000, [
      { id: 't', type: 'TOOL_SELECTION', chosen: 'search', alternatives: [] },
      { id: 'g', type: 'ROUTING', chosen: { route: 'billing' }, alternatives: [{ route: 'support' }] },
    ]),
    trace('C1', CHECKOUT, 'COMPLETED', 3 * DAY, 1, 1, 10000, [{ id: 't', type: 'TOOL_SELECTION', chosen: 'web', alternatives: ['search'] }]),
    d1,
  ];
}

let seededAt = 0;

// Each test signs in for itself: the saved admin session (test-results/.auth) is one file
// for every Playwright run in the checkout, and a run on another port replaces it.
test.use({ storageState: { cookies: [], origins: [] } });
test.beforeEach(async ({ page, baseURL }) => {
  const res = await page.request.post('/api/auth/sign-in/email', {
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
    headers: { origin: baseURL! },
  });
  expect(res.status(), await res.text()).toBe(200);
});

test.beforeAll(async ({ playwright }) => {
  // The screenshots show the realistic traces only.
  if (process.env.INSIGHTS_SCREENSHOTS) return;
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  seededAt = Date.now();
  await postTraces(request, dataset(seededAt));
  await request.dispose();
});

const tile = (page: Page, name: string) => page.getByTestId(`tile-${name}`).locator('span').nth(1);
const option = (page: Page, type: string, label: string) => page.locator(`[data-options-type="${type}"] [data-option="${label}"]`);

async function expectFigures(page: Page, figures: { traces: string; errors: string; errorRate: string; cost: string; tokens: string }) {
  await expect(tile(page, 'traces')).toHaveText(figures.traces);
  await expect(tile(page, 'errors')).toHaveText(figures.errors);
  await expect(page.getByTestId('tile-errors')).toContainText(`${figures.errorRate} error rate`);
  await expect(tile(page, 'cost')).toHaveText(figures.cost);
  await expect(tile(page, 'tokens')).toHaveText(figures.tokens);
}

test('the header links to the insights page', async ({ page }) => {
  await open(page, '/traces');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Insights' }).click();
  await expect(page).toHaveURL(/\/insights$/);
  await expect(page.getByRole('heading', { name: 'Insights', level: 1 })).toBeVisible();
});

test('renders the figures of the last 24 hours, worked out by hand', async ({ page }) => {
  await open(page, `/insights?tag=${TAG}`);
  await expectFigures(page, { traces: '4', errors: '2', errorRate: '50%', cost: '$1.00', tokens: '10,000' });
  await expect(tile(page, 'p50')).toHaveText('5 s');
  await expect(tile(page, 'p95')).toHaveText('7.7 s');

  await expect(option(page, 'TOOL_SELECTION', 'search')).toContainText('chosen 3 of 4 times offered');
  await expect(option(page, 'TOOL_SELECTION', 'search')).toContainText('33.3% of traces ended in error when chosen');
  await expect(option(page, 'TOOL_SELECTION', 'calc')).toContainText('chosen 1 of 3 times offered');
  await expect(option(page, 'TOOL_SELECTION', 'calc')).toContainText('100% of traces ended in error when chosen');
  await expect(option(page, 'TOOL_SELECTION', 'web')).toContainText('never chosen, offered 1 time');
  // Ranked by times chosen.
  expect(await page.locator('[data-options-type="TOOL_SELECTION"] [data-option]').evaluateAll((els) => els.map((e) => e.getAttribute('data-option')))).toEqual(['search', 'calc', 'web']);
  await expect(option(page, 'ROUTING', 'billing')).toContainText('chosen 1 of 1 times offered');
  await expect(option(page, 'ROUTING', 'support')).toContainText('never chosen, offered 1 time');

  const tool = page.getByTestId('decision-types').locator('tr[data-type="TOOL_SELECTION"] td');
  await expect(tool.nth(0)).toHaveText('4');
  await expect(tool.nth(1)).toHaveText('4');
  await expect(tool.nth(2)).toHaveText('50%');

  const checkout = page.getByTestId('rates').locator(`tr[data-name="${CHECKOUT}"] td`);
  await expect(checkout.nth(0)).toHaveText('2');
  await expect(checkout.nth(1)).toHaveText('50');
  await expect(checkout.nth(2)).toHaveText('50');
  const refund = page.getByTestId('rates').locator(`tr[data-name="${REFUND}"] td`);
  await expect(refund).toHaveText(['2', '0', '0']);

  // The charts are drawn (SVG), with a text alternative: the figures as a table.
  const traces = page.getByRole('region', { name: 'Traces and errors' });
  await expect(traces.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await traces.getByRole('button', { name: 'Show table' }).click();
  const table = traces.getByRole('region', { name: 'Traces and errors, table' }).locator('tbody tr');
  // One row per hour holding a trace: A1-A3's (one or two hours) and B1's.
  const hours = new Set([10 * MIN, 20 * MIN, 30 * MIN, 5 * HOUR].map((ago) => Math.floor((seededAt - ago) / HOUR)));
  await expect(table).toHaveCount(hours.size);
});

test('changing the range updates the URL and the figures', async ({ page }) => {
  await open(page, `/insights?tag=${TAG}`);
  await expect(tile(page, 'traces')).toHaveText('4');
  const range = page.getByRole('group', { name: 'Time range' });

  await range.getByText('Last hour', { exact: true }).click();
  await expect(page).toHaveURL(/[?&]range=1h(&|$)/);
  await expect(page).toHaveURL(new RegExp(`tag=${TAG}`));
  await expectFigures(page, { traces: '3', errors: '1', errorRate: '33.3%', cost: '$0.60', tokens: '6,000' });
  await expect(tile(page, 'p50')).toHaveText('4 s');
  await expect(tile(page, 'p95')).toHaveText('5.8 s');
  await expect(option(page, 'TOOL_SELECTION', 'search')).toContainText('chosen 2 of 3 times offered');

  await range.getByText('Last 7 days', { exact: true }).click();
  await expect(page).toHaveURL(/[?&]range=7d(&|$)/);
  await expectFigures(page, { traces: '5', errors: '2', errorRate: '40%', cost: '$2.00', tokens: '20,000' });
  await expect(option(page, 'TOOL_SELECTION', 'search')).toContainText('chosen 3 of 5 times offered');
  await expect(option(page, 'TOOL_SELECTION', 'web')).toContainText('chosen 1 of 2 times offered');

  await range.getByText('Last 30 days', { exact: true }).click();
  await expect(page).toHaveURL(/[?&]range=30d(&|$)/);
  // D1 has no totals: its spans' cost and tokens count.
  await expectFigures(page, { traces: '6', errors: '2', errorRate: '33.3%', cost: '$2.75', tokens: '20,750' });

  // Back returns to the previous range and its figures; a reload keeps the URL's range.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]range=7d(&|$)/);
  await expect(tile(page, 'traces')).toHaveText('5');
  await page.reload();
  await expect(tile(page, 'traces')).toHaveText('5');

  // A custom window in the URL: the 2 hours around B1 hold it alone.
  const from = new Date(Date.now() - 6 * HOUR).toISOString();
  const to = new Date(Date.now() - 4 * HOUR).toISOString();
  await open(page, `/insights?from=${from}&to=${to}&tag=${TAG}`);
  await expect(page.getByRole('group', { name: 'Time range' }).getByRole('radio', { name: 'Custom' })).toBeChecked();
  await expectFigures(page, { traces: '1', errors: '1', errorRate: '100%', cost: '$0.40', tokens: '4,000' });
});

test('an option drills down to exactly the traces where it was chosen', async ({ page }) => {
  await open(page, `/insights?tag=${TAG}`);
  await option(page, 'TOOL_SELECTION', 'search').getByRole('link', { name: /chosen 3 of 4 times offered/ }).click();
  await expect(page).toHaveURL(/\/traces\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('decisionType')).toBe('TOOL_SELECTION');
  expect(url.searchParams.get('chosen')).toBe('search');
  expect(url.searchParams.getAll('tag')).toEqual([TAG]);
  expect(Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!)).toBe(DAY);
  await expect(page.locator('tbody tr')).toHaveCount(3);
  expect(await rowNames(page)).toEqual([CHECKOUT, REFUND, REFUND]); // A1, A3, B1, newest first
  const chips = page.getByRole('list', { name: 'Other filters' });
  await expect(chips).toContainText('Decision type:Tool selection');
  await expect(chips).toContainText('Chosen:search');

  // A chip removes its filter: without the chosen label, every trace with a tool selection.
  await chips.getByRole('button', { name: 'Remove filter Chosen: search' }).click();
  await expect(page).not.toHaveURL(/chosen=/);
  await expect(page.locator('tbody tr')).toHaveCount(4);

  // The bar of calc (mouse only; its count is the keyboard's way) and the errors of the window.
  await open(page, `/insights?tag=${TAG}`);
  await option(page, 'TOOL_SELECTION', 'calc').getByTestId('option-bar').click();
  await expect(page).toHaveURL(/chosen=calc/);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  expect(await rowNames(page)).toEqual([CHECKOUT]); // A2

  await open(page, `/insights?tag=${TAG}`);
  await page.getByTestId('tile-errors').click();
  await expect(page).toHaveURL(/status=ERROR/);
  await expect(page.locator('tbody tr')).toHaveCount(2);
  expect(await rowNames(page)).toEqual([CHECKOUT, REFUND]); // A2, B1
});

test('a bar of a chart drills down to its bucket', async ({ page }) => {
  await open(page, `/insights?range=1h&tag=${TAG}`);
  const traces = page.getByRole('region', { name: 'Traces and errors' });
  // Minute buckets: three bars of one trace each; the error bar is A2's minute.
  const errorBar = traces.locator('.recharts-bar-rectangle path[fill="var(--ch-errors)"]');
  await expect(errorBar).toHaveCount(1);
  await errorBar.click();
  await expect(page).toHaveURL(/status=ERROR/);
  const url = new URL(page.url());
  expect(Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!)).toBe(MIN);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  expect(await rowNames(page)).toEqual([CHECKOUT]);
});

test('keeps the drill-down filters when paging the list', async ({ page }) => {
  await open(page, `/traces?tag=${TAG}&decisionType=TOOL_SELECTION&limit=2`);
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await page.getByRole('link', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).toHaveURL(/decisionType=TOOL_SELECTION/);
  await expect(page).toHaveURL(new RegExp(`tag=${TAG}`));
  await expect(page.locator('tbody tr')).toHaveCount(2); // 5 traces with a tool selection: A1, A2, A3, B1, C1
});

test('a failed request says so and offers a retry that recovers', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 500/);
  consoleGuard.allow(/^\[response 500\] .*\/api\/insights\/overview\?/);
  await open(page, `/insights?tag=${TAG}`);
  await expect(tile(page, 'traces')).toHaveText('4');
  await page.route('**/api/insights/overview?**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Database unreachable"}' }));
  await page.getByRole('group', { name: 'Time range' }).getByText('Last 7 days', { exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Could not load the insights' });
  await expect(alert).toContainText('Could not load the insights');
  await expect(alert).toContainText('Database unreachable');
  await page.unroute('**/api/insights/overview?**');
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(tile(page, 'traces')).toHaveText('5');
});

test('says when the window holds no trace', async ({ page }) => {
  await open(page, `/insights?tag=none-${R}`);
  await expect(page.getByTestId('insights-empty')).toContainText('No traces in this window');
  await expect(page.getByTestId('insights-empty')).toContainText('No trace matching these filters started between');
});

test('renders in dark mode, readable', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await open(page, `/insights?tag=${TAG}`);
  await expect(tile(page, 'traces')).toHaveText('4');
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(11, 17, 32)');
  // Chart colours follow the scheme: the traces bars take the dark palette's blue.
  expect(await page.locator('.insights-root').evaluate((el) => getComputedStyle(el).getPropertyValue('--ch-traces').trim())).toBe('#60a5fa');
  expect(await contrastProblems(page)).toEqual([]);
  await page.screenshot({ path: shotPath('insights-dark'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await contrastProblems(page)).toEqual([]);
});

// Screenshots for docs/viewer.md, with a week of realistic traces (on request only: the seeded
// traces would crowd the lists other spec files look at):
//   INSIGHTS_SCREENSHOTS=1 npx playwright test e2e/insights.spec.ts -g screenshots
// (only this test: the others' dataset is then not seeded).
test('screenshots with realistic data', async ({ page, playwright }) => {
  test.skip(!process.env.INSIGHTS_SCREENSHOTS, 'set INSIGHTS_SCREENSHOTS=1 to take the docs/viewer.md screenshots');
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const traces = insightsDemo(`demo-${R}`, Date.now());
  for (let i = 0; i < traces.length; i += 200) await postTraces(request, traces.slice(i, i + 200));
  await request.dispose();
  fs.mkdirSync('docs/screenshots', { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await open(page, '/insights?range=7d');
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await page.screenshot({ path: `docs/screenshots/insights-${scheme}.png`, fullPage: true });
    // Closer looks, for checking the charts by eye.
    await page.locator('section', { has: page.getByRole('heading', { name: 'Traces over time' }) }).screenshot({ path: shotPath(`overview-${scheme}`) });
    const decisions = page.getByRole('region', { name: 'Decisions by type over time' });
    await decisions.locator('.recharts-bar-rectangle').nth(60).hover();
    await expect(decisions.locator('.recharts-tooltip-wrapper')).toBeVisible();
    await decisions.screenshot({ path: shotPath(`decisions-${scheme}`) });
  }
  // Where a drill-down lands: the list with its filters as chips.
  await page.locator('[data-options-type="TOOL_SELECTION"] [data-option="web_search"]').getByRole('link').first().click();
  await expect(page.getByRole('list', { name: 'Other filters' })).toBeVisible();
  await page.screenshot({ path: shotPath('drill-down-dark') });
});
