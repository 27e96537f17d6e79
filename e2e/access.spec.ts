// Access control as people and programs meet it (issue 11), in Chromium against the
// production build: signing in and out, deep links through /sign-in, the viewer out of
// reach when signed out, API keys made in the UI and used by the real curl, a viewer kept
// out of the settings, and the open-mode server that needs no sign-in. Every test that
// must start signed out says so; the others use the admin session of e2e/auth.setup.ts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { E2E_ADMIN, E2E_API_KEY, OPEN_MODE_PORT } from '../playwright.config';
import { signInPath } from '@/lib/transports/pages/sign-in';
import { appPages, knownPages } from './app-pages';
import { agentTrace, runId, simpleTrace } from './fixtures';
import { contrastProblems, expect, hydrated, open, postTraces, shotPath, test } from './viewer-helpers';

const run = promisify(execFile);
const R = runId();
const TRACE_ID = `access-${R}`;
const TRACE_NAME = `access-agent-${R}`;
const SIGNED_OUT = { cookies: [], origins: [] };
const OPEN_BASE = `http://127.0.0.1:${OPEN_MODE_PORT}`;
const SESSION_COOKIE = 'crossroads.session_token';

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL, storageState: SIGNED_OUT });
  await postTraces(request, [agentTrace(TRACE_ID, TRACE_NAME)]);
  await request.dispose();
});

function base(): string {
  return test.info().project.use.baseURL as string;
}

/** Alerts of the page itself (Next's route announcer is an empty role=alert outside <main>). */
function alertIn(page: Page) {
  return page.getByRole('main').getByRole('alert');
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** A browser of someone who has not signed in. */
async function signedOutContext(browser: Browser, baseURL = base()): Promise<BrowserContext> {
  return browser.newContext({ baseURL, storageState: SIGNED_OUT });
}

/** The real curl binary, as a user would run it; the status code comes after the body. */
async function curl(url: string, key: string, init: { method?: string; json?: unknown } = {}): Promise<{ status: number; body: string }> {
  const args = ['-sS', '-w', '\n%{http_code}', '-H', `Authorization: Bearer ${key}`];
  if (init.method) args.push('-X', init.method);
  if (init.json !== undefined) args.push('-H', 'Content-Type: application/json', '--data-binary', JSON.stringify(init.json));
  args.push(url);
  const { stdout } = await run('curl', args, { maxBuffer: 16 * 1024 * 1024 });
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

test.describe('signed out', () => {
  test.use({ storageState: SIGNED_OUT });

  test('sign in: the form signs the admin in and shows who is signed in', async ({ page }) => {
    await page.goto('/sign-in');
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByRole('button', { name: 'Sign in with SSO' })).toBeVisible();
    await page.screenshot({ path: shotPath('sign-in') });

    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(page).toHaveURL(`${base()}/traces`);
    await expect(page.getByTestId('account')).toContainText(`Signed in as ${E2E_ADMIN.email} (admin)`);
    await expect(page.getByTestId('account').getByRole('button', { name: 'Sign out' })).toBeVisible();
    const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
    expect(cookie, 'the session cookie').toBeDefined();
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe('Lax');
    expect(cookie!.expires, 'a session cookie with an expiry').toBeGreaterThan(Date.now() / 1000);
  });

  test('a wrong password is refused with a message that does not say which part was wrong', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/401/);
    await page.goto('/sign-in');
    await signIn(page, E2E_ADMIN.email, 'not-the-password');
    await expect(alertIn(page)).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(`${base()}/sign-in`);
    await expect(page.getByTestId('account')).toHaveCount(0);
    // The password is selected for the next try; the email stays.
    await expect(page.getByLabel('Email')).toHaveValue(E2E_ADMIN.email);
    await expect(page.getByLabel('Password')).toBeFocused();

    // An email nobody has reads exactly the same.
    await signIn(page, `nobody-${R}@crossroads.test`, 'not-the-password');
    await expect(alertIn(page)).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(`${base()}/sign-in`);
  });

  test('after five failures an account is throttled: the page says when to try again', async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(/40[13]|429/);
    const email = `throttled-${R}@crossroads.test`;
    for (let i = 0; i < 5; i++) {
      const res = await request.post('/api/auth/sign-in/email', { headers: { origin: base() }, data: { email, password: 'wrong-password' } });
      expect(res.status()).toBe(401);
    }
    await page.goto('/sign-in');
    await signIn(page, email, 'wrong-password');
    await expect(alertIn(page)).toHaveText(/^Too many sign-in attempts; try again later\. Try again in (15|14) minutes\.$/);
    await expect(page).toHaveURL(`${base()}/sign-in`);
  });

  test('an SSO failure that comes back to /sign-in is explained in words', async ({ page }) => {
    await page.goto('/sign-in?error=not_allowed');
    await expect(alertIn(page)).toHaveText(/not allowed to join this Crossroads/);
    await page.goto('/sign-in?error=state_not_found');
    await expect(alertIn(page)).toHaveText(/expired or was started in another browser tab/);
    // An unknown code is named, and nothing from the link is shown besides.
    await page.goto('/sign-in?error=weird_code&error_description=Call%20this%20number');
    await expect(alertIn(page)).toHaveText(/Single sign-on did not complete \(code weird_code\)/);
    await expect(page.locator('body')).not.toContainText('Call this number');
  });

  test('sign out ends the session: the viewer is out of reach again, even with the old cookie', async ({ page, request }) => {
    await page.goto('/sign-in');
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(page).toHaveURL(`${base()}/traces`);
    await hydrated(page);
    const old = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)!;

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${base()}/sign-in`);
    await page.goto('/traces');
    await expect(page).toHaveURL(`${base()}/sign-in`);
    await expect(page.getByLabel('Password')).toBeVisible();

    // The session ended on the server, not only in this browser.
    const replay = await request.get('/api/traces', { headers: { cookie: `${SESSION_COOKIE}=${old.value}` } });
    expect(replay.status()).toBe(401);
  });

  test('a deep link survives sign-in: a trace with its tab, and a filtered list', async ({ page }) => {
    const deep = `/traces/${encodeURIComponent(TRACE_ID)}?tab=events`;
    await page.goto(deep);
    await expect(page).toHaveURL(`${base()}${signInPath(deep)}`);
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(page).toHaveURL(`${base()}${deep}`);
    await expect(page.getByRole('heading', { name: TRACE_NAME, level: 1 })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Events (3)', exact: true })).toHaveAttribute('aria-selected', 'true');

    // Signed out again, a filtered list comes back with its filters.
    await page.context().clearCookies();
    const list = `/traces?status=ERROR&search=${encodeURIComponent(TRACE_NAME)}`;
    await page.goto(list);
    await expect(page).toHaveURL(`${base()}${signInPath(list)}`);
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(page).toHaveURL(`${base()}${list}`);
    await expect(page.locator('tbody a[data-row-link]')).toHaveText([TRACE_NAME]);
  });

  test('a next that points off the site is ignored', async ({ page }) => {
    await page.goto('/sign-in?next=%2F%2Fevil.example%2Fsteal');
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(page).toHaveURL(`${base()}/traces`);
  });

  test('the viewer is unreachable when signed out: pages redirect, the API answers 401', async ({ page, request }) => {
    await page.goto(`/traces/${encodeURIComponent(TRACE_ID)}`);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await expect(page.locator('body')).not.toContainText(TRACE_NAME);

    const list = await request.get('/api/traces');
    expect(list.status()).toBe(401);
    expect(await list.json()).toEqual({ error: 'Missing or invalid Authorization header' });
    const one = await request.get(`/api/traces/${encodeURIComponent(TRACE_ID)}`);
    expect(one.status()).toBe(401);
    const wrongKey = await request.get('/api/traces', { headers: { authorization: 'Bearer not-a-key' } });
    expect(wrongKey.status()).toBe(401);
    expect(await wrongKey.json()).toEqual({ error: 'Invalid API key' });
  });

  test('every page of the app sends an anonymous visit to /sign-in?next=…, except /sign-in', async ({ request }) => {
    const pages = appPages(TRACE_ID);
    // The enumeration found the pages this product has (so the loop below is not vacuous).
    for (const known of knownPages(TRACE_ID)) {
      expect(pages, `app/**/page.tsx gives ${known}`).toContain(known);
    }
    for (const url of pages) {
      const res = await request.get(url, { maxRedirects: 0 });
      if (url === '/sign-in') {
        expect(res.status(), url).toBe(200);
        continue;
      }
      expect(res.status(), `${url} without credentials`).toBe(307);
      const target = new URL(res.headers().location, base());
      expect(target.pathname + target.search, url).toBe(signInPath(url));

      // A made-up session cookie gets past the proxy (it only looks for one), not past the
      // pages' own check: wherever the redirects lead, it is the sign-in form.
      const forged = await request.get(url, { headers: { cookie: `${SESSION_COOKIE}=forged.value` } });
      expect(new URL(forged.url()).pathname, `${url} with a forged session cookie`).toBe('/sign-in');
      expect(forged.status(), url).toBe(200);
      expect(await forged.text(), url).not.toContain(TRACE_NAME);
    }
  });

  test('the favicon is a public static file', async ({ request }) => {
    const icon = await request.get('/favicon.ico');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
    const html = await (await request.get('/sign-in')).text();
    const links = [...html.matchAll(/<link\b[^>]*\brel="icon"[^>]*>/g)].map((m) => /\bhref="([^"]+)"/.exec(m[0])![1].replace(/&amp;/g, '&'));
    expect(links.length).toBeGreaterThan(0);
    for (const href of links) expect((await request.get(href)).status(), href).toBe(200);
  });
});

test.describe('API keys', () => {
  test.describe.configure({ mode: 'serial' });

  async function createKey(page: Page, name: string, scopes: { ingest: boolean; read: boolean }): Promise<string> {
    await open(page, '/settings/api-keys');
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('ingest', { exact: true }).setChecked(scopes.ingest);
    await page.getByLabel('read', { exact: true }).setChecked(scopes.read);
    await page.getByRole('button', { name: 'Create API key' }).click();
    const panel = page.getByTestId('new-api-key');
    await expect(panel).toContainText(`Your new key “${name}”`);
    await expect(panel).toContainText('it will not be shown again');
    const key = (await page.getByTestId('api-key-value').textContent())!.trim();
    expect(key).toMatch(/^cr_\S{20,}$/);
    return key;
  }

  const keyRow = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });

  test('an admin creates a read key in the UI, curl reads with it, and revoking it locks curl out', async ({ page, context }) => {
    const name = `curl-read-${R}`;
    const key = await createKey(page, name, { ingest: false, read: true });

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const row = keyRow(page, name);
    await expect(row).toContainText(key.slice(0, 10));
    await expect(row.getByRole('cell').nth(2)).toHaveText('read');
    await expect(row.getByRole('cell').nth(4)).toHaveText('never');
    await page.screenshot({ path: shotPath('settings-api-keys'), fullPage: true });

    const read = await curl(`${base()}/api/traces?search=${encodeURIComponent(TRACE_NAME)}`, key);
    expect(read.status, read.body).toBe(200);
    expect((JSON.parse(read.body) as { traces: { id: string }[] }).traces.map((t) => t.id)).toEqual([TRACE_ID]);
    const detail = await curl(`${base()}/api/traces/${encodeURIComponent(TRACE_ID)}`, key);
    expect(detail.status, detail.body).toBe(200);
    const write = await curl(`${base()}/api/traces`, key, { method: 'POST', json: { traces: [simpleTrace({ id: `nope-${R}`, name: 'nope' })] } });
    expect(write.status).toBe(403);
    expect(JSON.parse(write.body)).toEqual({ error: 'API key lacks the ingest scope' });

    // Shown once: after a reload only its start remains, and it has been used.
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId('new-api-key')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText(key);
    await expect(keyRow(page, name).getByRole('cell').nth(4)).not.toHaveText('never');

    await keyRow(page, name).getByRole('button', { name: `Revoke ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Revoke “${name}”?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect(dialog).toBeHidden();
    await expect(keyRow(page, name)).toHaveCount(0);

    const revoked = await curl(`${base()}/api/traces`, key);
    expect(revoked.status).toBe(401);
    expect(JSON.parse(revoked.body)).toEqual({ error: 'Invalid API key' });
  });

  test('an ingest-only key sends traces but gets 403 on reads', async ({ page }) => {
    const name = `curl-ingest-${R}`;
    const key = await createKey(page, name, { ingest: true, read: false });
    await expect(keyRow(page, name).getByRole('cell').nth(2)).toHaveText('ingest');

    const read = await curl(`${base()}/api/traces`, key);
    expect(read.status).toBe(403);
    expect(JSON.parse(read.body)).toEqual({ error: 'API key lacks the read scope' });
    const write = await curl(`${base()}/api/traces`, key, { method: 'POST', json: { traces: [simpleTrace({ id: `ingested-${R}`, name: `ingested-${R}` })] } });
    expect(write.status, write.body).toBe(200);
  });

  test('a key needs a name and a scope; cancelling a revoke keeps the key', async ({ page }) => {
    await open(page, '/settings/api-keys');
    await page.getByLabel('Name').fill(`no-scope-${R}`);
    await page.getByLabel('ingest', { exact: true }).setChecked(false);
    await page.getByLabel('read', { exact: true }).setChecked(false);
    await page.getByRole('button', { name: 'Create API key' }).click();
    await expect(alertIn(page)).toHaveText('Choose at least one scope.');
    await expect(keyRow(page, `no-scope-${R}`)).toHaveCount(0);

    const name = `kept-${R}`;
    await createKey(page, name, { ingest: false, read: true });
    await keyRow(page, name).getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(keyRow(page, name)).toHaveCount(1);
  });
});

test.describe('users', () => {
  const VIEWER = { email: `viewer-${R}@crossroads.test`, name: `Viewer ${R}`, password: `viewer-pass-${R}` };

  test('an admin adds a viewer, who reads traces but cannot open the settings, until promoted; removing signs them out', async ({ page, browser, consoleGuard }) => {
    consoleGuard.allow(/409/); // adding a taken email, on purpose
    await open(page, '/settings/users');
    const own = page.getByLabel(`Role of ${E2E_ADMIN.email}`);
    await expect(own, 'nobody demotes themselves by accident').toBeDisabled();
    await expect(page.getByRole('button', { name: `Remove ${E2E_ADMIN.email}` })).toHaveCount(0);

    await page.getByLabel('Email').fill(VIEWER.email);
    await page.getByLabel('Name').fill(VIEWER.name);
    await page.getByLabel('Password').fill(VIEWER.password);
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByText(`Added ${VIEWER.email} as a viewer.`)).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: VIEWER.email });
    await expect(row.getByRole('cell').nth(1)).toHaveText(VIEWER.name);
    await expect(page.getByLabel(`Role of ${VIEWER.email}`)).toHaveValue('viewer');
    await expect(row.getByRole('cell').nth(3)).toHaveText('Password');
    await page.screenshot({ path: shotPath('settings-users') });

    // The API's refusals are shown: the email is taken now.
    await page.getByLabel('Email').fill(VIEWER.email);
    await page.getByLabel('Password').fill(VIEWER.password);
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect(alertIn(page)).toHaveText('Could not add the user: A user with this email already exists');

    const viewerContext = await signedOutContext(browser);
    try {
      const viewer = await viewerContext.newPage();
      await viewer.goto('/sign-in');
      await signIn(viewer, VIEWER.email, VIEWER.password);
      await expect(viewer).toHaveURL(`${base()}/traces`);
      await expect(viewer.getByTestId('account')).toContainText(`Signed in as ${VIEWER.email} (viewer)`);
      await expect(viewer.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['Traces', 'Sessions', 'Insights', 'Review', 'Datasets']);
      await viewer.goto(`/traces/${encodeURIComponent(TRACE_ID)}`);
      await expect(viewer.getByRole('heading', { name: TRACE_NAME, level: 1 })).toBeVisible();

      for (const settings of ['/settings/users', '/settings/api-keys']) {
        await viewer.goto(settings);
        await expect(viewer.getByRole('heading', { name: 'Admins only', level: 1 })).toBeVisible();
        await expect(viewer.getByText('403', { exact: true })).toBeVisible();
        await expect(viewer.getByRole('table')).toHaveCount(0);
        await expect(viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
      }
      await viewer.screenshot({ path: shotPath('viewer-403') });
      const api = await viewerContext.request.get('/api/users');
      expect(api.status()).toBe(403);
      expect(await api.json()).toEqual({ error: 'This needs the admin role' });

      // Promoted, the same session opens the settings at once.
      const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/api/users/'));
      await page.getByLabel(`Role of ${VIEWER.email}`).selectOption('admin');
      expect((await saved).status()).toBe(200);
      await page.reload();
      await expect(page.getByLabel(`Role of ${VIEWER.email}`)).toHaveValue('admin');
      await viewer.goto('/settings/users');
      await expect(viewer.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();

      // Removed (after a confirmation), they are signed out everywhere.
      await hydrated(page);
      await page.getByRole('button', { name: `Remove ${VIEWER.email}` }).click();
      const dialog = page.getByRole('dialog', { name: `Remove ${VIEWER.email}?` });
      await expect(dialog).toContainText('signed out at once');
      await dialog.getByRole('button', { name: 'Remove user' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('row').filter({ hasText: VIEWER.email })).toHaveCount(0);
      await viewer.goto('/traces');
      await expect(viewer).toHaveURL(`${base()}/sign-in`);
    } finally {
      await viewerContext.close();
    }
  });
});

test('the header shows who is signed in, and the tabs read their counts apart', async ({ page }) => {
  await open(page, `/traces/${encodeURIComponent(TRACE_ID)}`);
  await expect(page.getByTestId('account')).toContainText(`Signed in as ${E2E_ADMIN.email} (admin)`);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['Traces', 'Sessions', 'Insights', 'Review', 'Datasets', 'Users', 'API keys', 'Scores', 'Evaluators']);
  // Not "Events3": each count has its own place in the name.
  await expect(page.getByRole('tab', { name: 'Decisions (3)', exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Events (3)', exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Timeline', exact: true })).toBeVisible();
  await page.screenshot({ path: shotPath('trace-signed-in') });
});

for (const scheme of ['light', 'dark'] as const) {
  test(`sign-in and settings pages meet WCAG AA contrast (${scheme})`, async ({ page, browser }) => {
    const signedOut = await signedOutContext(browser);
    try {
      const signInPage = await signedOut.newPage();
      await signInPage.emulateMedia({ colorScheme: scheme });
      await signInPage.goto('/sign-in?error=not_allowed');
      await hydrated(signInPage);
      expect(await contrastProblems(signInPage), '/sign-in').toEqual([]);
    } finally {
      await signedOut.close();
    }
    await page.emulateMedia({ colorScheme: scheme });
    for (const url of ['/settings/users', '/settings/api-keys']) {
      await open(page, url);
      expect(await contrastProblems(page), url).toEqual([]);
    }
  });
}

test('the open-mode server shows its banner and needs no sign-in', async ({ browser }) => {
  const context = await signedOutContext(browser, OPEN_BASE);
  try {
    const page = await context.newPage();
    await page.goto('/traces');
    await expect(page).toHaveURL(`${OPEN_BASE}/traces`);
    await expect(page.getByTestId('open-mode-banner')).toContainText(
      'Open mode: anyone who can reach this server can read and write traces',
    );
    await expect(page.getByRole('heading', { name: 'Traces', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

    await page.goto('/settings/api-keys');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Open mode: nobody signs in yet');
    await page.goto('/sign-in');
    await expect(page.getByRole('heading', { name: 'No sign-in needed' })).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveCount(0);

    const api = await context.request.get('/api/traces');
    expect(api.status()).toBe(200);
  } finally {
    await context.close();
  }
});

test("in open mode the laptop's user is the admin: Settings show, score configs are set up without signing in, users and keys say how protection starts", async ({ browser }) => {
  const context = await signedOutContext(browser, OPEN_BASE);
  try {
    const page = await context.newPage();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/traces');
        const nav = page.getByRole('navigation', { name: 'Main' });
        await expect(nav.getByRole('link', { name: 'Scores' })).toBeVisible();
        await nav.getByRole('link', { name: 'Users' }).click();
        await expect(page).toHaveURL(`${OPEN_BASE}/settings/users`);
        const explained = page.getByTestId('open-mode-settings');
        await expect(explained.getByRole('heading', { level: 1 })).toHaveText('Open mode: nobody signs in yet');
        await expect(explained).toContainText('ADMIN_EMAIL');
        await expect(page.getByText('403', { exact: true })).toHaveCount(0);
        await page.screenshot({ path: shotPath(`open-settings-users-${width}-${scheme}`) });
        await explained.getByRole('link', { name: 'score configs' }).click();
        await expect(page).toHaveURL(`${OPEN_BASE}/settings/scores`);
        await expect(page.getByRole('form', { name: 'New score config' })).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.screenshot({ path: shotPath(`open-settings-scores-${width}-${scheme}`), fullPage: true });
      }
    }
    const name = `laptop-${runId()}`.slice(0, 60);
    const form = page.getByRole('form', { name: 'New score config' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Data type').selectOption('BOOLEAN');
    await form.getByRole('button', { name: 'Create config' }).click();
    await expect(page.getByTestId('score-config').filter({ hasText: name })).toContainText('BOOLEAN');
    await page.reload();
    await expect(page.getByTestId('score-config').filter({ hasText: name })).toBeVisible();
    // ...and the server is still open: configuring made nobody an admin.
    const health = await (await context.request.get('/api/health')).json();
    expect(health.mode).toBe('open');
  } finally {
    await context.close();
  }
});

test('a key from API_KEYS still reads (and writes: every beforeAll ingests with it)', async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: base(), storageState: SIGNED_OUT });
  try {
    const res = await request.get(`/api/traces/${encodeURIComponent(TRACE_ID)}`, { headers: { authorization: `Bearer ${E2E_API_KEY}` } });
    expect(res.status()).toBe(200);
  } finally {
    await request.dispose();
  }
});
