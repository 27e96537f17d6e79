// A page on a sibling origin (same host, another port: the same site, so the browser sends
// the admin's SameSite=Lax cookie along) tries to change things with the admin's session
// through `no-cors` fetches and a form, as an attacker's page would. Nothing changes; the
// app's own pages still can.
import { runId } from './fixtures';
import { expect, open, test } from './viewer-helpers';

const R = runId();

function base(): string {
  return test.info().project.use.baseURL as string;
}

/** The same host as the app on a port nothing listens on; its page is served by the test. */
function sibling(): string {
  const url = new URL(base());
  url.port = String(Number(url.port) + 50);
  return url.origin;
}

const ATTACK = (app: string, marker: string) => `<!doctype html>
<html><body>
<form id="f" method="POST" action="${app}/api/users" enctype="text/plain">
  <input name='{"email":"form-${marker}@evil.test","name":"x","password":"form-password-1","role":"admin","pad":"' value='"}'>
</form>
<script>
  const opts = (body) => ({ method: 'POST', mode: 'no-cors', credentials: 'include', body });
  Promise.allSettled([
    fetch('${app}/api/api-keys', opts(JSON.stringify({ name: 'key-${marker}', scopes: ['read', 'ingest'] }))),
    fetch('${app}/api/users', opts(JSON.stringify({ email: 'fetch-${marker}@evil.test', name: 'x', password: 'fetch-password-1', role: 'admin' }))),
  ]).then(() => document.getElementById('f').submit());
</script>
</body></html>`;

test("a sibling origin's page cannot make a key or an admin with the admin's cookie", async ({ page, consoleGuard }) => {
  // Each refusal is a 403 the browser reports.
  consoleGuard.allow(/\[response 403\] .*\/api\/(api-keys|users)$/);
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 403/);
  // Chromium may also refuse the fetches itself (Local Network Access, same host, other port): the form still reaches the server.
  consoleGuard.allow(/has been blocked by CORS policy|net::ERR_FAILED/);
  await page.route(`${sibling()}/**`, (route) => route.fulfill({ contentType: 'text/html', body: ATTACK(base(), R) }));
  await page.goto(`${sibling()}/attack`);
  // The form is sent once both fetches are answered; the browser then shows its answer.
  await expect(page).toHaveURL(`${base()}/api/users`);
  await expect(page.locator('body')).toContainText('Cross-origin request refused');

  const keys = (await (await page.request.get('/api/api-keys')).json()) as { apiKeys: { name: string }[] };
  expect(keys.apiKeys.map((k) => k.name)).not.toContain(`key-${R}`);
  const users = (await (await page.request.get('/api/users')).json()) as { users: { email: string }[] };
  expect(users.users.map((u) => u.email).filter((e) => e.includes(R))).toEqual([]);
});

test("the app's own pages still make changes: a key made in the settings works", async ({ page }) => {
  await open(page, '/settings/api-keys');
  await page.getByLabel('Name').fill(`own-page-${R}`);
  await page.getByLabel('read', { exact: true }).setChecked(true);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const key = (await page.getByTestId('api-key-value').textContent())!.trim();
  const res = await page.request.get('/api/traces?limit=1', { headers: { authorization: `Bearer ${key}`, cookie: '' } });
  expect(res.status()).toBe(200);
});
