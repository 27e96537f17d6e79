// Reading comfort: a trace sent through the JSON API without totalTokens shows its spans'
// sum everywhere (list, session, compare, detail); the comparison of two big runs draws
// only the rows in view and scrolls to the end; the review queue shows the run's input
// when no model call precedes the decision.
import type { Page } from '@playwright/test';
import { bigTrace, runId, simpleTrace, type SpanInput, type TraceInput } from './fixtures';
import { contrastProblems, expect, hydrated, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const SESSION = `totals-session-${R}`;
const A = `totals-a-${R}`;
const B = `totals-b-${R}`;
const BIG_A = `compare-big-a-${R}`;
const BIG_B = `compare-big-b-${R}`;
const REVIEW = `review-input-${R}`;
const QUESTION = `Can I change the delivery address of order ${R}?`;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const span = (fields: Partial<SpanInput> & Pick<SpanInput, 'id' | 'name' | 'type' | 'startedAt'>): SpanInput => ({ status: 'COMPLETED', ...fields });

/** A run with two model calls (1,200 and 34 tokens) and a tool, and no trace total. */
function tokenRun(id: string, name: string, startedMinutesAgo: number, tokens: [number, number]): TraceInput {
  const at = minutesAgo(startedMinutesAgo);
  return simpleTrace({
    id,
    name,
    sessionId: SESSION,
    startedAt: at,
    endedAt: minutesAgo(startedMinutesAgo - 0.05),
    spans: [
      span({ id: 'root', name: 'agent', type: 'AGENT', startedAt: at, durationMs: 3000 }),
      span({ id: 'plan', parentSpanId: 'root', name: 'plan', type: 'LLM_CALL', startedAt: at, durationMs: 800, tokenCount: tokens[0], input: 'plan it', output: 'search first' }),
      span({ id: 'search', parentSpanId: 'root', name: 'search', type: 'TOOL_CALL', startedAt: at, durationMs: 200 }),
      span({ id: 'answer', parentSpanId: 'root', name: 'answer', type: 'LLM_CALL', startedAt: at, durationMs: 900, tokenCount: tokens[1], input: 'answer it', output: 'done' }),
    ],
  });
}

/** A run whose first decision comes before any model call: the user's question is the root span's input. */
function reviewRun(): TraceInput {
  const at = (s: number) => new Date(Date.now() - 10 * 60_000 + s * 1000).toISOString();
  return simpleTrace({
    id: REVIEW,
    name: `review input ${R}`,
    startedAt: at(0),
    endedAt: at(5),
    decisionPoints: [
      { id: 'route', type: 'ROUTING', chosen: { agent: 'orders' }, alternatives: [{ agent: 'billing' }], parentSpanId: 'root', timestamp: at(0.2) },
    ],
    spans: [
      span({ id: 'root', name: 'support agent', type: 'AGENT', startedAt: at(0), endedAt: at(5), input: { messages: [{ role: 'user', content: QUESTION }] }, output: 'Yes, changed.' }),
      span({ id: 'llm', parentSpanId: 'root', name: 'answer', type: 'LLM_CALL', startedAt: at(1), endedAt: at(4), input: 'later call', output: 'Yes, changed.', tokenCount: 50 }),
    ],
  });
}

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(300_000);
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, [tokenRun(A, `totals run ${R} a`, 8, [1200, 34]), tokenRun(B, `totals run ${R} b`, 6, [900, 100]), reviewRun()]);
  // Two 10,000-span runs; B's model calls after the 3,000th renamed, so both runs have spans of their own.
  const big = bigTrace(BIG_A, `compare big ${R}`);
  const other = bigTrace(BIG_B, `compare big ${R}`);
  for (const s of other.spans) {
    if (s.type === 'LLM_CALL' && Number(s.id.slice(2)) > 3000) s.name = `${s.name} (b)`;
  }
  await postTraces(request, [big]);
  await postTraces(request, [other]);
  await request.dispose();
});

const bothWidths = [1440, 390] as const;

async function looks(page: Page, name: string, opts: { fullPage?: boolean; part?: string } = {}) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of bothWidths) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name} ${width} ${scheme}: no sideways scroll`).toBe(true);
      const path = shotPath(`${name}-${width}-${scheme}`);
      if (opts.part) await page.locator(opts.part).screenshot({ path });
      else await page.screenshot({ path, fullPage: opts.fullPage ?? false });
    }
    expect(await contrastProblems(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a JSON trace without totalTokens shows its spans’ sum in the API, the list, the session, the detail and compare', async ({ page, request }) => {
  const detail = await request.get(`/api/traces/${A}`);
  expect(((await detail.json()) as { trace: { totalTokens: number | null } }).trace.totalTokens).toBe(1234);

  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, `/traces?sessionId=${SESSION}`);
  const rowOf = (id: string) => page.locator('tr', { has: page.locator(`a[data-row-link][href*="${id}"]`) });
  const tokensColumn = await page.locator('thead th').allTextContents();
  const tokensAt = tokensColumn.findIndex((h) => h.startsWith('Tokens'));
  expect(tokensAt).toBeGreaterThan(0);
  await expect(rowOf(A).locator('td').nth(tokensAt)).toHaveText('1,234');
  await expect(rowOf(B).locator('td').nth(tokensAt)).toHaveText('1,000');

  await open(page, `/sessions/${SESSION}`);
  await expect(page.locator('main')).toContainText('2,234');
  await expect(page.locator('main')).toContainText('Tokens 1,234');
  await looks(page, 'totals-session', { fullPage: true });

  await open(page, `/traces/${A}`);
  await expect(page.locator('dt', { hasText: 'Tokens' }).locator('..')).toContainText('1,234');

  await open(page, `/traces/compare?a=${A}&b=${B}`);
  await expect(page.getByTestId('compare-totals-A')).toContainText('1,234');
  await expect(page.getByTestId('compare-totals-B')).toContainText('1,000');
  await expect(page.locator('[data-testid="compare-span"]', { hasText: 'plan' })).toHaveAttribute('data-differs', 'tokens');
  // A model call's input and output load when it is opened.
  const model = page.getByTestId('compare-model').filter({ hasText: 'plan' });
  await model.locator('summary').click();
  await expect(model.getByTestId('text-diff').first()).toContainText('plan it');
  await looks(page, 'totals-compare', { fullPage: true });
});

test('compare of two 10,000-span runs draws only the rows in view, and scrolling reveals the end', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, `/traces/compare?a=${BIG_A}&b=${BIG_B}`);
  await expect(page.getByTestId('compare-run-A')).toContainText(BIG_A);
  const rows = page.getByTestId('compare-span');
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  // The table holds about 10,000 + 1,750 pairs; a window of them is in the document.
  const drawn = await rows.count();
  expect(drawn).toBeGreaterThan(10);
  expect(drawn).toBeLessThan(100);
  const box = page.getByTestId('compare-spans-scroll');
  expect(Number(await page.getByTestId('compare-spans').getAttribute('aria-rowcount'))).toBeGreaterThan(11_500);
  await expect(page.locator('[data-testid="compare-span"][data-last]')).toHaveCount(0);
  await looks(page, 'compare-big-top', { part: 'section[aria-labelledby="compare-spans"]' });

  await box.evaluate((el) => (el.scrollTop = el.scrollHeight));
  const last = page.locator('[data-testid="compare-span"][data-last]');
  await expect(last).toBeVisible();
  await expect(last).toContainText('(only in B)');
  expect(await rows.count()).toBeLessThan(100);
  await looks(page, 'compare-big-end', { part: 'section[aria-labelledby="compare-spans"]' });

  // The model calls list the first 50 pairs, with more on request.
  await expect(page.getByTestId('compare-model')).toHaveCount(50);
  await page.getByRole('button', { name: /^Show more/ }).click();
  await expect(page.getByTestId('compare-model')).toHaveCount(100);
});

test('the review queue shows the run’s input as the conversation when no model call precedes the decision', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, `/review?name=${encodeURIComponent(`review input ${R}`)}`);
  const item = page.getByTestId('review-item');
  await expect(item).toBeVisible();
  const source = item.getByTestId('conversation-source');
  await expect(source).toHaveAttribute('data-kind', 'run-input');
  await expect(source).toContainText('support agent');
  await expect(item).toContainText(QUESTION);
  await expect(item).not.toContainText('later call');
  await hydrated(page);
  await looks(page, 'review-run-input', { fullPage: true });
});
