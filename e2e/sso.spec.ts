// Single sign-on through a real OpenID Connect provider (oidc-provider, e2e/oidc-provider.ts)
// started here on loopback, against the protected e2e server configured for it in
// playwright.config.ts. Every browser starts signed out: no stored session.
import { expect, request, test, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_API_KEY, OIDC_ALLOWED_DOMAIN, OIDC_CLIENT, OIDC_PORT } from '../playwright.config';
import { runId, simpleTrace } from './fixtures';
import { startOidcProvider, type IdpPerson, type RunningIdp } from './oidc-provider';

const R = runId();
const ALLOWED: IdpPerson = {
  sub: `ada-${R}`,
  email: `ada.${R}@${OIDC_ALLOWED_DOMAIN}`,
  emailVerified: true,
  name: 'Ada Lovelace',
  password: 'ada-at-the-idp',
};
const OUTSIDER: IdpPerson = {
  sub: `mallory-${R}`,
  email: `mallory.${R}@elsewhere.test`,
  emailVerified: true,
  name: 'Mallory',
  password: 'mallory-at-the-idp',
};
const TRACE_ID = `sso-${R}`;
const TRACE_NAME = `sso-deep-link-${R}`;
// A deep link with a query: both must survive the round trip through the provider.
const DEEP_LINK = `/traces/${TRACE_ID}?tab=events`;
const SESSION_COOKIE = 'crossroads.session_token';

test.use({ storageState: { cookies: [], origins: [] } });
test.describe.configure({ mode: 'serial' });

let idp: RunningIdp;

test.beforeAll(async () => {
  const baseURL = test.info().project.use.baseURL as string;
  idp = await startOidcProvider({
    port: OIDC_PORT,
    clientId: OIDC_CLIENT.id,
    clientSecret: OIDC_CLIENT.secret,
    redirectUris: [`${baseURL}/api/auth/callback/oidc`],
    people: [ALLOWED, OUTSIDER],
  });

  const client = await request.newContext({ baseURL });
  const ingest = await client.post('/api/traces', {
    headers: { authorization: `Bearer ${E2E_API_KEY}` },
    data: { traces: [simpleTrace({ id: TRACE_ID, name: TRACE_NAME })] },
  });
  expect(ingest.status(), await ingest.text()).toBe(200);
  // The server read the provider's discovery document at start, before this provider
  // was up, and reads it again on a later request (lib/features/access/auth.ts): wait for that.
  await expect
    .poll(
      async () => {
        const res = await client.post('/api/auth/sign-in/social', {
          headers: { origin: baseURL },
          data: { provider: 'oidc', callbackURL: '/traces', disableRedirect: true },
        });
        return res.status();
      },
      { timeout: 30_000, intervals: [250, 500, 1000] },
    )
    .toBe(200);
  await client.dispose();
});

test.afterAll(async () => {
  await idp?.close();
});

/** From Crossroads' sign-in page through the provider's login form. */
async function signInThroughProvider(page: Page, person: IdpPerson): Promise<void> {
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.getByLabel('Email address').fill(person.email);
  await page.getByLabel('Secret').fill(person.password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function sessionCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
}

async function sessionOf(page: Page): Promise<unknown> {
  const res = await page.request.get('/api/auth/get-session');
  expect(res.status()).toBe(200);
  return res.json();
}

test('a deep link survives single sign-on; the new person is a viewer, kept out of the settings, and can sign out', async ({ page }) => {
  const account = page.getByTestId('account');

  await test.step('a signed-out visit to a deep link lands on /sign-in', async () => {
    await page.goto(DEEP_LINK);
    await expect(page).toHaveURL(`/sign-in?next=${encodeURIComponent(DEEP_LINK)}`);
  });

  await test.step('signing in at the provider comes back, signed in, to the deep link', async () => {
    await signInThroughProvider(page, ALLOWED);
    await expect(page).toHaveURL(DEEP_LINK);
    await expect(page.getByRole('heading', { level: 1, name: TRACE_NAME })).toBeVisible();
    await expect(account).toContainText(`Signed in as ${ALLOWED.email}`);
    await expect(account).toContainText('(viewer)');
    const cookie = await sessionCookie(page);
    expect(cookie, 'a session cookie').toBeDefined();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(await sessionOf(page)).toMatchObject({ user: { email: ALLOWED.email, name: ALLOWED.name, role: 'viewer' } });
  });

  await test.step('the settings are refused: no links to them, "Admins only" on the pages, 403 from their APIs', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Traces' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'API keys' })).toHaveCount(0);
    for (const path of ['/settings/users', '/settings/api-keys']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Admins only' })).toBeVisible();
      await expect(page.getByRole('table')).toHaveCount(0);
    }
    for (const path of ['/api/users', '/api/api-keys']) {
      const res = await page.request.get(path);
      expect(res.status(), path).toBe(403);
      expect(await res.json()).toEqual({ error: 'This needs the admin role' });
    }
  });

  await test.step('signing out ends the session; the deep link asks to sign in again', async () => {
    await page.goto('/traces');
    await account.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    expect(await sessionCookie(page)).toBeUndefined();
    expect(await sessionOf(page)).toBeNull();
    await page.goto(DEEP_LINK);
    await expect(page).toHaveURL(`/sign-in?next=${encodeURIComponent(DEEP_LINK)}`);
  });

  await test.step('signing in again reuses the provider session and the same account', async () => {
    // Crossroads' sign-out does not end the session at the provider, so no login form now.
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await expect(page).toHaveURL(DEEP_LINK);
    await expect(account).toContainText(`Signed in as ${ALLOWED.email}`);
  });
});

test('someone outside the allowed domains is refused with a readable message and gets no session', async ({ page }) => {
  await page.goto('/traces');
  await expect(page).toHaveURL(/\/sign-in$/);
  await signInThroughProvider(page, OUTSIDER);
  await expect(page).toHaveURL(/\/sign-in\?error=not_allowed(&|$)/);
  // (Next's route announcer is an empty alert too.)
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveText(
    'Your single sign-on account is not allowed to join this Crossroads. Ask an admin to add your email, or sign in with another account.',
  );
  expect(await sessionCookie(page)).toBeUndefined();
  expect(await sessionOf(page)).toBeNull();
  await page.goto(DEEP_LINK);
  await expect(page).toHaveURL(`/sign-in?next=${encodeURIComponent(DEEP_LINK)}`);
});

test('cancelling at the provider comes back to the sign-in page with a readable message, the deep link kept', async ({ page }) => {
  await page.goto(DEEP_LINK);
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=.*&error=access_denied/);
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveText('Single sign-on was cancelled or refused at the provider.');
  expect(await sessionCookie(page)).toBeUndefined();
  await expect(page.getByRole('button', { name: 'Sign in with SSO' })).toBeEnabled();
});

test('the admin finds the SSO person among the users: a viewer who signs in with SSO, once; the outsider is not there', async () => {
  const admin = await request.newContext({ baseURL: test.info().project.use.baseURL });
  const signIn = await admin.post('/api/auth/sign-in/email', { data: E2E_ADMIN });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const res = await admin.get('/api/users');
  expect(res.status()).toBe(200);
  const { users } = (await res.json()) as { users: Array<{ email: string; name: string; role: string; signIn: string[] }> };
  expect(users.filter((u) => u.email === ALLOWED.email)).toEqual([
    expect.objectContaining({ email: ALLOWED.email, name: ALLOWED.name, role: 'viewer', signIn: ['sso'] }),
  ]);
  expect(users.some((u) => u.email === OUTSIDER.email)).toBe(false);
  await admin.dispose();
});
