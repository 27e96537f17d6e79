// Runs recorded from the frameworks' own SDKs (scripts/record-otlp-fixtures.ts: OpenLLMetry,
// Mastra, Langfuse) sent to the production server and read as a user would: the trace's
// session and user, each model call's model and cost on its row, and its model and cost in
// its details: estimated from the catalog (≈) when the SDK sent tokens only, as sent when
// it sent a cost (Langfuse's cost_details). Langfuse's run goes through Langfuse's own path
// with Basic public:secret, as its SDK sends it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { E2E_API_KEY } from '../playwright.config';
import { expect, open, test } from './viewer-helpers';

const RUNS = [
  { fixture: 'traceloop', id: '2579cfdecc3040e06aba5d07a131860f', name: 'trip_planner', session: 'session-tl-1', user: 'user-tl-1', path: '/api/otel/v1/traces', model: 'gpt-4o-mini', estimated: true },
  { fixture: 'mastra', id: '0757c0fb0c0f3e2d7bd32de62313de3d', name: 'Weather Agent', session: 'session-ma-1', user: 'user-ma-1', path: '/api/otel/v1/traces', model: 'gpt-4o-mini', estimated: true },
  { fixture: 'langfuse', id: '2be775127dac16eaea848579ec0d82f6', name: 'refund-request', session: 'session-lf-1', user: 'user-lf-1', path: '/api/public/otel/v1/traces', model: 'gpt-4o', estimated: false },
] as const;

const basic = `Basic ${Buffer.from(`pk-lf-anything:${E2E_API_KEY}`).toString('base64')}`;

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL, storageState: { cookies: [], origins: [] } });
  for (const run of RUNS) {
    const body = readFileSync(path.join(import.meta.dirname, '..', 'test', 'fixtures', 'otlp', `${run.fixture}.json`), 'utf8');
    const authorization = run.path.startsWith('/api/public/') ? basic : `Bearer ${E2E_API_KEY}`;
    const res = await request.post(run.path, { headers: { 'content-type': 'application/json', authorization }, data: body });
    expect(res.status(), await res.text()).toBe(200);
  }
  await request.dispose();
});

for (const run of RUNS) {
  test(`${run.fixture}: the run opens with its session, user, and its model calls' model and cost`, async ({ page }) => {
    await open(page, `/traces/${run.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(run.name);
    await expect(page.getByRole('link', { name: run.session })).toBeVisible();
    await expect(page.getByRole('link', { name: run.user })).toBeVisible();
    const row = page.getByTestId('row-model').first();
    await expect(row).toContainText(run.model);
    await expect(row).toContainText(run.estimated ? /≈\$0\.0\d+/ : /· \$0\.0\d+/);
    await row.click();
    const panel = page.getByTestId('details-panel');
    await expect(panel.getByTestId('span-model')).toHaveText(run.model);
    if (run.estimated) await expect(panel.getByTestId('span-cost')).toContainText(`estimated (${run.model})`);
    else await expect(panel.getByTestId('span-cost')).not.toContainText('estimated');
  });
}
