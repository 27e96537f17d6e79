// Reading comfort of the trace and session lists: filter fields that suggest stored values,
// relative time ranges that stay relative (URL, saved views, the API), resizable columns,
// session ids cut in the middle, compact rows, and the sessions list's filters and
// columns; at 1440 and 390 px, light and dark. Names carry this run's id.
import { runId, simpleTrace, type SpanInput, type TraceInput } from './fixtures';
import { expect, open, postTraces, test } from './viewer-helpers';
import { E2E_API_KEY } from '../playwright.config';
import type { Page } from '@playwright/test';

const R = runId();
const C = `cmf-${R}`;
const MODEL_A = `${C}-model-alpha`;
const MODEL_B = `${C}-model-beta`;
const USER = `${C}-user-ann`;
// Long ids that differ only at their end, as generated ids do.
const session = (n: number) => `${C}-conversation-7f3a9c2e5b1d4a6f-${n}`;
const INPUT = 'Please check the delivery status of order 4471 that was placed last Tuesday';
const shot = (name: string) => `/tmp/list-shots/${name}.png`;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const headers = { authorization: `Bearer ${E2E_API_KEY}` };

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const traces: TraceInput[] = [];
  for (let i = 0; i < 24; i++) {
    const startedAt = minutesAgo(1 + i);
    const spans: SpanInput[] = [
      { id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', startedAt, input: `${INPUT} (${i})`, output: `Order 4471 left the warehouse and arrives on Friday (${i})` },
      { id: 'llm', parentSpanId: 'root', name: 'chat', type: 'LLM_CALL', status: 'COMPLETED', startedAt, metadata: { model: i % 2 ? MODEL_B : MODEL_A } },
    ];
    traces.push(
      simpleTrace({ id: `${C}-${i}`, name: `${C}-${i % 2 ? 'refund' : 'checkout'}`, sessionId: session(i % 3), userId: i % 3 === 0 ? USER : `${C}-user-bo`, tags: [`${C}-tag-${i % 2 ? 'eu' : 'us'}`], status: i === 4 ? 'ERROR' : 'COMPLETED', startedAt, totalDuration: 1200, spans }),
    );
  }
  // A failure two hours ago: outside "last hour", inside "last 24 hours".
  traces.push(simpleTrace({ id: `${C}-old-failure`, name: `${C}-checkout`, status: 'ERROR', startedAt: minutesAgo(120), sessionId: `${C}-older` }));
  await postTraces(request, traces);
  await request.dispose();
});

const names = (page: Page) => page.locator('tbody a[data-row-link]').allTextContents();
const suggestions = (page: Page, id: string) => page.locator(`datalist#${id} option`).evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));

test.describe('at 1440 × 900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('name, model, session, user and tag fields suggest stored values as one types; a value filters exactly', async ({ page }) => {
    await open(page, '/traces');
    const name = page.getByLabel('Trace name');
    await name.click();
    await name.pressSequentially(`${C}-`);
    await expect.poll(() => suggestions(page, 'filter-name-suggestions')).toEqual([`${C}-checkout`, `${C}-refund`]);
    await name.pressSequentially('r');
    await expect.poll(() => suggestions(page, 'filter-name-suggestions')).toEqual([`${C}-refund`]);
    await name.fill(`${C}-refund`);
    await expect(page).toHaveURL(new RegExp(`name=${C}-refund`));
    await expect.poll(async () => (await names(page)).every((n) => n === `${C}-refund`) && (await names(page)).length > 0).toBe(true);

    const model = page.getByLabel('Model', { exact: true });
    await model.click();
    await model.pressSequentially(`${C}-model`);
    await expect.poll(() => suggestions(page, 'filter-model-suggestions')).toEqual([MODEL_A, MODEL_B]);
    await model.fill(MODEL_A);
    await expect(page).toHaveURL(new RegExp(`model=${MODEL_A}`));
    // Refunds were all model beta: nothing matches both.
    await expect(page.getByRole('heading', { name: 'No traces match these filters' })).toBeVisible();
    await name.fill('');
    await expect.poll(async () => (await names(page)).length).toBe(12);

    const sessionField = page.getByLabel('Session ID');
    await sessionField.click();
    await sessionField.pressSequentially(`${C}-conv`);
    await expect.poll(() => suggestions(page, 'filter-session-suggestions')).toEqual([session(0), session(1), session(2)]);

    await page.getByRole('button', { name: /^Filters/ }).click();
    const panel = page.getByRole('dialog', { name: 'More filters' });
    await panel.getByLabel('User ID').click();
    await panel.getByLabel('User ID').pressSequentially(`${C}-user-a`);
    await expect.poll(() => suggestions(page, 'filter-user-suggestions')).toEqual([USER]);
    await panel.getByLabel('Tags (all of them)').click();
    await panel.getByLabel('Tags (all of them)').pressSequentially(`${C}-tag`);
    await expect.poll(() => suggestions(page, 'filter-tag-suggestions')).toEqual([`${C}-tag-eu`, `${C}-tag-us`]);
    await page.screenshot({ path: shot('suggest-1440-light') });

    // The API: {values}, prefix and limit; 400 with {error} for a field it does not know.
    const res = await page.request.get(`/api/traces/suggest?field=model&q=${C}&limit=1`, { headers });
    expect(await res.json()).toEqual({ values: [MODEL_A] });
    const bad = await page.request.get('/api/traces/suggest?field=status', { headers });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Invalid field parameter: must be one of name, tag, sessionId, userId, model' });
  });

  test('"Last hour" stays relative: range=1h in the URL and in a saved view, shown above the list', async ({ page }) => {
    await open(page, `/traces?search=${C}&status=ERROR`);
    await expect.poll(() => names(page)).toEqual([`${C}-checkout`, `${C}-checkout`]);
    await page.getByRole('button', { name: /^Filters/ }).click();
    const panel = page.getByRole('dialog', { name: 'More filters' });
    await panel.getByLabel('Started').selectOption({ label: 'Last hour' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/range=1h/);
    expect(page.url()).not.toContain('from=');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    const chip = page.getByRole('list', { name: 'Other filters' }).locator('[data-filter="range"]');
    await expect(chip).toHaveText(/Started:\s*Last hour/);

    // Saved as range=1h, and opened again as range=1h.
    const viewName = `Failures last hour ${R}`;
    await page.getByRole('button', { name: /^Views/ }).click();
    await page.getByLabel('Save these filters and columns as').fill(viewName);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const views = (await (await page.request.get('/api/views')).json()) as { views: Array<{ name: string; query: string }> };
    const saved = views.views.find((v) => v.name === viewName)!;
    expect(new URLSearchParams(saved.query).get('range')).toBe('1h');
    expect(saved.query).not.toContain('from=');
    await page.screenshot({ path: shot('range-1440-light') });

    // The API refuses a range it does not know, and range with from.
    const bad = await page.request.get('/api/traces?range=2h', { headers });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Invalid range parameter: must be one of 15m, 1h, 24h, 7d, 30d' });
    const both = await page.request.get(`/api/traces?range=1h&from=${encodeURIComponent(minutesAgo(5))}`, { headers });
    expect(await both.json()).toEqual({ error: 'Invalid range parameter: give range or from/to, not both' });
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`previews get room, columns resize and are remembered, session ids are cut in the middle (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await open(page, `/traces?search=${C}`);
      const firstIn = page.locator('tbody tr').first().locator('[data-previews] > span').first();
      await expect(firstIn).toContainText(INPUT.slice(0, 20));
      // At least 30 characters of the input show: its box is as wide as 30 of them plus the "In" label.
      const room = await firstIn.evaluate((el, input) => {
        const probe = document.createElement('span');
        probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
        probe.className = el.className;
        probe.textContent = `In ${input.slice(0, 30)}…`;
        el.parentElement!.appendChild(probe);
        const need = probe.getBoundingClientRect().width;
        probe.remove();
        return { have: el.getBoundingClientRect().width, need };
      }, INPUT);
      expect(room.have).toBeGreaterThanOrEqual(room.need);

      // The session id: its start cut, its last characters shown, the whole on hover.
      const sessionCell = page.locator('tbody tr').first().getByRole('link', { name: session(0) });
      await expect(sessionCell.locator('[title]')).toHaveAttribute('title', `Show the traces of session ${session(0)}`);
      await expect(sessionCell.locator('span > span').last()).toHaveText(session(0).slice(-6));
      await expect(sessionCell.locator('span > span').last()).toBeVisible();

      // Drag the tags column narrower: the previews widen, and a reload keeps it.
      const handle = page.locator('[data-resize="tags"]');
      const tagsHeader = page.getByRole('columnheader', { name: 'Tags' });
      const before = (await tagsHeader.boundingBox())!.width;
      const inBefore = (await firstIn.boundingBox())!.width;
      const box = (await handle.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x - 80, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await expect.poll(async () => (await tagsHeader.boundingBox())!.width).toBeLessThan(before - 60);
      await expect.poll(async () => (await firstIn.boundingBox())!.width).toBeGreaterThan(inBefore + 20);
      const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('crossroads.list.widths') ?? '{}') as Record<string, number>);
      expect(stored.tags).toBeLessThan(before - 60);
      // The keyboard too: a step per arrow; Home gives the column its own width back.
      await handle.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.evaluate(() => (JSON.parse(window.localStorage.getItem('crossroads.list.widths') ?? '{}') as Record<string, number>).tags)).toBe(stored.tags + 16);
      await page.reload();
      await expect.poll(async () => (await page.getByRole('columnheader', { name: 'Tags' }).boundingBox())!.width).toBeLessThan(before - 40);
      await page.screenshot({ path: shot(`columns-1440-${scheme}`) });
      await page.locator('[data-resize="tags"]').focus();
      await page.keyboard.press('Home');
      await expect.poll(async () => Math.round((await page.getByRole('columnheader', { name: 'Tags' }).boundingBox())!.width)).toBe(Math.round(before));
    });

    test(`compact rows show more than 10 rows at 1440 × 900, remembered (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await open(page, `/traces?search=${C}`);
      const inView = () =>
        page.locator('tbody tr').evaluateAll((rows) => rows.filter((r) => r.getBoundingClientRect().bottom <= window.innerHeight).length);
      await expect.poll(() => page.locator('tbody tr').count()).toBe(20);
      const roomy = await inView();
      const toggle = page.getByRole('button', { name: 'Compact rows' });
      await expect(toggle).toHaveAttribute('aria-pressed', 'false');
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-pressed', 'true');
      await expect.poll(inView).toBeGreaterThan(10);
      expect(await inView()).toBeGreaterThan(roomy);
      await page.screenshot({ path: shot(`compact-1440-${scheme}`) });
      await page.reload();
      await expect(page.getByRole('button', { name: 'Compact rows' })).toHaveAttribute('aria-pressed', 'true');
      await expect.poll(inView).toBeGreaterThan(10);
    });

    test(`the sessions list: search, user, status, time range, a user column and the first input (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await open(page, `/sessions?search=${C}-conv`);
      const rows = page.getByTestId('sessions-table').locator('tbody tr');
      await expect(rows).toHaveCount(3);
      const first = rows.first();
      await expect(first.locator('td').nth(0)).toHaveText(session(0));
      await expect(first.locator('td').nth(1)).toHaveText(USER);
      await expect(first.locator('td').nth(2)).toHaveText(`${INPUT} (21)`);
      await page.screenshot({ path: shot(`sessions-1440-${scheme}`) });

      await page.getByLabel('Status').selectOption('ERROR');
      await expect(page).toHaveURL(/status=ERROR/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first().locator('td').nth(0)).toHaveText(session(1));
      await page.getByLabel('Status').selectOption('');
      await expect(rows).toHaveCount(3);

      await page.getByLabel('Search session IDs').fill(C);
      await page.getByLabel('Latest activity').selectOption('1h');
      await expect(page).toHaveURL(/range=1h/);
      await expect(page.getByTestId('sessions-active-filters')).toContainText('Latest activity: last hour');
      await expect(rows).toHaveCount(3);
      await page.getByLabel('Latest activity').selectOption('24h');
      await expect(rows).toHaveCount(4);

      const user = page.getByLabel('User ID');
      await user.click();
      await user.pressSequentially(`${C}-user-a`);
      await expect.poll(() => suggestions(page, 'sessions-user-suggestions')).toEqual([USER]);
      await user.fill(USER);
      await user.press('Enter');
      await expect(page).toHaveURL(new RegExp(`userId=${USER}`));
      await expect(rows).toHaveCount(1);

      const api = await page.request.get(`/api/sessions?search=${C}-conv&status=ERROR&range=1h`, { headers });
      const body = (await api.json()) as { sessions: Array<{ id: string; userId: string | null; firstInput: string | null }> };
      expect(body.sessions.map((s) => [s.id, s.userId])).toEqual([[session(1), `${C}-user-bo`]]);
    });
  }
});

test.describe('at 390 × 844', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  for (const scheme of ['light', 'dark'] as const) {
    test(`the filter fields, the range chip and the sessions filters fit a phone (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await open(page, `/traces?search=${C}&range=24h`);
      await expect(page.getByTestId('trace-cards').or(page.locator('ul[aria-label="Traces"]')).first()).toBeVisible();
      await expect(page.getByRole('list', { name: 'Other filters' }).locator('[data-filter="range"]')).toHaveText(/Last 24 hours/);
      await expect(page.getByLabel('Trace name')).toBeVisible();
      await expect(page.getByLabel('Model', { exact: true })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: shot(`list-390-${scheme}`), fullPage: true });

      await open(page, `/sessions?search=${C}-conv`);
      await expect(page.getByTestId('sessions-table').locator('tbody tr')).toHaveCount(3);
      await expect(page.getByLabel('Search session IDs')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: shot(`sessions-390-${scheme}`), fullPage: true });
    });
  }
});
