// Trace and session ids are the client's and may hold any character: the pages serve the
// ids that need percent-encoding (space, +, /, accents) as the API does, links to them are
// built encoded, and a path that is not valid percent-encoding is a clean 400 or 404.
import { agentTrace, runId } from './fixtures';
import { expect, hydrated, open, postTraces, test } from './viewer-helpers';

const R = runId();
const CASES = [
  { what: 'a space', id: `enc ${R} space`, session: `sess ${R} space` },
  { what: 'a plus', id: `enc+${R}+plus`, session: `sess+${R}+plus` },
  { what: 'slashes', id: `enc/${R}/slash`, session: `sess/${R}/slash` },
  { what: 'accents', id: `énc-${R}-ü東`, session: `séss-${R}-ü東` },
];
const nameOf = (id: string) => `run ${id}`;

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL, storageState: { cookies: [], origins: [] } });
  await postTraces(
    request,
    CASES.map((c) => agentTrace(c.id, nameOf(c.id), c.session)),
  );
  await request.dispose();
});

for (const c of CASES) {
  test(`an id with ${c.what}: the trace page, its session link, the session page`, async ({ page }) => {
    await open(page, `/traces/${encodeURIComponent(c.id)}`);
    await expect(page.getByRole('heading', { level: 1, name: nameOf(c.id) })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${nameOf(c.id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

    // The header's link to the session, followed as a reader does (a client-side navigation).
    await page.getByTitle('Show this session as a conversation').click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${encodeURIComponent(c.session).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(c.session);

    // Straight to the session page, as a shared link.
    await page.goto(`/sessions/${encodeURIComponent(c.session)}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(c.session);
  });
}

test('from the list, the row of a trace whose id holds a slash opens its page', async ({ page }) => {
  const { id, session } = CASES[2];
  await open(page, `/traces?sessionId=${encodeURIComponent(session)}`);
  await page.locator('tbody a[data-row-link]').filter({ hasText: nameOf(id) }).click();
  await expect(page).toHaveURL(new RegExp(`/traces/${encodeURIComponent(id)}$`));
  await expect(page.getByRole('heading', { level: 1, name: nameOf(id) })).toBeVisible();
  await hydrated(page);
});

test('a path that is not valid percent-encoding, or names no trace, is a 400 or 404, never a 500', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/\[response 40[04]\]/);
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 40[04]/);
  for (const path of ['/traces/%ff', '/sessions/%ff', '/traces/a%E0%A4%A', '/api/traces/%ff', '/api/sessions/%ff']) {
    const res = await page.goto(path);
    expect([400, 404], path).toContain(res!.status());
  }
  for (const path of ['/traces/%25ff', '/sessions/%25ff']) {
    expect((await page.goto(path))!.status(), path).toBe(404);
  }
});
