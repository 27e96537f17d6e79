// Reading comfort on the insights pages: count axes tick whole numbers only, the flow's
// outcome labels are never cut, the paths page says when its forks mix agents (with a
// link to each agent's own), and a fork's drill-down chip names the fork, not its hash.
// The traces sit in an hour of the past no other spec writes to.
import { E2E_API_KEY } from '../playwright.config';
import { runId, type TraceInput } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const T0 = Date.UTC(2019, 0, 1) + Math.floor(Math.random() * 40_000) * 3_600_000;
const ALPHA = `alpha-agent-${R}`;
const BETA = `beta-agent-${R}`;
const iso = (ms: number) => new Date(ms).toISOString();
const WINDOW = `from=${encodeURIComponent(iso(T0))}&to=${encodeURIComponent(iso(T0 + 7_200_000))}`;
const SCORE = `helpful-${R}`;

function run(id: string, name: string, i: number, route: string, status: 'COMPLETED' | 'ERROR'): TraceInput {
  const start = T0 + 60_000 + i * 60_000;
  return {
    id,
    name,
    status,
    tags: ['e2e'],
    startedAt: iso(start),
    endedAt: iso(start + 2000),
    spans: [{ id: 'root', name, type: 'AGENT', status, startedAt: iso(start), endedAt: iso(start + 2000) }],
    decisionPoints: [{ id: 'route', type: 'ROUTING', chosen: { route }, alternatives: [{ route: 'billing' }, { route: 'tech' }], parentSpanId: 'root', timestamp: iso(start + 100) }],
    events: [],
  };
}

test.beforeAll(async ({ request }) => {
  // 56 completed runs of one agent (the outcome label "Completed (56)"), 3 of another, two failing.
  const traces = [
    ...Array.from({ length: 56 }, (_, i) => run(`alpha-${R}-${i}`, ALPHA, i, i % 8 === 0 ? 'tech' : 'billing', 'COMPLETED')),
    ...Array.from({ length: 3 }, (_, i) => run(`beta-${R}-${i}`, BETA, 60 + i, 'tech', i < 2 ? 'ERROR' : 'COMPLETED')),
  ];
  await postTraces(request, traces);
  // A few BOOLEAN scores: the chart of their values counts them on its right axis.
  const res = await request.post('/api/scores', {
    headers: { authorization: `Bearer ${E2E_API_KEY}` },
    data: { scores: [0, 1, 2].map((i) => ({ traceId: `alpha-${R}-${i}`, name: SCORE, value: i !== 1 })) },
  });
  expect(res.status(), await res.text()).toBe(200);
});

/** Each y axis' tick labels on the page. */
async function yAxisTicks(page: import('@playwright/test').Page): Promise<string[][]> {
  return page.locator('.recharts-yAxis').evaluateAll((axes) =>
    axes.map((axis) => Array.from(axis.querySelectorAll('.recharts-cartesian-axis-tick-value')).map((t) => t.textContent ?? '')),
  );
}

for (const scheme of ['light', 'dark'] as const) {
  test(`count axes tick whole numbers, never the same label twice (1440 and 390 px, ${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 1000 });
      await open(page, `/insights?${WINDOW}`);
      await expect(page.getByRole('heading', { name: `${SCORE} (boolean)` })).toBeVisible();
      await expect.poll(async () => (await yAxisTicks(page)).length).toBeGreaterThan(4);
      for (const ticks of await yAxisTicks(page)) {
        expect(new Set(ticks).size, ticks.join(', ')).toBe(ticks.length);
      }
      await page.getByRole('heading', { name: `${SCORE} (boolean)` }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(`insights-count-axes-${width}-${scheme}`) });
      expect(await contrastProblems(page)).toEqual([]);
    }
  });

  test(`the paths page says its forks mix agents, links each, and cuts no outcome label (1440 and 390 px, ${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 1000 });
      await open(page, `/insights/paths?${WINDOW}`);
      const note = page.getByTestId('paths-agents');
      await expect(note).toContainText('These paths mix 2 agents');
      await expect(note.getByRole('link')).toHaveText([ALPHA, BETA]);
      await expect(page.getByTestId('forks-table')).toContainText('First decision (any agent)');
      // Every label of the flow ends inside the figure.
      await expect(page.getByTestId('flow-node').filter({ hasText: 'Completed (57)' })).toHaveCount(1);
      const overflow = await page.getByTestId('paths-flow').locator('svg').evaluate((svg) => {
        const width = Number(svg.getAttribute('width'));
        return Array.from(svg.querySelectorAll('text'))
          .map((t) => ({ text: t.textContent, right: (t as SVGTextElement).getBBox().x + (t as SVGTextElement).getBBox().width }))
          .filter((t) => t.right > width);
      });
      expect(overflow).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: shotPath(`paths-agents-${width}-${scheme}`), fullPage: true });
      expect(await contrastProblems(page)).toEqual([]);

      await note.getByRole('link', { name: ALPHA }).click();
      await expect(page).toHaveURL(new RegExp(`name=${ALPHA}`));
      await expect(page.getByTestId('paths-totals')).toContainText('56 traces');
      await expect(page.getByTestId('paths-agents')).toHaveCount(0);
      await expect(page.getByTestId('forks-table')).toContainText('First decision');
      await expect(page.getByTestId('forks-table')).not.toContainText('any agent');
    }
  });
}

test("a fork's drill-down chip names the fork, not its id", async ({ page }) => {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 1000 });
    await open(page, `/insights/paths?${WINDOW}&name=${ALPHA}`);
    await page.getByTestId('forks-table').getByRole('link', { name: /chose tech here/ }).click();
    await expect(page).toHaveURL(/\/traces\?.*fork=[0-9a-f]{32}/);
    const chip = page.locator('li[data-filter="fork"]');
    await expect(chip).toContainText('Fork:');
    await expect(chip).toContainText('first decision');
    await expect(chip).not.toContainText(/[0-9a-f]{32}/);
    await page.screenshot({ path: shotPath(`fork-chip-${width}`) });
  }
});
