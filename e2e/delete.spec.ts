// Deleting from the viewer (issue 13), as an admin would: a trace from its detail page
// (Cancel keeps it, confirming removes it from the list and the API), a session's traces
// from the list filtered to that session and from a trace of the session; a viewer never
// sees the buttons; a key made with the delete scope in the UI deletes over the API.
import type { Browser } from '@playwright/test';
import { E2E_API_KEY } from '../playwright.config';
import { agentTrace, runId, simpleTrace } from './fixtures';
import { expect, hydrated, open, postTraces, test } from './viewer-helpers';

const R = runId();
const SIGNED_OUT = { cookies: [], origins: [] };
const apiKey = { authorization: `Bearer ${E2E_API_KEY}` };

function base(): string {
  return test.info().project.use.baseURL as string;
}

test('delete a trace from its detail page: Cancel keeps it, confirming removes it everywhere', async ({ page, request }) => {
  const [id, name] = [`del-one-${R}`, `delete-me-${R}`];
  const keptId = `del-kept-${R}`;
  await postTraces(request, [agentTrace(id, name), simpleTrace({ id: keptId, name: `kept-${R}` })]);

  await open(page, `/traces/${encodeURIComponent(id)}`);
  await page.getByRole('button', { name: 'Delete trace' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText(`Delete trace “${name}”?`);
  await expect(dialog).toContainText(`Trace ${id} is deleted for good, with its`);
  await expect(dialog).toContainText('This cannot be undone.');
  // The safe choice has the focus: Enter would cancel.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  await page.getByRole('button', { name: 'Delete trace' }).click();
  await dialog.getByRole('button', { name: 'Delete trace' }).click();
  await expect(page).toHaveURL(`${base()}/traces`);
  await expect(page.getByRole('link', { name: `kept-${R}` })).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
  expect((await request.get(`/api/traces/${encodeURIComponent(id)}`, { headers: apiKey })).status()).toBe(404);
  expect((await request.get(`/api/traces/${encodeURIComponent(keptId)}`, { headers: apiKey })).status()).toBe(200);
});

test("delete a session's traces from the list filtered to that session", async ({ page, request }) => {
  const session = `gdpr-${R}`;
  await postTraces(request, [
    simpleTrace({ id: `s1-${R}`, name: `session-run-1-${R}`, sessionId: session }),
    simpleTrace({ id: `s2-${R}`, name: `session-run-2-${R}`, sessionId: session }),
    agentTrace(`s3-${R}`, `session-run-3-${R}`, session),
    simpleTrace({ id: `other-${R}`, name: `other-session-${R}`, sessionId: `other-${R}` }),
  ]);

  await open(page, `/traces?sessionId=${encodeURIComponent(session)}`);
  await expect(page.locator('tbody a[data-row-link]')).toHaveCount(3);
  await page.getByRole('button', { name: 'Delete session’s traces' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText(`Delete the traces of session “${session}”?`);
  await expect(dialog).toContainText(`All 3 traces of session ${session}, with their spans, decisions and events, will be deleted for good.`);
  await dialog.getByRole('button', { name: 'Delete 3 traces' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'No traces match these filters' })).toBeVisible();

  const left = (await (await request.get(`/api/traces?sessionId=${encodeURIComponent(session)}`, { headers: apiKey })).json()) as { total: number };
  expect(left.total).toBe(0);
  expect((await request.get(`/api/traces/other-${R}`, { headers: apiKey })).status()).toBe(200);
});

test("delete a session's traces from a trace of that session", async ({ page, request }) => {
  const session = `from-detail-${R}`;
  await postTraces(request, [agentTrace(`d1-${R}`, `detail-run-1-${R}`, session), simpleTrace({ id: `d2-${R}`, name: `detail-run-2-${R}`, sessionId: session })]);
  await open(page, `/traces/d1-${R}`);
  await page.getByRole('button', { name: 'Delete session’s traces' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`All 2 traces of session ${session}`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await request.get(`/api/traces/d2-${R}`, { headers: apiKey })).status()).toBe(200);

  await page.getByRole('button', { name: 'Delete session’s traces' }).click();
  await dialog.getByRole('button', { name: 'Delete 2 traces' }).click();
  await expect(page).toHaveURL(`${base()}/traces`);
  for (const id of [`d1-${R}`, `d2-${R}`]) expect((await request.get(`/api/traces/${id}`, { headers: apiKey })).status()).toBe(404);
});

async function signInAs(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({ baseURL: base(), storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${base()}/traces`);
  return { context, page };
}

test('a viewer sees no delete buttons, and the API refuses them', async ({ page, browser, request }) => {
  const viewer = { email: `del-viewer-${R}@crossroads.test`, name: `Viewer ${R}`, password: `viewer-pass-${R}`, role: 'viewer' };
  // From the app's own origin, as its pages send it: a session's change from elsewhere is refused.
  const made = await page.request.post('/api/users', { headers: { origin: base() }, data: viewer });
  expect(made.status(), await made.text()).toBe(201);
  const session = `viewer-session-${R}`;
  await postTraces(request, [agentTrace(`v1-${R}`, `viewer-run-${R}`, session)]);

  const { context, page: viewerPage } = await signInAs(browser, viewer.email, viewer.password);
  try {
    await open(viewerPage, `/traces/v1-${R}`);
    await expect(viewerPage.getByRole('heading', { level: 1, name: `viewer-run-${R}` })).toBeVisible();
    await expect(viewerPage.getByRole('button', { name: /Delete/ })).toHaveCount(0);
    await open(viewerPage, `/traces?sessionId=${session}`);
    await expect(viewerPage.locator('tbody a[data-row-link]')).toHaveCount(1);
    await expect(viewerPage.getByRole('button', { name: /Delete/ })).toHaveCount(0);
    const refused = await viewerPage.request.delete(`/api/traces/v1-${R}`, { headers: { origin: base() } });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({ error: 'This needs the admin role' });
  } finally {
    await context.close();
  }
});

test('an admin grants the delete scope to a key in the settings, and the key deletes a session over the API', async ({ page, playwright, request }) => {
  const session = `key-session-${R}`;
  await postTraces(request, [simpleTrace({ id: `k1-${R}`, name: `key-run-${R}`, sessionId: session })]);
  await open(page, '/settings/api-keys');
  await page.getByLabel('Name').fill(`eraser-${R}`);
  await page.getByLabel('read', { exact: true }).setChecked(false);
  await page.getByLabel('delete', { exact: true }).setChecked(true);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const key = (await page.getByTestId('api-key-value').textContent())!.trim();
  await expect(page.getByTestId('new-api-key')).toContainText('Scopes: delete.');

  const anonymous = await playwright.request.newContext({ baseURL: base(), storageState: SIGNED_OUT });
  try {
    const res = await anonymous.delete(`/api/traces?sessionId=${encodeURIComponent(session)}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ success: true, count: 1 });
    const missing = await anonymous.delete('/api/traces', { headers: { authorization: `Bearer ${key}` } });
    expect(missing.status()).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toMatch(/^Missing sessionId parameter/);
    const envKey = await anonymous.delete(`/api/traces/k1-${R}`, { headers: apiKey });
    expect(envKey.status()).toBe(403);
  } finally {
    await anonymous.dispose();
  }
});
