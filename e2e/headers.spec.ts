// Security headers on the production build: every page and API answer says nosniff, may
// not be framed, and carries the content security policy (next.config.ts); and under that
// policy every page still renders and hydrates, with no violation reported.
import type { Page } from '@playwright/test';
import { E2E_API_KEY } from '../playwright.config';
import { appPages } from './app-pages';
import { agentTrace, runId } from './fixtures';
import { expect, hydrated, postTraces, test } from './viewer-helpers';

const R = runId();
const TRACE_ID = `headers-${R}`;
const SIGNED_OUT = { cookies: [], origins: [] };

function base(): string {
  return test.info().project.use.baseURL as string;
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: base(), storageState: SIGNED_OUT });
  await postTraces(request, [agentTrace(TRACE_ID, `headers-agent-${R}`, `headers-session-${R}`)]);
  await request.dispose();
});

/** React has hydrated the page's main element (every page has one; not every page sets data-hydrated). */
async function reactHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.getElementById('main');
    return main !== null && Object.keys(main).some((k) => k.startsWith('__reactFiber'));
  });
}

function expectSecurityHeaders(headers: Record<string, string>, what: string): void {
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['content-security-policy'], what).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy'], what).toContain("default-src 'self'");
}

test('pages, API answers, errors and static files carry the headers', async ({ page, request, consoleGuard }) => {
  consoleGuard.allow(/no-such-page|status of 404/);
  const auth = { authorization: `Bearer ${E2E_API_KEY}` };
  for (const [url, headers] of [
    ['/api/health', {}],
    ['/api/traces?limit=1', auth],
    [`/api/traces/${TRACE_ID}`, auth],
    ['/api/traces', {}], // 401
    ['/api/soap?wsdl', {}],
  ] as const) {
    expectSecurityHeaders((await request.get(url, { headers })).headers(), url);
  }
  const ingest = await request.post('/api/traces', { headers: auth, data: { traces: [] } });
  expectSecurityHeaders(ingest.headers(), 'POST /api/traces');

  const document = await page.goto('/traces');
  expectSecurityHeaders(document!.headers(), '/traces');
  const missing = await page.goto('/no-such-page');
  expect(missing!.status()).toBe(404);
  expectSecurityHeaders(missing!.headers(), '404 page');
  const script = await page.locator('script[src]').first().getAttribute('src');
  expectSecurityHeaders((await request.get(script!)).headers(), script!);
});

test('every page renders and hydrates under the policy, with no violation', async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  // The dynamic segments take this run's trace, so the trace and session pages show data.
  const pages = appPages(TRACE_ID).map((p) => p.replace(`/sessions/${TRACE_ID}`, `/sessions/headers-session-${R}`));
  for (const url of pages.filter((p) => p !== '/' && p !== '/sign-in')) {
    await page.goto(url);
    await reactHydrated(page);
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), url).toEqual([]);
  }
  // A client-side navigation loads the next page's code under the same policy.
  await page.goto('/traces');
  await hydrated(page);
  await page.locator('tbody a[data-row-link]').filter({ hasText: `headers-agent-${R}` }).click();
  await expect(page).toHaveURL(new RegExp(`/traces/${TRACE_ID}`));
  await expect(page.getByRole('heading', { level: 1, name: `headers-agent-${R}` })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
});

test.describe('signed out', () => {
  test.use({ storageState: SIGNED_OUT });

  test('the sign-in page hydrates under the policy and signs in', async ({ page }) => {
    await page.goto('/sign-in');
    await hydrated(page);
    await reactHydrated(page);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  });
});

test('no page can frame the app, not even one of its own origin', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/frame-ancestors|X-Frame-Options|Refused to (display|frame)/);
  // The framing page is served at the app's own origin (fulfilled by the browser): frame-ancestors
  // 'none' refuses even that, and Chromium's local-network rules cannot be what stops the frame.
  const framer = `${base()}/framing-test-${R}`;
  await page.route(framer, (route) =>
    route.fulfill({ contentType: 'text/html', body: `<!doctype html><iframe id="f" src="${base()}/traces/${TRACE_ID}" width="800" height="600"></iframe>` }),
  );
  const framed = page.waitForResponse((res) => res.url() === `${base()}/traces/${TRACE_ID}`);
  await page.goto(framer);
  expect((await framed).status()).toBe(200);
  const frame = page.frameLocator('#f');
  await expect(frame.locator('html[data-hydrated]')).toHaveCount(0);
  await expect(frame.getByText(`headers-agent-${R}`)).toHaveCount(0);
});
