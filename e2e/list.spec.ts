// The trace list page in Chromium against the production build: filters that race each
// other and their answers, row previews, the column chooser, every filter's control,
// saved views and the keyboard. Every name carries this run's id, so the tests hold in a
// database shared with other spec files.
import { runId, simpleTrace, type TraceInput } from './fixtures';
import { expect, hydrated, open, postTraces, rowNames, test } from './viewer-helpers';

const R = runId();
const P = `list-${R}`; // name prefix of every trace in this file
const SA = `la-${R}`; // three traces
const SB = `lb-${R}`; // seven traces

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const traces: TraceInput[] = [];
  for (let i = 0; i < 3; i++) traces.push(simpleTrace({ id: `a-${i}-${R}`, name: `${P}-a-${i}`, sessionId: SA, startedAt: minutesAgo(2 + i) }));
  for (let i = 0; i < 7; i++) traces.push(simpleTrace({ id: `b-${i}-${R}`, name: `${P}-b-${i}`, sessionId: SB, startedAt: minutesAgo(20 + i) }));
  await postTraces(request, traces);
  await request.dispose();
});

/** The list's API requests answered so far, by URL. */
function answered(page: import('@playwright/test').Page) {
  const urls: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/api/traces?')) urls.push(res.url());
  });
  return urls;
}

test.describe('filters that race', () => {
  test('two filters committed before the first one renders both stay in the URL and the rows', async ({ page }) => {
    await open(page, `/traces?search=${P}-b-1`);
    await expect.poll(() => rowNames(page)).toEqual([`${P}-b-1`]);
    const search = page.getByRole('searchbox', { name: 'Search' });
    const session = page.getByLabel('Session ID');
    // Both fields hold new text whose debounce has not fired yet.
    await search.evaluate((el: HTMLInputElement, value) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, P);
    await session.evaluate((el: HTMLInputElement, value) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, SB);
    // Both commit in one task, before React renders the first new URL: what two debounce
    // timers firing back to back do on a loaded machine.
    const between = await page.evaluate(() => {
      const enter = () => new KeyboardEvent('keydown', { key: 'Enter', bubbles: true });
      document.getElementById('filter-search')!.dispatchEvent(enter());
      document.getElementById('filter-session')!.dispatchEvent(enter());
      return window.location.search;
    });
    // The second change is made on the first one's URL, not on the params last rendered.
    expect(new URLSearchParams(between).get('search')).toBe(P);
    expect(new URLSearchParams(between).get('sessionId')).toBe(SB);
    await expect(page).toHaveURL(new RegExp(`search=${P}(&|$)`));
    await expect(page).toHaveURL(new RegExp(`sessionId=${SB}`));
    await expect(page.locator('tbody tr')).toHaveCount(7);
    await expect(search).toHaveValue(P);
  });

  test('an earlier answer that arrives last does not replace the rows of the URL', async ({ page }) => {
    const urls = answered(page);
    await open(page, `/traces?search=${P}`);
    await expect(page.locator('tbody tr')).toHaveCount(10);

    // The answer for session A is held until the answer for session B has been shown.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let heldDone!: () => void;
    const heldFinished = new Promise<void>((r) => (heldDone = r));
    await page.route(`**/api/traces?*sessionId=${SA}*`, async (route) => {
      try {
        const response = await route.fetch();
        await held;
        await route.fulfill({ response });
      } catch {
        // The browser gave up on the request (React Query aborts a query nobody reads).
      } finally {
        heldDone();
      }
    });
    const session = page.getByLabel('Session ID');
    await session.fill(SA);
    await page.waitForRequest((req) => req.url().includes(`sessionId=${SA}`));
    await session.fill(SB);
    await expect(page).toHaveURL(new RegExp(`sessionId=${SB}`));
    await expect.poll(() => urls.some((u) => u.includes(`sessionId=${SB}`))).toBe(true);
    await expect(page.locator('tbody tr')).toHaveCount(7);

    release();
    await heldFinished;
    // Give the late answer every chance to land, then check the rows still match the URL.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await expect(page).toHaveURL(new RegExp(`sessionId=${SB}`));
    expect((await rowNames(page)).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `${P}-b-${i}`).sort());
    await page.unroute(`**/api/traces?*sessionId=${SA}*`);

    await page.reload();
    await hydrated(page);
    await expect(page.locator('tbody tr')).toHaveCount(7);
  });
});
