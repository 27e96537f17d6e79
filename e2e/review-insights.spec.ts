// Reviews seen in insights: decisions reviewed from the queue by keyboard move the option's
// judged-right share and fill the should-have-been matrix, and each figure drills down to
// exactly the traces of those decisions; scores over time show the verdicts; the list shows
// a score as a column, sorts and filters by it. Data goes in through the real POST /api/traces.
import type { Page } from '@playwright/test';
import path from 'node:path';
import { runId, type TraceInput } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const NAME = `judged run ${R}`;
const A = `judged-a-${R}`;
const B = `judged-b-${R}`;

/** Screenshots go to E2E_SHOTS_DIR when set (to look at them), else beside the test's output. */
const shot = (name: string) => (process.env.E2E_SHOTS_DIR ? path.join(process.env.E2E_SHOTS_DIR, `${name}.png`) : shotPath(name));

/** Two runs of one agent, each choosing `lookup` twice; B is the newer, so the queue shows its decisions first. */
function run(id: string, minutesAgo: number, first: number): TraceInput {
  const t0 = Date.now() - minutesAgo * 60_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const pick = (i: number) => ({
    id: `d${i}`,
    type: 'TOOL_SELECTION' as const,
    reasoning: `Step ${i}: lookup should find the order.`,
    chosen: { tool: 'lookup' },
    alternatives: [{ tool: 'sql' }, { tool: 'web' }],
    parentSpanId: 'agent',
    timestamp: at(100 * i),
  });
  return {
    id,
    name: NAME,
    status: 'COMPLETED',
    tags: ['e2e'],
    startedAt: at(0),
    endedAt: at(2000),
    spans: [{ id: 'agent', name: 'order agent', type: 'AGENT', status: 'COMPLETED', startedAt: at(0), endedAt: at(2000) }],
    decisionPoints: [pick(first), pick(first + 1)],
    events: [],
  };
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, [run(A, 10, 1), run(B, 5, 3)]);
  await request.dispose();
});

const insightsUrl = `/insights?range=1h&name=${encodeURIComponent(NAME)}`;
const lookup = (page: Page) => page.locator('[data-options-type="TOOL_SELECTION"] [data-option="lookup"]');

test('reviews from the queue move the judged-right share in insights, which drills down to their decisions', async ({ page }) => {
  await open(page, insightsUrl);
  await expect(lookup(page).getByTestId('option-reviews')).toHaveText('Not reviewed yet · review its decisions');

  // The option's review link opens the queue for it, with the page's window and name.
  await lookup(page).getByRole('link', { name: 'review its decisions' }).click();
  await expect(page).toHaveURL(/\/review\?type=TOOL_SELECTION&option=lookup&name=/);
  const progress = page.getByTestId('review-progress');
  const item = page.getByTestId('review-item');
  await expect(progress).toHaveText('0 of 4 reviewed');

  // B's decisions first (newest trace): both wrong, sql should have been chosen.
  for (const [step, done] of [
    [3, 1],
    [4, 2],
  ] as const) {
    await expect(item).toContainText(`Step ${step}: lookup`);
    await page.keyboard.press('w');
    await expect(page.getByTestId('better-option')).toBeVisible();
    await page.keyboard.press('1'); // sql
    await expect(progress).toHaveText(`${done} of 4 reviewed`);
  }
  // A's: both right.
  for (const [step, done] of [
    [1, 3],
    [2, 4],
  ] as const) {
    await expect(item).toContainText(`Step ${step}: lookup`);
    await page.keyboard.press('r');
    await expect(progress).toHaveText(`${done} of 4 reviewed`);
  }

  // Insights: half judged right, beside the error share; the matrix says sql twice.
  await open(page, insightsUrl);
  const reviews = lookup(page).getByTestId('option-reviews');
  await expect(reviews).toHaveText('50% judged right of 4 reviewed · 2 wrong');
  const matrix = page.locator('[data-options-type="TOOL_SELECTION"]').getByTestId('better-matrix');
  await expect(matrix.locator('tr[data-chosen="lookup"] td[data-better="sql"]')).toHaveText('2');

  // Scores over time: the four verdicts, half true.
  const scores = page.getByTestId('scores-over-time');
  await expect(scores.getByRole('heading', { name: 'decision.correct (boolean)' })).toBeVisible();
  await expect(scores.getByTestId('score-count').first()).toHaveText('4 scores');

  // Screens: 390 (no sideways scroll), 1024 and 1440, light and dark.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(reviews).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scroll at ${width}`).toBe(true);
      await page.locator('section[aria-labelledby="options-heading"]').screenshot({ path: shot(`insights-reviews-${width}-${scheme}`) });
      await scores.screenshot({ path: shot(`insights-scores-${width}-${scheme}`) });
    }
    expect(await contrastProblems(page)).toEqual([]);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  // The judged-right share lists the run whose decisions were judged right, and only it.
  await reviews.getByTestId('judged-right-share').click();
  await expect(page).toHaveURL(/judged=right/);
  await expect(page).toHaveURL(/decisionType=TOOL_SELECTION/);
  const rows = page.locator('a[data-row-link]');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('href', `/traces/${A}`);

  // The matrix cell lists the run where sql should have been chosen.
  await open(page, insightsUrl);
  await matrix.locator('tr[data-chosen="lookup"] td[data-better="sql"]').getByRole('link').click();
  await expect(page).toHaveURL(/better=sql/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('href', `/traces/${B}`);

  // The reviewed count lists both.
  await open(page, insightsUrl);
  await reviews.getByTestId('reviewed-count').click();
  await expect(page).toHaveURL(/reviewed=true/);
  await expect(rows).toHaveCount(2);
});

test('the list shows a score as a column, sorts by it and filters by it', async ({ page }) => {
  await open(page, `/traces?name=${encodeURIComponent(NAME)}`);
  const rows = page.locator('a[data-row-link]');
  await expect(rows).toHaveCount(2);
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByTestId('score-columns').getByLabel('decision.correct').check();
  await page.keyboard.press('Escape');
  const header = page.getByRole('button', { name: /^Sort by score decision\.correct/ });
  await expect(header).toBeVisible();
  // A: both right (true), B: both wrong (false).
  const cellOf = (id: string) => page.locator('tr', { has: page.locator(`a[href="/traces/${id}"]`) }).locator('td').last();
  await expect(cellOf(A)).toHaveText('100%');
  await expect(cellOf(B)).toHaveText('0%');

  await header.click();
  await expect(page).toHaveURL(/sort=score\.decision\.correct/);
  await expect(rows.first()).toHaveAttribute('href', `/traces/${A}`);
  await page.getByRole('button', { name: /^Sort by score decision\.correct/ }).click();
  await expect(page).toHaveURL(/order=asc/);
  await expect(rows.first()).toHaveAttribute('href', `/traces/${B}`);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      // Below 1024 px the list is cards (their own links); the table's rows are hidden.
      await expect(page.locator('a[data-row-link]:visible, a[data-card-link]:visible').first()).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scroll at ${width}`).toBe(true);
      await page.screenshot({ path: shot(`list-scores-${width}-${scheme}`) });
    }
  }

  // The score filter: the average compared, shown as a removable chip.
  await open(page, `/traces?name=${encodeURIComponent(NAME)}&score.decision.correct=${encodeURIComponent('>=0.5')}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('href', `/traces/${A}`);
  await expect(page.getByText('avg ≥ 0.5')).toBeVisible();
});
