// The trace page's keyboard and links: Escape closes the details from anywhere (not while
// typing), "Copy link" beside "Copy ID", and instants in the reader's zone with UTC on hover.
import { runId, type TraceInput } from './fixtures';
import { expect, open, postTraces, test } from './viewer-helpers';

const R = runId();
const ID = `keys-${R}`;

function trace(): TraceInput {
  const t0 = Date.parse('2026-11-20T10:00:00.000Z');
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  return {
    id: ID,
    name: `keys run ${R}`,
    status: 'COMPLETED',
    tags: ['e2e'],
    startedAt: at(0),
    endedAt: at(2000),
    spans: [
      { id: 'agent', name: 'agent', type: 'AGENT', status: 'COMPLETED', startedAt: at(0), endedAt: at(2000) },
      { id: 'tool', parentSpanId: 'agent', name: 'web_search', type: 'TOOL_CALL', status: 'COMPLETED', startedAt: at(300), durationMs: 200 },
    ],
    decisionPoints: [{ id: 'pick', type: 'TOOL_SELECTION', chosen: 'web_search', alternatives: ['calculator'], parentSpanId: 'agent', timestamp: at(100) }],
    events: [],
  };
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, [trace()]);
  await request.dispose();
});

test('Escape closes the details from anywhere on the page, but not while typing in a field', async ({ page }) => {
  await open(page, `/traces/${ID}?span=tool`);
  const panel = page.getByTestId('details-panel');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('web_search');
  // Focus far from the panel: the page's heading area.
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/span=tool/);
  await expect(panel).toContainText('Select a span, a decision or an event');

  await open(page, `/traces/${ID}?tab=decisions&decision=pick`);
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Tool selection');
  const search = page.getByRole('searchbox', { name: 'Reasoning or option contains' });
  await search.fill('web');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/decision=pick/);
  await page.getByRole('tab', { name: /Decisions/ }).focus();
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/decision=pick/);
  await expect(page).toHaveURL(/tab=decisions/);
});

test('Copy link beside Copy ID: the page as shown, and the opened item', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await open(page, `/traces/${ID}?tab=decisions&decision=pick`);
  const copyId = page.getByRole('button', { name: 'Copy ID' }).first();
  const copyLink = page.getByRole('button', { name: 'Copy link' }).first();
  await expect(copyId).toBeVisible();
  await copyLink.click();
  // Its name is "Copied" for a moment: the locator above would now find the next button.
  await expect(page.getByRole('button', { name: 'Copied' })).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/traces/${ID}?tab=decisions&decision=pick`);

  const panel = page.getByTestId('details-panel');
  await panel.getByRole('button', { name: 'Copy link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/traces/${ID}?tab=decisions&decision=pick`);
  await page.getByRole('tab', { name: 'Timeline' }).click();
  await panel.getByRole('button', { name: 'Copy link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/traces/${ID}?decision=pick`);
});

test.describe('in Paris', () => {
  test.use({ timezoneId: 'Europe/Paris' });

  test('instants read in the reader’s zone, one format, with UTC on hover', async ({ page }) => {
    await open(page, `/traces/${ID}?span=tool`);
    // 10:00:02 UTC is 11:00:02 in Paris in November.
    const ended = page.locator('time[datetime="2026-11-20T10:00:02.000Z"]').first();
    await expect(ended).toHaveText('11:00:02.000 UTC+01:00');
    await expect(ended).toHaveAttribute('title', '2026-11-20 11:00:02.000 UTC+01:00 (2026-11-20 10:00:02.000 UTC)');
    const started = page.getByTestId('details-panel').locator('time[datetime="2026-11-20T10:00:00.300Z"]');
    await expect(started).toHaveText('2026-11-20 11:00:00.300 UTC+01:00');
    await expect(started).toHaveAttribute('title', '2026-11-20 11:00:00.300 UTC+01:00 (2026-11-20 10:00:00.300 UTC)');
  });
});
