// Where /sign-in?next= sends a browser, in Chromium against the production build: only
// paths of this site, judged after the URL is parsed as the browser parses it (a tab or a
// newline inside "/\t/evil.example/" is dropped, leaving "//evil.example/"), whether the
// browser is already signed in (a server redirect) or signs in on the page (a script's
// navigation); and a `next` holding CR/LF is a page, not a 500.
import { E2E_ADMIN } from '../playwright.config';
import { expect, hydrated, test } from './viewer-helpers';

const SIGNED_OUT = { cookies: [], origins: [] };

// Each is //evil.example/ (or another host) once the browser has parsed it.
const OFF_SITE = [
  '/%09/evil.example/',
  '/%0a/evil.example/',
  '/%0d/evil.example/',
  '/%5Cevil.example/',
  '/.%2F%2Fevil.example/',
  '%5C%5Cevil.example/',
  '/%09%5Cevil.example/',
];

function base(): string {
  return test.info().project.use.baseURL as string;
}

test.describe('signed in', () => {
  for (const next of OFF_SITE) {
    test(`/sign-in?next=${next} stays on this site`, async ({ page }) => {
      const res = await page.goto(`/sign-in?next=${next}`);
      expect(res?.status()).toBe(200);
      expect(new URL(page.url()).origin).toBe(new URL(base()).origin);
      await expect(page).toHaveURL(`${base()}/traces`);
    });
  }

  test('a next with CR/LF is a redirect here, not a 500', async ({ page }) => {
    for (const next of ['/traces%0d%0aSet-Cookie:%20x=1', '/%0d%0a/evil.example/', '/traces%0d%0a']) {
      // The page's request context carries its session cookie.
      const res = await page.request.get(`/sign-in?next=${next}`, { maxRedirects: 0 });
      expect(res.status(), next).toBe(307);
      const location = new URL(res.headers().location, base());
      expect(location.origin, next).toBe(new URL(base()).origin);
      expect(res.headers()['set-cookie'] ?? '', next).not.toContain('x=1');
    }
  });

  test('a next on this site is kept', async ({ page }) => {
    await page.goto(`/sign-in?next=${encodeURIComponent('/traces?status=ERROR')}`);
    await expect(page).toHaveURL(`${base()}/traces?status=ERROR`);
  });
});

test.describe('signed out', () => {
  test.use({ storageState: SIGNED_OUT });

  for (const next of ['/%09/evil.example/', '/.%2F%2Fevil.example/']) {
    test(`signing in with ?next=${next} lands on /traces`, async ({ page }) => {
      await page.goto(`/sign-in?next=${next}`);
      await hydrated(page);
      await page.getByLabel('Email').fill(E2E_ADMIN.email);
      await page.getByLabel('Password').fill(E2E_ADMIN.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page).toHaveURL(`${base()}/traces`);
    });
  }

  test('a next with CR/LF shows the sign-in page', async ({ request }) => {
    const res = await request.get('/sign-in?next=/traces%0d%0aSet-Cookie:%20x=1', { maxRedirects: 0 });
    expect(res.status()).toBe(200);
    expect(res.headers()['set-cookie'] ?? '').not.toContain('x=1');
  });
});
