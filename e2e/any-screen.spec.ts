// The trace and session pages and their lists from 360 to 2560 px: no sideways scroll, and on a phone a
// tapped span's details open as a full-screen sheet, on screen, closed by its button or Esc.
import { agentTrace, runId } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const ID = `screens-${R}`;
const SESSION = `screens-session-${R}`;

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, [agentTrace(ID, `screens run ${R}`, SESSION)]);
  await request.dispose();
});

const sideways = (page: import('@playwright/test').Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

for (const width of [360, 390, 768, 1024, 1440, 2560]) {
  test(`no sideways scroll on the trace and session pages and lists at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await open(page, `/traces/${ID}`);
    await expect(page.getByRole('tree')).toBeVisible();
    expect(await sideways(page), 'trace page').toBeLessThanOrEqual(0);
    await open(page, `/traces/${ID}?span=search-1`);
    await expect(page.getByTestId('details-panel').getByRole('heading', { level: 2 })).toHaveText('web_search');
    expect(await sideways(page), 'trace page with details').toBeLessThanOrEqual(0);
    await open(page, `/sessions/${SESSION}`);
    await expect(page.getByTestId('session-turn')).toHaveCount(1);
    expect(await sideways(page), 'session page').toBeLessThanOrEqual(0);
    await open(page, `/traces?sessionId=${SESSION}`);
    await expect(page.getByRole('link', { name: `screens run ${R}` })).toBeVisible();
    expect(await sideways(page), 'trace list').toBeLessThanOrEqual(0);
    await open(page, '/sessions');
    await expect(page.getByTestId('sessions-table')).toBeVisible();
    expect(await sideways(page), 'session list').toBeLessThanOrEqual(0);
  });
}

test('on a phone, tapping a span shows its details on screen as a sheet; Esc and Close go back', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, `/traces/${ID}`);
  const panel = page.getByTestId('details-panel');
  await expect(panel).toBeHidden();
  await page.getByRole('tree').locator('[data-key="s:search-1"]').click();
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('web_search');
  const box = (await panel.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.width).toBeGreaterThan(380);
  await page.screenshot({ path: shotPath('phone-span-sheet') });
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.getByRole('tree').locator('[data-key="s:plan"]').click();
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('plan steps');
  await panel.getByRole('button', { name: 'Close details' }).click();
  await expect(panel).toBeHidden();
  await expect(page).not.toHaveURL(/span=/);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the trace page at 390, 1024 and 1440 px (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await open(page, `/traces/${ID}?span=plan`);
      await expect(page.getByTestId('details-panel').getByRole('heading', { level: 2 })).toHaveText('plan steps');
      await page.screenshot({ path: shotPath(`trace-${width}-${scheme}`) });
      await open(page, `/traces/${ID}`);
      await expect(page.getByRole('tree')).toBeVisible();
      await page.screenshot({ path: shotPath(`trace-closed-${width}-${scheme}`) });
      expect(await contrastProblems(page), `${width}`).toEqual([]);
    }
  });
}
