// Reading a trace (issue 36, the trace page's items): the tree and the conversation get the
// screen (a compact header, the split below it at full height, a model call's messages
// first), a model call's prompt and completion tokens and parameters, a resizable name
// column with the full name on hover and in the panel, the score form and a score's
// details as popovers, j/k and / as on the list, the ancestors kept in sight while
// scrolling, and rows that keep their names, durations and chosen options at 390 px.
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { runId, type DecisionInput, type SpanInput, type TraceInput } from './fixtures';
import { expect, open, postTraces, test } from './viewer-helpers';

const R = runId();
const ID = `reading-${R}`;
const LONG_NAME = 'openai.chat gpt-4o-mini completion for the research step';
const SHOTS = '/tmp/trace-shots';
mkdirSync(SHOTS, { recursive: true });

function trace(): TraceInput {
  const t0 = Date.parse('2026-11-21T09:00:00.000Z');
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const spans: SpanInput[] = [{ id: 'root', name: 'orchestrator', type: 'AGENT', status: 'COMPLETED', startedAt: at(0), endedAt: at(30_000) }];
  const decisionPoints: DecisionInput[] = [];
  for (let a = 0; a < 3; a++) {
    const base = a * 10_000;
    spans.push({ id: `agent-${a}`, parentSpanId: 'root', name: `research sub-agent ${a}`, type: 'AGENT', status: 'COMPLETED', startedAt: at(base), endedAt: at(base + 9_000) });
    for (let s = 0; s < 4; s++) {
      const t = base + s * 2_000;
      const step = `step-${a}-${s}`;
      spans.push({ id: step, parentSpanId: `agent-${a}`, name: `step ${a}.${s}`, type: 'CHAIN', status: 'COMPLETED', startedAt: at(t), endedAt: at(t + 1_800) });
      spans.push({
        id: `llm-${a}-${s}`,
        parentSpanId: step,
        name: LONG_NAME,
        type: 'LLM_CALL',
        status: 'COMPLETED',
        startedAt: at(t + 10),
        endedAt: at(t + 1_200),
        tokenCount: 138,
        input: {
          messages: [
            { role: 'system', content: 'You are a careful research assistant. Cite your sources.' },
            { role: 'user', content: `Find the population of city ${a}.${s}.` },
          ],
          temperature: 0.2,
          max_tokens: 512,
        },
        output: { role: 'assistant', content: `City ${a}.${s} has about ${a + 1}.${s} million people.` },
        metadata: { model: 'gpt-4o-mini', usage: { prompt_tokens: 120, completion_tokens: 18 } },
      });
      decisionPoints.push({
        id: `pick-${a}-${s}`,
        type: 'TOOL_SELECTION',
        chosen: 'web_search',
        alternatives: ['calculator', 'wikipedia_lookup', 'ask_user'],
        reasoning: 'The population needs a current source.',
        parentSpanId: step,
        timestamp: at(t + 1_250),
      });
      spans.push({ id: `tool-${a}-${s}`, parentSpanId: step, name: 'web_search', type: 'TOOL_CALL', status: 'COMPLETED', startedAt: at(t + 1_300), durationMs: 250 });
    }
  }
  return {
    id: ID,
    name: `reading run ${R}`,
    sessionId: `reading-session-${R}`,
    userId: `reader-${R}`,
    status: 'COMPLETED',
    tags: ['e2e', 'reading', 'comfort'],
    metadata: { region: 'eu-west', release: '2026.11' },
    startedAt: at(0),
    endedAt: at(30_000),
    spans,
    decisionPoints,
    events: [],
  };
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, [trace()]);
  await request.dispose();
});

const tree = (page: Page) => page.getByTestId('span-tree');
const row = (page: Page, key: string) => tree(page).locator(`[data-key="${key}"]`);

/** The tree's top, its first row's top, and how many rows are wholly in view. */
async function treeFigures(page: Page) {
  return page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-testid="span-tree"]')!;
    const box = el.getBoundingClientRect();
    const bottom = Math.min(box.bottom, window.innerHeight);
    const rows = Array.from(el.querySelectorAll('[role="treeitem"]')).map((r) => r.getBoundingClientRect());
    const first = rows.length ? Math.min(...rows.map((r) => r.top)) : NaN;
    const visible = rows.filter((r) => r.top >= box.top && r.bottom <= bottom + 0.5).length;
    return { treeTop: Math.round(box.top), firstRowTop: Math.round(first), visibleRows: visible };
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`1440×900 ${scheme}: the tree starts near the top with most of the screen, and a model call's first message is above the fold`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(page, `/traces/${ID}?span=llm-0-1`);
    await expect(row(page, 's:root')).toBeVisible();
    const figures = await treeFigures(page);
    console.log(`[trace-reading] 1440×900 ${scheme}: ${JSON.stringify(figures)}`);
    // Before: the tree's rows started 458 px down and 12 of them showed.
    expect(figures.treeTop).toBeLessThan(250);
    expect(figures.firstRowTop).toBeLessThan(320);
    expect(figures.visibleRows).toBeGreaterThanOrEqual(18);

    // The summary figures are one line.
    const summary = page.getByTestId('trace-summary');
    expect((await summary.boundingBox())!.height).toBeLessThan(40);
    await expect(summary.locator('dt:text-is("Tokens") + dd')).toContainText('1,656');

    // The model call: its conversation first, its figures with prompt/completion and parameters above it.
    const panel = page.getByTestId('details-panel');
    const panelBox = (await panel.boundingBox())!;
    console.log(`[trace-reading] 1440×900 ${scheme}: panel top ${Math.round(panelBox.y)}, height ${Math.round(panelBox.height)}`);
    expect(panelBox.height).toBeGreaterThan(650);
    await expect(panel.getByTestId('prompt-tokens')).toHaveText('120');
    await expect(panel.getByTestId('completion-tokens')).toHaveText('18');
    await expect(panel.getByTestId('model-parameters')).toContainText('temperature 0.2');
    await expect(panel.getByTestId('model-parameters')).toContainText('max_tokens 512');
    await expect(panel.getByTestId('span-model')).toHaveText('gpt-4o-mini');
    const message = panel.getByTestId('chat-input').getByTestId('chat-message').first();
    await expect(message).toBeVisible();
    const messageBox = (await message.boundingBox())!;
    console.log(`[trace-reading] 1440×900 ${scheme}: first message top ${Math.round(messageBox.y)}`);
    expect(messageBox.y + 40).toBeLessThan(Math.min(900, panelBox.y + panelBox.height));
    // The request parameters' table is in view near the conversation too (beside or below the messages).
    await expect(panel.getByTestId('request-parameters')).toBeAttached();
    // The ids and instants come after the conversation, folded.
    const fields = panel.getByTestId('span-fields');
    await expect(fields).not.toHaveAttribute('open', '');
    expect((await fields.boundingBox())!.y).toBeGreaterThan(messageBox.y);
    await page.screenshot({ path: `${SHOTS}/layout-1440-${scheme}.png` });

    // Tags, scores and metadata unfold under the summary and fold again.
    const toggle = page.getByTestId('header-more-toggle');
    await expect(toggle).toContainText('3 tags · 0 scores · metadata');
    await expect(page.getByTestId('trace-scores')).toBeHidden();
    await toggle.click();
    await expect(page.getByTestId('trace-scores')).toBeVisible();
    await expect(page.locator('#trace-header-more')).toContainText('reading');
    await page.screenshot({ path: `${SHOTS}/header-open-1440-${scheme}.png` });
    await toggle.click();
    await expect(page.getByTestId('trace-scores')).toBeHidden();
  });

  test(`390×844 ${scheme}: rows keep their names apart from their durations, decision rows their chosen option, the model call its conversation`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, `/traces/${ID}`);
    await expect(row(page, 's:root')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const figures = await treeFigures(page);
    console.log(`[trace-reading] 390×844 ${scheme}: ${JSON.stringify(figures)}`);

    // The name's cell ends before the duration's text starts: no "web_search250 ms".
    const tool = row(page, 's:tool-0-0');
    await tool.scrollIntoViewIfNeeded();
    const gap = await tool.evaluate((r) => {
      const cells = r.children;
      const label = cells[0].getBoundingClientRect();
      const name = cells[0].querySelector('[title="web_search"]')!.getBoundingClientRect();
      const duration = cells[1] as HTMLElement;
      const range = document.createRange();
      range.selectNodeContents(duration);
      const text = range.getBoundingClientRect();
      return { labelRight: label.right, nameRight: name.right, durationLeft: text.left, durationText: duration.textContent };
    });
    expect(gap.durationText).toBe('250 ms');
    expect(gap.nameRight).toBeLessThanOrEqual(gap.durationLeft);
    expect(gap.labelRight).toBeLessThanOrEqual(gap.durationLeft + 0.5);

    // A decision row shows its chosen option, wide enough to read.
    const decision = row(page, 'd:pick-0-0');
    const chosen = decision.getByTestId('row-chosen');
    await expect(chosen).toBeVisible();
    await expect(chosen).toHaveText('web_search');
    const chosenFits = await chosen.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().width > 40);
    expect(chosenFits).toBe(true);
    await page.screenshot({ path: `${SHOTS}/tree-390-${scheme}.png` });

    // The model call's sheet: its figures and first message on the first screen.
    await row(page, 's:llm-0-0').click();
    const panel = page.getByTestId('details-panel');
    await expect(panel.getByTestId('prompt-tokens')).toHaveText('120');
    await expect(panel.getByTestId('completion-tokens')).toHaveText('18');
    const message = panel.getByTestId('chat-input').getByTestId('chat-message').first();
    await expect(message).toBeVisible();
    expect((await message.boundingBox())!.y + 40).toBeLessThan(844);
    await expect(panel.getByTestId('panel-span-name')).toHaveText(LONG_NAME);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/sheet-390-${scheme}.png` });
  });
}

for (const width of [1440, 390]) {
  const height = width === 1440 ? 900 : 844;

  test(`${width} px: the name column widens by dragging, is remembered, and the full name shows on hover and in the panel`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await open(page, `/traces/${ID}`);
    const llm = row(page, 's:llm-0-0');
    await expect(llm).toBeVisible();
    const name = llm.locator(`[title="${LONG_NAME}"]`);
    await expect(name).toHaveText(LONG_NAME);
    const cut = () => name.evaluate((el) => el.scrollWidth > el.clientWidth);
    const labelWidth = () => llm.evaluate((r) => r.children[0].getBoundingClientRect().width);
    const before = await labelWidth();

    const handle = page.getByTestId('name-column-handle');
    const box = (await handle.boundingBox())!;
    const y = box.y + box.height / 2;
    const by = width === 1440 ? 400 : 40;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + by / 2, y, { steps: 3 });
    await page.mouse.move(box.x + box.width / 2 + by, y, { steps: 3 });
    await page.mouse.up();
    const after = await labelWidth();
    // A phone's row leaves the name column little more than its default.
    expect(after).toBeGreaterThan(before + (width === 1440 ? by - 20 : 10));
    const stored = await page.evaluate(() => window.localStorage.getItem('crossroads.trace.name-width'));
    expect(Number(stored)).toBe(Math.round(after));
    if (width === 1440) expect(await cut()).toBe(false);
    await page.screenshot({ path: `${SHOTS}/name-wide-${width}.png` });

    // Remembered on the next page.
    await open(page, `/traces/${ID}`);
    await expect(llm).toBeVisible();
    expect(Math.abs((await labelWidth()) - after)).toBeLessThanOrEqual(1);
    // The keyboard: Home goes back to the default width.
    await handle.focus();
    await page.keyboard.press('Home');
    expect(Math.abs((await labelWidth()) - before)).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => window.localStorage.getItem('crossroads.trace.name-width'))).toBeNull();
    await page.keyboard.press('ArrowRight');
    expect(await labelWidth()).toBeGreaterThan(before + 10);

    // The panel names it in full.
    await llm.click();
    await expect(page.getByTestId('details-panel').getByTestId('panel-span-name')).toHaveText(LONG_NAME);
  });

  test(`${width} px: the score form and a score's details open as a popover, the header row keeps its height`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await open(page, `/traces/${ID}`);
    await page.getByTestId('header-more-toggle').click();
    const bar = page.getByTestId('trace-scores');
    await expect(bar).toBeVisible();
    const more = page.locator('#trace-header-more');
    const rowHeight = (await more.boundingBox())!.height;
    const treeTop = (await tree(page).boundingBox())!.y;

    await bar.getByRole('button', { name: '+ Score this trace' }).click();
    const popover = page.getByTestId('score-popover');
    await expect(popover.getByTestId('score-form')).toBeVisible();
    expect((await more.boundingBox())!.height).toBe(rowHeight);
    expect((await tree(page).boundingBox())!.y).toBe(treeTop);
    const pop = (await popover.boundingBox())!;
    expect(pop.x).toBeGreaterThanOrEqual(0);
    expect(pop.x + pop.width).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${SHOTS}/score-form-${width}.png` });
    const name = `reading-${width}-${R}`;
    await popover.getByLabel('Name').fill(name);
    await popover.getByRole('button', { name: 'Thumbs up' }).click();
    await popover.getByRole('button', { name: 'Save score' }).click();
    await expect(popover).toBeHidden();
    const chip = bar.getByTestId('score-chip').filter({ hasText: name });
    await expect(chip).toBeVisible();

    const withChip = (await more.boundingBox())!.height;
    await chip.click();
    await expect(popover.getByTestId('score-details')).toBeVisible();
    expect((await more.boundingBox())!.height).toBe(withChip);
    const details = (await popover.boundingBox())!;
    expect(details.x + details.width).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${SHOTS}/score-details-${width}.png` });
    await page.keyboard.press('Escape');
    await expect(popover).toBeHidden();
  });

  test(`${width} px: j and k move through the tree, an opened item follows, / focuses the search`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await open(page, `/traces/${ID}`);
    await expect(row(page, 's:root')).toBeVisible();
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('j');
    await expect(row(page, 's:root')).toHaveAttribute('data-active', 'true');
    await expect(tree(page)).toBeFocused();
    await page.keyboard.press('j');
    await expect(row(page, 's:agent-0')).toHaveAttribute('data-active', 'true');
    await page.keyboard.press('k');
    await expect(row(page, 's:root')).toHaveAttribute('data-active', 'true');
    await expect(page).not.toHaveURL(/span=/);

    if (width === 1440) {
      // With an item open, j opens the next row's.
      await row(page, 's:step-0-0').click();
      await expect(page).toHaveURL(/span=step-0-0/);
      await page.keyboard.press('j');
      await expect(page).toHaveURL(/span=llm-0-0/);
      await expect(page.getByTestId('details-panel').getByTestId('panel-span-name')).toHaveText(LONG_NAME);
      await page.keyboard.press('k');
      await expect(page).toHaveURL(/span=step-0-0/);
    }

    // `/` from anywhere but a field focuses the in-trace search; j typed there is text.
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Find in this trace' });
    await expect(search).toBeFocused();
    await page.keyboard.type('jk');
    await expect(search).toHaveValue('jk');
  });

  test(`${width} px: scrolled deep, the path of ancestors stays at the top of the tree`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await open(page, `/traces/${ID}`);
    await expect(row(page, 's:root')).toBeVisible();
    const path = page.getByTestId('tree-sticky-path');
    await expect(path).toHaveCount(0);
    // Scroll the tree (below lg the page scrolls too: bring the tree up first).
    await tree(page).scrollIntoViewIfNeeded();
    const key = await tree(page).evaluate((el) => {
      // The first row half in view under the bar is then row 32, a model call in step 1.3.
      el.scrollTop = 31 * 30;
      return el.scrollTop;
    });
    expect(key).toBeGreaterThan(0);
    await expect(path).toBeVisible();
    await expect(path).toContainText('orchestrator');
    await expect(path).toHaveText(/^orchestrator›research sub-agent 1›step 1\.3$/);
    // It sits at the top of the rows, under the axis.
    const pathBox = (await path.boundingBox())!;
    const treeBox = (await tree(page).boundingBox())!;
    expect(pathBox.y - treeBox.y).toBeGreaterThan(60);
    expect(pathBox.y - treeBox.y).toBeLessThan(80);
    await page.screenshot({ path: `${SHOTS}/sticky-path-${width}.png` });
    // Its step takes the reader to that row.
    const step = path.getByRole('button', { name: /^step / });
    const stepName = (await step.textContent())!;
    await step.click();
    await expect(tree(page).locator('[data-active]')).toHaveAttribute('aria-label', new RegExp(stepName.replace('.', '\\.')));
  });
}
