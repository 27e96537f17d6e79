// The trace list page in Chromium against the production build: filters that race each
// other and their answers, row previews, the column chooser, every filter's control,
// saved views and the keyboard. Every name carries this run's id, so the tests hold in a
// database shared with other spec files.
import { runId, simpleTrace, type Json, type SpanInput, type TraceInput } from './fixtures';
import { contrastProblems, expect, hydrated, open, postTraces, rowNames, shotPath, test } from './viewer-helpers';
import type { Page } from '@playwright/test';

const R = runId();
const P = `list-${R}`; // name prefix of every trace in this file
const SA = `la-${R}`; // three traces
const SB = `lb-${R}`; // seven traces
const V = `listv-${R}`; // three varied runs for previews, columns and every filter (not matched by a search for P)
const VIP = `vip-${R}`;
const EU = `eu-${R}`;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const traces: TraceInput[] = [];
  for (let i = 0; i < 3; i++) traces.push(simpleTrace({ id: `a-${i}-${R}`, name: `${P}-a-${i}`, sessionId: SA, startedAt: minutesAgo(2 + i) }));
  for (let i = 0; i < 7; i++) traces.push(simpleTrace({ id: `b-${i}-${R}`, name: `${P}-b-${i}`, sessionId: SB, startedAt: minutesAgo(20 + i) }));
  const llm = (id: string, input: Json, output: Json, model: string, startedAt: string): SpanInput => ({
    id, parentSpanId: 'root', name: 'chat', type: 'LLM_CALL', status: 'COMPLETED', startedAt, durationMs: 300, input, output, metadata: { model },
  });
  traces.push(
    simpleTrace({
      id: `v-chat-${R}`, name: `${V}-chat`, userId: `ada-${R}`, tags: [VIP, EU], metadata: { region: `eu-${R}` },
      startedAt: minutesAgo(5), totalDuration: 500, totalCost: 0.5,
      spans: [
        { id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', startedAt: minutesAgo(5),
          input: { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Where is my parcel?' }] }, output: 'It arrives on Monday.' },
        llm('l1', 'ignored', 'ignored', 'gpt-4o', minutesAgo(4.9)),
      ],
      decisionPoints: [{ id: 'd1', type: 'ROUTING', chosen: `human-${R}`, alternatives: ['auto'], timestamp: minutesAgo(4.9) }],
    }),
    simpleTrace({
      id: `v-slow-${R}`, name: `${V}-slow`, userId: `bob-${R}`, tags: [EU], status: 'ERROR', metadata: { region: `us-${R}` },
      startedAt: minutesAgo(6), totalDuration: 9000, totalCost: 0.01,
      spans: [
        { id: 'root', name: 'agent', type: 'AGENT', status: 'ERROR', startedAt: minutesAgo(6) },
        llm('l1', [{ role: 'user', content: 'Summarise the report' }], 'draft', 'claude-x', minutesAgo(5.9)),
        llm('l2', 'again', { role: 'assistant', content: 'The report says sales grew.' }, 'gpt-4o', minutesAgo(5.8)),
      ],
    }),
    simpleTrace({ id: `v-old-${R}`, name: `${V}-old`, tags: [`archive-${R}`], startedAt: minutesAgo(3 * 24 * 60), totalDuration: 100, totalCost: 0 }),
  );
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

/** Names of the varied runs shown, sorted. */
async function varied(page: Page): Promise<string[]> {
  return (await rowNames(page)).sort();
}

const ALL_VARIED = [`${V}-chat`, `${V}-old`, `${V}-slow`];

test.describe('rows that differ', () => {
  test('each row previews its first input and last output as text', async ({ page }) => {
    await open(page, `/traces?search=${V}`);
    await expect.poll(() => varied(page)).toEqual(ALL_VARIED);
    const chat = page.locator('tbody tr').filter({ hasText: `${V}-chat` });
    await expect(chat.locator('[data-previews]')).toHaveText('InInput: Where is my parcel?OutOutput: It arrives on Monday.');
    const slow = page.locator('tbody tr').filter({ hasText: `${V}-slow` });
    await expect(slow.locator('[data-previews]')).toContainText('Summarise the report');
    await expect(slow.locator('[data-previews]')).toContainText('The report says sales grew.');
    await expect(page.locator('tbody tr').filter({ hasText: `${V}-old` })).toContainText('No input or output recorded');

    // The API carries them as new fields; the record's own are unchanged.
    const res = await page.request.get(`/api/traces?search=${V}-chat`);
    const [item] = (await res.json()).traces;
    expect(item).toMatchObject({ name: `${V}-chat`, inputPreview: 'Where is my parcel?', outputPreview: 'It arrives on Monday.', models: ['gpt-4o'] });
    expect(item._count).toEqual({ decisionPoints: 1, spans: 2, events: 0 });
  });

  test('the column chooser adds model and user, hides previews, and is remembered', async ({ page }) => {
    await open(page, `/traces?search=${V}`);
    await expect.poll(() => varied(page)).toEqual(ALL_VARIED);
    const headers = page.locator('thead th');
    await expect(headers).toHaveText(['Name', 'Status', 'Session', 'Tags', 'Started', 'Duration', 'Cost', 'Tokens', 'Decisions', 'Spans', 'Events'].map((h) => new RegExp(`^${h}`)));

    await page.getByRole('button', { name: 'Columns' }).click();
    const chooser = page.getByRole('dialog', { name: 'Columns' });
    await chooser.getByLabel('Model').check();
    await chooser.getByLabel('User').check();
    await chooser.getByLabel('Session').uncheck();
    await chooser.getByLabel('Input and output').uncheck();
    await page.keyboard.press('Escape');
    await expect(chooser).toBeHidden();
    await expect(page.getByRole('button', { name: 'Columns' })).toBeFocused();

    await expect(headers).toHaveText(['Name', 'Status', 'User', 'Model', 'Tags', 'Started', 'Duration', 'Cost', 'Tokens', 'Decisions', 'Spans', 'Events'].map((h) => new RegExp(`^${h}`)));
    const slow = page.locator('tbody tr').filter({ hasText: `${V}-slow` });
    await expect(slow.locator('td').nth(2)).toHaveText(`bob-${R}`);
    await expect(slow.locator('td').nth(3)).toHaveText('claude-x+1');
    await expect(slow.locator('td').nth(3).locator('span').first()).toHaveAttribute('title', 'claude-x, gpt-4o');
    await expect(page.locator('[data-previews]')).toHaveCount(0);

    await page.reload();
    await hydrated(page);
    await expect(headers.nth(3)).toHaveText('Model');
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('button', { name: 'Reset to the default columns' }).click();
    await expect(headers.nth(2)).toHaveText('Session');
    await expect(page.locator('[data-previews]')).toHaveCount(3);
  });
});

test.describe('every filter in the page', () => {
  /** Opens the filters panel, lets `fill` set it, applies, and waits for the URL. */
  async function applyFilters(page: Page, fill: () => Promise<void>, url: RegExp) {
    await page.getByRole('button', { name: /^Filters/ }).click();
    await fill();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(url);
  }

  async function clearPanel(page: Page) {
    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByRole('button', { name: 'Clear these' }).click();
    await expect.poll(() => varied(page)).toEqual(ALL_VARIED);
  }

  test('each filter of the panel narrows the rows, and lives in the URL', async ({ page }) => {
    await open(page, `/traces?search=${V}`);
    await expect.poll(() => varied(page)).toEqual(ALL_VARIED);
    const panel = page.getByRole('dialog', { name: 'More filters' });

    const cases: Array<[string, () => Promise<void>, RegExp, string[]]> = [
      ['tag', () => panel.getByLabel('Tags (all of them)').fill(VIP), new RegExp(`tag=${VIP}`), [`${V}-chat`]],
      ['last 24 hours', () => panel.getByLabel('Started').selectOption({ label: 'Last 24 hours' }).then(() => undefined), /range=24h/, [`${V}-chat`, `${V}-slow`]],
      ['min duration', () => panel.getByLabel('Min duration (s)').fill('1'), /minDurationMs=1000/, [`${V}-slow`]],
      ['max duration', () => panel.getByLabel('Max duration (s)').fill('0.2'), /maxDurationMs=200/, [`${V}-old`]],
      ['min cost', () => panel.getByLabel('Min cost (USD)').fill('0.1'), /minCost=0.1/, [`${V}-chat`]],
      ['max cost', () => panel.getByLabel('Max cost (USD)').fill('0.05'), /maxCost=0.05/, [`${V}-old`, `${V}-slow`]],
      ['errors', () => panel.getByLabel('Errors').selectOption('true').then(() => undefined), /hasErrors=true/, [`${V}-slow`]],
      ['user', () => panel.getByLabel('User ID').fill(`ada-${R}`), new RegExp(`userId=ada-${R}`), [`${V}-chat`]],
      [
        'metadata',
        async () => {
          await panel.getByLabel('Metadata key').fill('region');
          await panel.getByLabel('Metadata value').fill(`us-${R}`);
        },
        new RegExp(`metadata.region=us-${R}`),
        [`${V}-slow`],
      ],
      [
        'decision',
        async () => {
          await panel.getByLabel('Decision type').selectOption('ROUTING');
          await panel.getByLabel('Chosen option').fill(`human-${R}`);
        },
        /decisionType=ROUTING&chosen=/,
        [`${V}-chat`],
      ],
    ];
    for (const [what, fill, url, rows] of cases) {
      await test.step(what, async () => {
        await applyFilters(page, fill, url);
        await expect.poll(() => varied(page), { message: what }).toEqual(rows);
        await clearPanel(page);
      });
    }

    // A custom range, in the viewer's own time.
    await applyFilters(
      page,
      async () => {
        await panel.getByLabel('Started').selectOption('custom');
        const d = new Date(Date.now() - 4 * 86_400_000);
        const pad = (n: number) => String(n).padStart(2, '0');
        await panel.getByLabel('From (your time)').fill(`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T00:00`);
        const e = new Date(Date.now() - 86_400_000);
        await panel.getByLabel('To (your time)').fill(`${e.getFullYear()}-${pad(e.getMonth() + 1)}-${pad(e.getDate())}T${pad(e.getHours())}:${pad(e.getMinutes())}`);
      },
      /from=.*&to=/,
    );
    await expect.poll(() => varied(page)).toEqual([`${V}-old`]);
    await page.screenshot({ path: shotPath('list-custom-range') });

    // Two at once, kept after a reload, and a bad value is refused in the panel.
    await clearPanel(page);
    await applyFilters(
      page,
      async () => {
        await panel.getByLabel('Tags (all of them)').fill(EU);
        await panel.getByLabel('Errors').selectOption('false');
      },
      /hasErrors=false/,
    );
    await expect.poll(() => varied(page)).toEqual([`${V}-chat`]);
    await page.reload();
    await hydrated(page);
    await expect.poll(() => varied(page)).toEqual([`${V}-chat`]);
    await expect(page.getByRole('button', { name: /^Filters/ })).toContainText('2');
    await page.getByRole('button', { name: /^Filters/ }).click();
    await panel.getByLabel('Min cost (USD)').fill('-1');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(panel.getByRole('alert')).toHaveText('Minimum cost must be a number of 0 or more.');
    await page.keyboard.press('Escape');
  });

  test('clicking a tag in a row adds it to the filters', async ({ page }) => {
    await open(page, `/traces?search=${V}`);
    await expect.poll(() => varied(page)).toEqual(ALL_VARIED);
    const chat = page.locator('tbody tr').filter({ hasText: `${V}-chat` });
    await chat.getByRole('button', { name: `Filter by tag ${EU}` }).click();
    await expect(page).toHaveURL(new RegExp(`tag=${EU}`));
    await expect(page).toHaveURL(/\/traces\?/);
    await expect.poll(() => varied(page)).toEqual([`${V}-chat`, `${V}-slow`]);
    await page.locator('tbody tr').filter({ hasText: `${V}-chat` }).getByRole('button', { name: `Filter by tag ${VIP}` }).click();
    await expect(page).toHaveURL(new RegExp(`tag=${EU}&tag=${VIP}`));
    await expect.poll(() => varied(page)).toEqual([`${V}-chat`]);
    await expect(page.getByRole('list', { name: 'Other filters' }).locator('[data-filter="tag"]')).toHaveCount(2);
  });
});

test.describe('screens', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the list with previews and the filters panel at 390, 1024 and 1440 px (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [390, 1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await open(page, `/traces?search=${V}`);
        await expect.poll(() => varied(page)).toEqual(ALL_VARIED);
        await page.screenshot({ path: shotPath(`list-${width}-${scheme}`), fullPage: true });
        await page.getByRole('button', { name: /^Filters/ }).click();
        await expect(page.getByRole('dialog', { name: 'More filters' })).toBeVisible();
        await page.screenshot({ path: shotPath(`list-filters-${width}-${scheme}`) });
        if (width === 1024) expect(await contrastProblems(page)).toEqual([]);
        await page.keyboard.press('Escape');
      }
    });
  }
});

test.describe('phones', () => {
  test('below 1024 px each trace is a card: fields wrap, tags filter, j and k move, a tap opens it', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await open(page, `/traces?search=${V}`);
    const cards = page.getByTestId('trace-cards');
    await expect(cards.locator('li')).toHaveCount(3);
    await expect(page.locator('table')).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const chat = cards.locator('li').filter({ hasText: `${V}-chat` });
    await expect(chat).toContainText('Where is my parcel?');
    await expect(chat).toContainText('It arrives on Monday.');
    await expect(chat.locator('dl')).toContainText('Cost$0.50');
    // Every card within the screen's width.
    for (const box of await cards.locator('li').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))) expect(box).toBeLessThanOrEqual(360);

    // Keys move through the cards' links, as through the table's rows.
    await page.locator('h1').click();
    const links = cards.locator('a[data-card-link]');
    await page.keyboard.press('j');
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press('j');
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press('k');
    await expect(links.nth(0)).toBeFocused();

    await chat.getByRole('button', { name: `Filter by tag ${VIP}` }).click();
    await expect(page).toHaveURL(new RegExp(`tag=${VIP}`));
    await expect(cards.locator('li')).toHaveCount(1);
    await page.screenshot({ path: shotPath('list-cards-360') });
    // A tap on the card, away from its links and buttons, opens the trace.
    await chat.locator('dl').click({ position: { x: 2, y: 2 } });
    await expect(page).toHaveURL(new RegExp(`/traces/v-chat-${R}`));
  });
});

test.describe('saved views and keys', () => {
  test('a view keeps the filters and columns under a name for the signed-in person, and can be deleted', async ({ page, consoleGuard }) => {
    // The refused name below is a 400 by design.
    consoleGuard.allow(/\/api\/views|status of 400/);
    const name = `EU runs ${R}`;
    await open(page, `/traces?search=${V}&tag=${EU}&sort=cost`);
    await expect.poll(() => varied(page)).toEqual([`${V}-chat`, `${V}-slow`]);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('dialog', { name: 'Columns' }).getByLabel('Model').check();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Views' }).click();
    const panel = page.getByRole('dialog', { name: 'Saved views' });
    await panel.getByLabel('Save these filters and columns as').fill(name);
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(panel.getByRole('button', { name, exact: true })).toBeVisible();
    await page.screenshot({ path: shotPath('list-views') });
    await page.keyboard.press('Escape');

    const stored = (await (await page.request.get('/api/views')).json()).views as Array<{ name: string; query: string; columns: string[] }>;
    const view = stored.find((v) => v.name === name)!;
    expect(view.query).toBe(`search=${V}&tag=${EU}&sort=cost`);
    expect(view.columns).toContain('model');

    // Elsewhere, with the default columns: the view brings both back.
    await open(page, '/traces');
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('button', { name: 'Reset to the default columns' }).click();
    await page.keyboard.press('Escape');
    await expect(page.locator('thead th', { hasText: 'Model' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Views' }).click();
    await panel.getByRole('button', { name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`\\?search=${V}&tag=${EU}&sort=cost$`));
    await expect.poll(() => varied(page)).toEqual([`${V}-chat`, `${V}-slow`]);
    await expect(page.locator('thead th', { hasText: 'Model' })).toHaveCount(1);

    // A bad name is refused with the API's message; deleting removes it.
    await page.getByRole('button', { name: 'Views' }).click();
    await panel.getByLabel('Save these filters and columns as').fill('   x\u0007');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(panel.getByRole('alert')).toHaveText('Invalid name: must not contain control characters');
    await panel.getByRole('button', { name: `Delete view ${name}` }).click();
    await expect(panel.getByRole('button', { name, exact: true })).toHaveCount(0);
    expect(((await (await page.request.get('/api/views')).json()).views as Array<{ name: string }>).map((v) => v.name)).not.toContain(name);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('button', { name: 'Reset to the default columns' }).click();
  });

  test('/ focuses the search, j and k move through the rows, Enter opens one', async ({ page }) => {
    await open(page, `/traces?search=${V}`);
    await expect.poll(() => varied(page)).toEqual(ALL_VARIED);
    const names = await rowNames(page);
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await expect(search).toBeFocused();
    await expect(search).toHaveValue(V); // the slash was not typed
    await page.keyboard.press('j'); // typed into the field, not a move
    await expect(search).toHaveValue(`${V}j`);
    await search.press('Backspace');
    await expect(page).toHaveURL(new RegExp(`search=${V}$`));
    await expect.poll(() => varied(page)).toEqual(ALL_VARIED);
    await page.locator('h1').click();

    const link = (i: number) => page.locator('tbody a[data-row-link]').nth(i);
    await page.keyboard.press('j');
    await expect(link(0)).toBeFocused();
    await page.keyboard.press('j');
    await expect(link(1)).toBeFocused();
    await expect(page.locator('tbody tr').nth(1)).toHaveCSS('background-color', /rgb/);
    await page.screenshot({ path: shotPath('list-keyboard') });
    await page.keyboard.press('k');
    await expect(link(0)).toBeFocused();
    await page.keyboard.press('k');
    await expect(link(0)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/traces/v-${names[0].slice(V.length + 1)}-${R}`));
  });
});
