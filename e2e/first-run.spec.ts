// A newcomer's first visit: the empty list tells the truth for the server's mode, shows
// the OpenTelemetry variables for this server, and loads (and removes) the demo data.
// The open-mode server (OPEN_MODE_PORT) is the newcomer's: nothing else writes to it.
import { OPEN_MODE_PORT } from '../playwright.config';
import { contrastProblems, expect, open, shotPath, test } from './viewer-helpers';

const OPEN_BASE = `http://127.0.0.1:${OPEN_MODE_PORT}`;

test.describe('open mode, empty', () => {
  test.use({ baseURL: OPEN_BASE, storageState: { cookies: [], origins: [] } });

  test('says any key works, shows the OpenTelemetry variables, loads the demo data and removes it', async ({ page }) => {
    await open(page, '/traces');
    const empty = page.getByTestId('empty-traces');
    await expect(empty.getByRole('heading', { name: 'No traces yet' })).toBeVisible();
    await expect(empty.getByTestId('key-advice')).toContainText('open mode');
    await expect(empty.getByTestId('key-advice')).toContainText('any non-empty key works');
    await expect(empty).not.toContainText('API_KEYS');
    const otel = empty.getByLabel('OpenTelemetry environment variables for this server');
    await expect(otel).toContainText(`OTEL_EXPORTER_OTLP_ENDPOINT=${OPEN_BASE}/api/otel`);
    await expect(otel).toContainText('OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer%20dev"');
    await expect(empty).toContainText('docs/frameworks.md');
    await expect(empty).toContainText('npm run demo');
    await expect(empty.getByLabel('Example command that sends a first trace')).toContainText('Authorization: Bearer dev');

    // The curl command the page shows works as shown.
    const res = await page.request.post('/api/traces', { headers: { authorization: 'Bearer dev' }, data: { traces: [] } });
    expect(res.status()).toBeLessThan(500);

    const loaded = page.waitForResponse((r) => r.url().endsWith('/api/demo') && r.request().method() === 'POST');
    await empty.getByRole('button', { name: 'Load demo data' }).click();
    expect((await loaded).status()).toBe(200);
    const banner = page.getByTestId('demo-banner');
    await expect(banner).toContainText(/Showing demo data: \d+ traces tagged demo/);
    await expect(page.locator('tbody tr')).toHaveCount(20);
    await expect(page.getByText(/^\d+ total$/)).toHaveText(/^(4\d|5\d|6\d|7\d|80) total$/);

    // The demo runs read as an agent's: a support session with decisions and a model call as chat.
    await page.goto('/traces?search=support-agent&status=ERROR');
    await page.locator('tbody a[data-row-link]').first().click();
    await expect(page.getByTestId('overview-decisions')).toBeVisible();
    await page.getByRole('tab', { name: /Decisions/ }).click();
    await expect(page.getByTestId('decision-card').filter({ hasText: 'Routing' }).getByTestId('option-confidence').first()).toBeVisible();
    await expect(page.getByTestId('decision-card').filter({ hasText: 'Escalation' })).toHaveCount(1);
    await expect(page.getByTestId('decision-outcome').first()).toContainText('Error');

    // The support conversations read like real ones: four turns, each question and answer its own.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await open(page, '/sessions/demo-support-11');
        const turns = page.getByTestId('session-turn');
        await expect(turns).toHaveCount(4);
        await expect(turns.nth(0)).toContainText('The app crashes when I upload a photo.');
        await expect(turns.nth(1)).toContainText('I updated, but a 25 MB photo still fails.');
        const texts = await turns.allInnerTexts();
        expect(new Set(texts).size).toBe(4);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.screenshot({ path: shotPath(`demo-conversation-${width}-${scheme}`), fullPage: true });
      }
    }
    await page.setViewportSize({ width: 1280, height: 720 });

    await open(page, '/traces');
    await page.getByTestId('demo-banner').getByRole('button', { name: 'Remove demo data' }).click();
    await expect(page.getByTestId('empty-traces')).toBeVisible();
    await expect(page.getByTestId('demo-banner')).toHaveCount(0);
    const left = await page.request.get('/api/traces?tag=demo');
    expect((await left.json()).total).toBe(0);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the empty state at 390, 1024 and 1440 px (${scheme}), readable, its commands scrolling inside their boxes`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [390, 1024, 1440]) {
        await page.setViewportSize({ width, height: 1000 });
        await open(page, '/traces');
        await expect(page.getByTestId('empty-traces')).toBeVisible();
        await page.screenshot({ path: shotPath(`first-run-${width}-${scheme}`), fullPage: true });
        const empty = page.getByTestId('empty-traces');
        expect(await empty.evaluate((el) => el.scrollWidth <= el.clientWidth), `width ${width}`).toBe(true);
      }
      expect(await contrastProblems(page)).toEqual([]);
    });
  }
});

test('a protected server tells an admin to make a key in Settings, reachable from the header', async ({ page }) => {
  await open(page, `/traces?search=nothing-${Date.now()}`);
  // The shared database is never empty: answer the next list request with nothing.
  await page.route('**/api/traces?*', (route) => route.fulfill({ json: { traces: [], total: 0, page: 1, limit: 20, totalPages: 0 } }));
  await page.getByRole('button', { name: 'Clear filters' }).last().click();
  const advice = page.getByTestId('empty-traces').getByTestId('key-advice');
  await expect(advice).toContainText('ingest');
  await expect(advice).not.toContainText('open mode');
  await expect(page.getByTestId('empty-traces').getByRole('button', { name: 'Load demo data' })).toBeVisible();
  await advice.getByRole('link', { name: 'make one in Settings, API keys' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' })).toBeVisible();
});
