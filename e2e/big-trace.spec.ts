// A 10,000-span trace on the detail page, as a reader navigates it: the page ships the
// tree and loads a span's payloads when it is opened; search inside the trace with
// next/previous; filters on the tree; timeline zoom (to a span, a dragged range, the
// wheel) and reset, with a late outlier left off the axis until asked; a resizable,
// remembered split between the tree and the details.
import type { Page } from '@playwright/test';
import { bigTrace, runId, type TraceInput } from './fixtures';
import { expect, hydrated, postTraces, shotPath, test } from './viewer-helpers';

// Per worker: a worker restarted after a failure posts its own copy.
const R = runId();
const ID = `bigtrace-${R}`;
const NEEDLE = `needle${R}`.toLowerCase();
let trace: TraceInput;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  trace = bigTrace(ID, `big trace ${R}`);
  const span = (id: string) => trace.spans.find((s) => s.id === id)!;
  span('s-1500').input = { question: `where is ${NEEDLE.toUpperCase()}?` };
  span('s-7001').output = `found ${NEEDLE}`;
  span('agent-0').input = { task: 'work through the queue' };
  // Feedback long after the run: the axis leaves it out until "show all".
  const end = Date.parse(trace.endedAt!);
  trace.events.push({ id: 'late-feedback', type: 'USER_FEEDBACK', name: 'thumbs up', timestamp: new Date(end + 300_000).toISOString() });
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, [trace]);
  await request.dispose();
});

async function openTrace(page: Page, query = '') {
  await page.goto(`/traces/${ID}${query}`);
  await hydrated(page);
  // By test id: below lg an open details sheet takes the tree out of the accessibility tree.
  await expect(page.getByTestId('span-tree').locator('[data-key="s:root"]')).toBeVisible({ timeout: 30_000 });
}

const row = (page: Page, spanId: string) => page.getByTestId('span-tree').locator(`[data-key="s:${spanId}"]`);

test('the page ships the tree, and a span’s payloads load when it is opened', async ({ page }) => {
  const response = await page.goto(`/traces/${ID}`);
  const html = (await response!.body()).length;
  expect(html).toBeLessThan(512_000);
  await hydrated(page);
  await expect(row(page, 'agent-0')).toBeVisible({ timeout: 30_000 });

  const loaded = page.waitForResponse((r) => r.url().includes(`/api/traces/${ID}/spans/agent-0`) && r.status() === 200);
  await row(page, 'agent-0').click();
  await loaded;
  const panel = page.getByTestId('details-panel');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('worker agent 0');
  await expect(panel.getByTestId('span-payloads')).toContainText('work through the queue');
});

test('search inside the trace steps through the places with next and previous', async ({ page }) => {
  await openTrace(page);
  const search = page.getByRole('searchbox', { name: 'Find in this trace' });
  await search.fill(NEEDLE);
  const bar = page.getByRole('region', { name: 'Search matches' });
  await expect(bar).toContainText(`“${NEEDLE}”: 1 of 2`);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${NEEDLE}`));
  // The first place is shown at once: its row selected and marked.
  await expect(row(page, 's-1500')).toHaveAttribute('aria-selected', 'true');
  await expect(row(page, 's-1500')).toHaveAttribute('data-match', 'true');

  await bar.getByRole('button', { name: 'Next match' }).click();
  await expect(bar).toContainText('2 of 2');
  await expect(bar.locator('[data-search-match="span:s-7001"] mark')).toHaveText(NEEDLE);
  await expect(row(page, 's-7001')).toHaveAttribute('aria-selected', 'true');
  await expect(row(page, 's-7001')).toHaveAttribute('data-match', 'true');

  await bar.getByRole('button', { name: 'Previous' }).click();
  await expect(bar).toContainText('1 of 2');
  await expect(row(page, 's-1500')).toHaveAttribute('aria-selected', 'true');
  await expect(row(page, 's-1500')).toBeInViewport();

  // Enter steps too; a term found nowhere says so.
  await search.press('Enter');
  await expect(bar).toContainText('2 of 2');
  await search.fill('no-such-text-anywhere');
  await expect(bar).toContainText('not found in this trace');
});

test('filters keep the matching spans and their ancestors, and live in the URL', async ({ page }) => {
  await openTrace(page);
  const filters = page.getByRole('group', { name: 'Filter spans' });
  const errorTools = trace.spans.filter((s) => s.type === 'TOOL_CALL' && s.status === 'ERROR');
  expect(errorTools.length).toBeGreaterThan(0);

  await filters.getByLabel('Type').selectOption('TOOL_CALL');
  await filters.getByLabel('Status').selectOption('ERROR');
  await expect(page).toHaveURL(/spanType=TOOL_CALL/);
  await expect(page.getByTestId('filter-count')).toHaveText(`${errorTools.length} of 10,000 spans match`);
  // Each match under its agent, under the root.
  await expect(row(page, errorTools[0].id)).toBeVisible();
  await expect(row(page, 'root')).toBeVisible();
  await expect(row(page, 'deep-0')).toHaveCount(0);

  // A minimum duration, and the filters survive a reload.
  await filters.getByLabel('Type').selectOption('');
  await filters.getByLabel('Status').selectOption('');
  await filters.getByLabel('Min duration (ms)').fill('44');
  const slow = trace.spans.filter((s) => (s.durationMs ?? 0) >= 44);
  await expect(page.getByTestId('filter-count')).toHaveText(`${slow.length} of 10,000 spans match`);
  await expect(page).toHaveURL(/minDuration=44/);
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('filter-count')).toHaveText(`${slow.length} of 10,000 spans match`);
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByTestId('filter-count')).toHaveCount(0);
  await expect(row(page, 'agent-0')).toBeVisible();
  expect(await page.getByRole('treeitem').count()).toBeGreaterThan(10);
});

test('the timeline zooms to a span, to a dragged range and with the wheel, and resets; outliers wait for "show all"', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openTrace(page);
  const range = page.getByTestId('view-range');
  // The late feedback is left off the axis.
  const showAll = page.getByRole('button', { name: /Show all \(1 outlier left out\)/ });
  await expect(showAll).toBeVisible();
  const fitted = await range.textContent();
  expect(fitted).toBe('Showing +0 ms to +1m 41s of 6m 41s');
  await showAll.click();
  await expect(range).toHaveText('');
  await page.getByRole('button', { name: 'Fit to the run' }).click();
  await expect(range).toHaveText(fitted!);

  // Zoom to one step: its bar fills most of the timeline column.
  // s-1060: a 25 ms model call, the second step of the first agent.
  const step = row(page, 's-1060');
  await step.click();
  await page.getByRole('button', { name: 'Zoom to span' }).click();
  await expect(range).not.toHaveText(fitted!);
  const column = await page.getByTestId('axis-drag').boundingBox();
  const bar = await step.locator('span[title^="llm_call #1060: "]').boundingBox();
  expect(bar!.width).toBeGreaterThan(column!.width * 0.7);
  await expectDistinctTicks(page);
  await page.screenshot({ path: shotPath('big-trace-zoomed-1440-light') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: shotPath('big-trace-zoomed-1440-dark') });
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(range).toHaveText(fitted!);

  // Drag across the axis: the view becomes the range dragged.
  const axis = (await page.getByTestId('axis-drag').boundingBox())!;
  await page.mouse.move(axis.x + axis.width * 0.25, axis.y + axis.height / 2);
  await page.mouse.down();
  await page.mouse.move(axis.x + axis.width * 0.5, axis.y + axis.height / 2, { steps: 5 });
  await expect(page.getByTestId('range-selection')).toBeVisible();
  await page.mouse.up();
  await expect(range).not.toHaveText(fitted!);
  const dragged = await range.textContent();

  // Ctrl + wheel over the timeline zooms in further.
  await page.mouse.move(axis.x + axis.width * 0.5, axis.y + 200);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -300);
  await page.keyboard.up('Control');
  await expect(range).not.toHaveText(dragged!);

  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(range).toHaveText(fitted!);
});

test('the split between tree and details resizes by keyboard and pointer, and is remembered', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openTrace(page);
  const handle = page.getByRole('separator', { name: 'Resize the details panel' });
  const before = Number(await handle.getAttribute('aria-valuenow'));
  await handle.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(handle).toHaveAttribute('aria-valuenow', String(before + 48));
  const panel = page.getByTestId('details-panel');
  expect(Math.round((await panel.boundingBox())!.width)).toBe(before + 48);

  // Dragging the divider 100 px to the right narrows the panel by as much.
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 100, box.y + 100, { steps: 4 });
  await page.mouse.up();
  const dragged = Number(await handle.getAttribute('aria-valuenow'));
  expect(Math.abs(dragged - (before + 48 - 100))).toBeLessThanOrEqual(2);

  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('separator', { name: 'Resize the details panel' })).toHaveAttribute('aria-valuenow', String(dragged));
  // Full width stays one click away.
  await row(page, 'agent-0').click();
  await page.getByRole('button', { name: 'Full width' }).click();
  await expect(panel).toHaveAttribute('data-wide', 'true');
  await page.getByRole('button', { name: 'Narrow' }).click();
});

// On a phone the span's details open as a full-screen sheet over the timeline: its own
// "Zoom to span" puts the sheet away and shows the step, the row still selected.
test('a phone shows the zoomed step', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openTrace(page, '?span=s-1060');
  const panel = page.getByTestId('details-panel');
  await expect(panel).toHaveAttribute('data-open', 'true');
  // One such button within reach: the page under the sheet is not.
  await page.getByRole('button', { name: 'Zoom to span' }).click();
  await expect(page.getByTestId('view-range')).toContainText('Showing');
  await expect(panel).toBeHidden();
  await expect(row(page, 's-1060')).toHaveAttribute('aria-selected', 'true');
  await expect(row(page, 's-1060')).toBeInViewport();
  await expectDistinctTicks(page);
  await page.screenshot({ path: shotPath('big-trace-zoomed-390-light') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: shotPath('big-trace-zoomed-390-dark') });
  await page.emulateMedia({ colorScheme: 'light' });
  // Tapping a row opens the sheet again.
  await row(page, 's-1060').click();
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('llm_call #1060');
});

/** The zoomed axis's labels read apart (a 25 ms step's ticks are milliseconds apart, seconds in). */
async function expectDistinctTicks(page: Page) {
  const labels = await page.getByTestId('axis-drag').locator('span').allTextContents();
  expect(labels.length).toBeGreaterThan(2);
  expect(new Set(labels).size).toBe(labels.length);
}
