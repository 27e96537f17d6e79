// Decision paths: one run's Path tab (a supervisor routing to two sub-agents that choose
// tools) with its ghost branches and their drill-down, the fleet's flow and its drill-down,
// and two runs compared at their first difference (from the trace, and picked in the list).
// Data goes in through POST /api/traces, reviews through POST /api/scores.
import { E2E_API_KEY } from '../playwright.config';
import { runId, type DecisionInput, type SpanInput, type TraceInput } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const NAME = `paths-support-${R}`;
const ids = { multi: `paths-multi-${R}`, ok1: `paths-ok1-${R}`, ok2: `paths-ok2-${R}`, tech: `paths-tech-${R}` };

interface Leg {
  route: string;
  tools: Array<{ tool: string; status: 'COMPLETED' | 'ERROR' }>;
}

/** A supervisor that routes to one sub-agent per leg; each sub-agent picks its tools, each run as a tool span. */
function supervisorRun(id: string, minutesAgo: number, legs: Leg[], status: 'COMPLETED' | 'ERROR'): TraceInput {
  const t0 = Date.now() - minutesAgo * 60_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const spans: SpanInput[] = [{ id: 'sup', name: 'supervisor', type: 'AGENT', status, startedAt: at(0), endedAt: at(5000) }];
  const decisionPoints: DecisionInput[] = [];
  legs.forEach((leg, i) => {
    const base = 100 + i * 2000;
    const agent = `${leg.route}-agent`;
    decisionPoints.push({
      id: `route-${i}`,
      type: 'ROUTING',
      chosen: { route: leg.route, confidence: 0.7 },
      alternatives: ['billing', 'tech', 'sales']
        .filter((r) => r !== leg.route)
        .map((route) => ({ route, confidence: route === 'sales' ? 0.05 : 0.25 })),
      parentSpanId: 'sup',
      timestamp: at(base),
    });
    spans.push({ id: agent, parentSpanId: 'sup', name: `${leg.route} agent`, type: 'AGENT', status: 'COMPLETED', startedAt: at(base + 50), endedAt: at(base + 1500) });
    leg.tools.forEach((t, j) => {
      decisionPoints.push({
        id: `pick-${i}-${j}`,
        type: 'TOOL_SELECTION',
        chosen: { tool: t.tool },
        alternatives: [{ tool: t.tool }, { tool: 'ask_human', score: 0.1 }],
        parentSpanId: agent,
        timestamp: at(base + 100 + j * 300),
      });
      spans.push({ id: `${agent}-${t.tool}-${j}`, parentSpanId: agent, name: t.tool, type: 'TOOL_CALL', status: t.status, startedAt: at(base + 150 + j * 300), durationMs: 100 });
    });
  });
  return { id, name: NAME, status, tags: ['e2e'], startedAt: at(0), endedAt: at(5000), spans, decisionPoints, events: [] };
}

/** The multi-agent run, with events: three retries on its failing tool's span, an error, and the user's feedback at the end. */
function withEvents(run: TraceInput): TraceInput {
  const t0 = Date.parse(run.startedAt!);
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const retries = [1, 2, 3].map((n) => ({ id: `retry-${n}`, spanId: 'tech-agent-restart_service-0', type: 'RETRY' as const, name: 'retry restart_service', timestamp: at(2300 + n * 10) }));
  return {
    ...run,
    events: [
      ...retries,
      { id: 'boom', type: 'ERROR', name: 'service still down', timestamp: at(2400) },
      { id: 'thumbs', type: 'USER_FEEDBACK', name: 'thumbs down', timestamp: at(4900) },
    ],
  };
}

test.beforeAll(async ({ request }) => {
  await postTraces(request, [
    withEvents(
      supervisorRun(ids.multi, 6, [
        { route: 'billing', tools: [{ tool: 'lookup_invoice', status: 'COMPLETED' }] },
        { route: 'tech', tools: [{ tool: 'restart_service', status: 'ERROR' }] },
      ], 'ERROR'),
    ),
    supervisorRun(ids.ok1, 5, [{ route: 'billing', tools: [{ tool: 'lookup_invoice', status: 'COMPLETED' }] }], 'COMPLETED'),
    supervisorRun(ids.ok2, 4, [{ route: 'billing', tools: [{ tool: 'lookup_invoice', status: 'COMPLETED' }] }], 'COMPLETED'),
    supervisorRun(ids.tech, 3, [{ route: 'tech', tools: [{ tool: 'restart_service', status: 'ERROR' }] }], 'ERROR'),
  ]);
  // Reviews of the first tool choice (lookup_invoice after routing to billing): two right, one wrong.
  const res = await request.post('/api/scores', {
    headers: { authorization: `Bearer ${E2E_API_KEY}` },
    data: {
      scores: [ids.multi, ids.ok1, ids.ok2].map((traceId, i) => ({ traceId, decisionPointId: 'pick-0-0', name: 'decision.correct', value: i > 0 })),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
});

const rows = (page: import('@playwright/test').Page) => page.locator('tbody a[data-row-link]');

test('the Path tab nests a supervisor and its sub-agents, with ghost branches and their confidence', async ({ page }) => {
  await open(page, `/traces/${ids.multi}?tab=path`);
  await expect(page.getByRole('tab', { name: 'Path' })).toHaveAttribute('aria-selected', 'true');
  const groups = page.getByTestId('path-group');
  await expect(groups).toHaveText(['AGENTsupervisor', 'AGENTbilling agent', 'AGENTtech agent'].map((t) => new RegExp(t.replace('AGENT', '.*'))));
  await expect(groups.nth(1)).toHaveAttribute('data-depth', '1');
  const forks = page.getByTestId('path-fork');
  await expect(forks).toHaveCount(4);
  await expect(forks.nth(0)).toHaveAttribute('data-depth', '1');
  await expect(forks.nth(1)).toHaveAttribute('data-depth', '2');
  // The chosen tool that failed is coloured by its span; the ghost branches carry their confidence.
  await expect(forks.nth(3).getByTestId('path-chosen')).toHaveAttribute('data-status', 'ERROR');
  await expect(forks.nth(1).getByTestId('path-chosen')).toHaveAttribute('data-status', 'COMPLETED');
  const ghosts = forks.nth(0).getByTestId('path-ghost');
  await expect(ghosts).toHaveCount(2);
  await expect(ghosts.nth(0)).toHaveAttribute('data-option', 'tech');
  await expect(ghosts.nth(0).getByTestId('ghost-confidence')).toHaveText('0.25');
  // The fleet's figures: three of the four runs chose billing first.
  await expect(forks.nth(0).getByTestId('path-chosen').getByTestId('branch-link')).toHaveText('3 of 4 runs here chose it · 33.3% failed');
  await expect(ghosts.nth(0).getByTestId('branch-link')).toHaveText('1 of 4 runs here chose it · 100% failed');
  // Where reviews exist, the branch shows how often the choice was judged right.
  await expect(forks.nth(1).getByTestId('path-chosen').getByTestId('branch-link')).toHaveText(
    '3 of 3 runs here chose it · 33.3% failed · 66.7% judged right (3 reviews)',
  );
  // Events where they happened: the retries folded on the failing tool's step, the error after it, the feedback at the end.
  const events = forks.nth(3).getByTestId('path-event');
  await expect(events).toHaveCount(3);
  await expect(events.nth(0)).toHaveAttribute('data-type', 'RETRY');
  await expect(events.nth(0)).toContainText('retry restart_service×3');
  await expect(events.nth(1)).toHaveAttribute('data-type', 'ERROR');
  await expect(events.nth(2)).toHaveAttribute('data-type', 'USER_FEEDBACK');
  await expect(forks.nth(0).getByTestId('path-event')).toHaveCount(0);
  // The text alternative reads the path step by step.
  await page.getByTestId('path-text').locator('summary').click();
  await expect(page.getByTestId('path-text').locator('li').nth(3)).toContainText('Step 4, Tool selection: chose restart_service; tool span error');
  await events.nth(0).click();
  await expect(page).toHaveURL(/event=retry-1/);

  // Keyboard: the first fork takes focus, Down moves on, Enter opens the decision.
  await forks.nth(0).locator('[data-path-fork]').focus();
  await page.keyboard.press('ArrowDown');
  await expect(forks.nth(1).locator('[data-path-fork]')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/decision=pick-0-0/);
});

test("a ghost branch's drill-down lists the runs that took it at that fork", async ({ page }) => {
  await open(page, `/traces/${ids.multi}?tab=path`);
  await page.getByTestId('path-fork').nth(0).getByTestId('path-ghost').nth(0).getByTestId('branch-link').click();
  await expect(page).toHaveURL(/\/traces\?.*fork=[0-9a-f]{32}/);
  await expect(page).toHaveURL(/[?&]chosen=tech(&|$)/);
  // The multi-agent run chose tech too, but later: only the run that chose it first is listed.
  await expect(rows(page)).toHaveCount(1);
  await expect(page.locator(`a[data-row-link][href*="${ids.tech}"]`)).toHaveCount(1);
});

test("the fleet flow shows the paths to their outcomes and drills down to a fork's traces", async ({ page }) => {
  await open(page, `/insights/paths?range=1h&name=${encodeURIComponent(NAME)}`);
  await expect(page.getByTestId('paths-totals')).toContainText('4 traces');
  await expect(page.getByTestId('paths-table').locator('tbody tr')).toHaveCount(3);
  // Each band is a link: focusing it shows its figures, Enter follows it.
  const band = page.locator('a:has([data-testid="flow-link"][data-target="billing"])');
  await band.focus();
  await expect(page.getByTestId('flow-tooltip')).toContainText('3 traces chose routing billing');
  await expect(page.getByTestId('flow-tooltip')).toContainText('Error share 33.3%');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/traces\?.*fork=[0-9a-f]{32}/);
  await expect(page).toHaveURL(/[?&]chosen=billing(&|$)/);
  await expect(rows(page)).toHaveCount(3);
});

test('two runs selected in the list open side by side, by keyboard', async ({ page }) => {
  await open(page, `/traces?name=${encodeURIComponent(NAME)}`);
  await expect(rows(page)).toHaveCount(4);
  const box = (id: string) => page.locator('tr', { has: page.locator(`a[data-row-link][href*="${id}"]`) }).getByTestId('compare-select');
  await box(ids.tech).focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('compare-bar')).toContainText('One run selected');
  await box(ids.ok2).check();
  // Two at most: the others wait until one is cleared.
  await expect(box(ids.ok1)).toBeDisabled();
  const link = page.getByTestId('compare-selected');
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/traces/compare\\?a=${ids.tech}&b=${ids.ok2}$`));
  await expect(page.getByTestId('compare-summary')).toHaveText('The runs share 0 steps, then part at step 1.');
  await expect(page.locator('[data-testid="compare-step"][data-first-difference]')).toContainText('First difference');
  // Durations are endedAt − startedAt: both runs last 5 s.
  await expect(page.getByTestId('compare-totals-A')).toHaveText(/Duration\s*5 s/);
});

test('two runs picked on the cards of a phone open side by side, by keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, `/traces?name=${encodeURIComponent(NAME)}`);
  const cards = page.getByTestId('trace-cards');
  await expect(cards.locator('a[data-card-link]')).toHaveCount(4);
  const box = (id: string) => cards.locator(`li[data-trace-card="${id}"]`).getByTestId('compare-select');
  await expect(box(ids.tech)).toBeVisible();
  // Tab reaches a card's checkbox from the card before it: it sits in the reading order.
  await box(ids.ok2).focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(box(ids.ok2)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('compare-bar')).toContainText('One run selected');
  // A click on the box picks the run; it does not open the trace under it.
  await box(ids.tech).click();
  await expect(page).toHaveURL(/\/traces\?/);
  await expect(box(ids.tech)).toBeChecked();
  await expect(box(ids.ok1)).toBeDisabled();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: shotPath('list-cards-compare-390') });
  const link = page.getByTestId('compare-selected');
  await link.focus();
  await page.keyboard.press('Enter');
  // The first picked is A, as in the table.
  await expect(page).toHaveURL(new RegExp(`/traces/compare\\?a=${ids.ok2}&b=${ids.tech}$`));
  await expect(page.getByTestId('compare-summary')).toHaveText('The runs share 0 steps, then part at step 1.');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`paths pages at 1440 and 390 px (${scheme}), readable`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 1000 });
      await open(page, `/insights/paths?range=1h&name=${encodeURIComponent(NAME)}`);
      await expect(page.getByTestId('flow-link').first()).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: shotPath(`paths-fleet-${width}-${scheme}`), fullPage: true });
      expect(await contrastProblems(page)).toEqual([]);
      await open(page, `/traces/${ids.multi}?tab=path`);
      await expect(page.getByTestId('path-fork').first().getByTestId('branch-link').first()).toContainText('runs here');
      await page.screenshot({ path: shotPath(`paths-tab-${width}-${scheme}`) });
      expect(await contrastProblems(page)).toEqual([]);
    }
  });
}

test('a comparison with a successful run marks where the paths part', async ({ page }) => {
  await open(page, `/traces/${ids.multi}?tab=path`);
  await page.getByTestId('compare-success').click();
  await expect(page).toHaveURL(new RegExp(`/traces/compare\\?a=${ids.multi}$`));
  // The most recent completed run sharing the longest start: ok2 (billing > lookup_invoice, as ok1, but later).
  await expect(page.getByTestId('compare-run-B')).toContainText(ids.ok2);
  await expect(page.getByTestId('compare-summary')).toHaveText('The runs share 2 steps, then part at step 3.');
  const first = page.locator('[data-testid="compare-step"][data-first-difference]');
  await expect(first).toHaveCount(1);
  await expect(first).toContainText('First difference');
  await expect(first).toContainText('tech');
  await expect(first).toContainText('(path ended)');
  // Spans by name and position: the tech agent's failing tool is only in A.
  await expect(page.locator('[data-testid="compare-span"]', { hasText: 'restart_service' })).toContainText('only in A');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 1000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: shotPath(`paths-compare-${width}-${scheme}`), fullPage: true });
    }
    expect(await contrastProblems(page)).toEqual([]);
  }
});
