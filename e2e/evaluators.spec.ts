// Evaluators as a team uses them: one made on its settings page after trying it on a
// trace, then scoring live traces as they end with nobody clicking (the server's own
// background work); and "Run evaluators" on a dataset page scoring an experiment's runs,
// their average showing as a column. The LLM judge is covered against a loopback server in
// app/api/evaluators/route.test.ts.
import { E2E_API_KEY } from '../playwright.config';
import { runId, type TraceInput } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const AGENT = `eval-agent-${R}`;
const DATASET = `eval-ds-${R}`;
const AUTH = { authorization: `Bearer ${E2E_API_KEY}` };

function run(id: string, answer: string, experiment?: { id: string; itemId: string }): TraceInput {
  const t0 = Date.now() - 60_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  return {
    id,
    name: AGENT,
    status: 'COMPLETED',
    tags: ['e2e'],
    startedAt: at(0),
    endedAt: at(1500),
    spans: [{ id: 'root', name: 'agent', type: 'AGENT', status: 'COMPLETED', input: { question: 'Where is my refund?' }, output: { answer }, startedAt: at(0), endedAt: at(1500) }],
    decisionPoints: [],
    events: [],
    ...(experiment && { experiment }),
  } as TraceInput;
}

const evalScores = async (request: import('@playwright/test').APIRequestContext, traceId: string) => {
  const res = await request.get(`/api/scores?traceId=${encodeURIComponent(traceId)}&source=EVAL`, { headers: AUTH });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { scores: Array<{ name: string; value: unknown; author: { kind: string; name: string } }> }).scores;
};

test('an evaluator tried on a trace, saved, then scoring live traces as they end (1440 and 390 px, light and dark)', async ({ page, request }) => {
  await postTraces(request, [run(`ev-first-${R}`, 'Your refund is on its way')]);
  await open(page, '/settings/evaluators');
  const form = page.getByRole('form', { name: 'New evaluator' });
  await form.getByLabel('Name', { exact: true }).fill(`mentions refund ${R}`);
  await form.getByLabel('Score name').fill(`mentions_refund_${R}`);
  await form.getByLabel('Config (JSON)').fill('{"value": "REFUND", "ignoreCase": true}');
  await form.getByLabel("Which traces (the list's query; empty: all)").fill(`name=${AGENT}`);
  await form.getByLabel('Try on a trace (its id)').fill(`ev-first-${R}`);
  await form.getByRole('button', { name: 'Try', exact: true }).click();
  await expect(form.getByTestId('try-result')).toContainText('BOOLEAN true');
  await expect(form.getByTestId('try-result')).toContainText('Contains "REFUND".');
  // Trying stores nothing.
  expect(await evalScores(request, `ev-first-${R}`)).toEqual([]);
  await form.getByRole('button', { name: 'Create evaluator' }).click();
  const row = page.getByTestId('evaluator').filter({ hasText: `mentions refund ${R}` });
  await expect(row).toContainText(`contains writes mentions_refund_${R} on live traces matching name=${AGENT}`);

  // Traces that end from now on are scored by the server's background work.
  await postTraces(request, [run(`ev-live-yes-${R}`, 'Refund sent'), run(`ev-live-no-${R}`, 'We cannot help')]);
  await expect.poll(async () => (await evalScores(request, `ev-live-yes-${R}`)).map((s) => [s.name, s.value, s.author.kind]), { timeout: 30_000 }).toEqual([[`mentions_refund_${R}`, true, 'evaluator']]);
  await expect.poll(async () => (await evalScores(request, `ev-live-no-${R}`)).map((s) => s.value), { timeout: 30_000 }).toEqual([false]);
  await page.reload();
  await expect(row.getByTestId('evaluator-jobs')).toContainText('2 scored');

  // A saved evaluator tried from its row.
  await row.getByRole('button', { name: 'Try on a trace' }).click();
  await row.getByLabel('Try on a trace (its id)').fill(`ev-first-${R}`);
  await row.getByRole('button', { name: 'Try', exact: true }).click();
  await expect(row.getByTestId('try-result')).toContainText('BOOLEAN true');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await open(page, '/settings/evaluators');
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: shotPath(`evaluators-${width}-${scheme}`), fullPage: true });
      expect(await contrastProblems(page)).toEqual([]);
    }
  }

  // Off: new traces are not queued for it.
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, '/settings/evaluators');
  // The box follows the stored state: it turns once the server has it.
  await row.getByLabel(`mentions refund ${R} enabled`).click();
  await expect(row).toContainText('(off)');
  await expect(row.getByLabel(`mentions refund ${R} enabled`)).not.toBeChecked();
});

test('"Run evaluators" scores an experiment\'s runs, their average shown beside the other figures', async ({ page, request }) => {
  expect((await request.post('/api/datasets', { headers: AUTH, data: { name: DATASET } })).status()).toBe(201);
  const items = [
    { id: 'refund', input: { question: 'Where is my refund?' }, expectedOutput: { answer: 'On its way' } },
    { id: 'invoice', input: { question: 'Send my invoice' }, expectedOutput: { answer: 'Sent' } },
  ];
  expect((await request.post(`/api/datasets/${DATASET}/items`, { headers: AUTH, data: { items } })).status()).toBe(200);
  const created = await request.post('/api/experiments', { headers: AUTH, data: { dataset: DATASET, name: 'v1' } });
  const experiment = (await created.json()).experiment.id as string;
  await postTraces(request, [run(`ev-x-refund-${R}`, 'On its way', { id: experiment, itemId: 'refund' }), run(`ev-x-invoice-${R}`, 'Not sent', { id: experiment, itemId: 'invoice' })]);
  // Made after the runs: they are scored when someone asks.
  // Evaluators are set up by an admin: the signed-in page's session makes it.
  await open(page, '/settings/evaluators');
  const made = await page.evaluate(
    async ([name, scoreName, dataset]) =>
      (await fetch('/api/evaluators', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, kind: 'exact_match', config: {}, scoreName, target: { on: 'experiments', dataset } }) })).status,
    [`exact ${R}`, `exact_${R}`, DATASET],
  );
  expect(made).toBe(201);

  await open(page, `/datasets/${DATASET}`);
  await page.getByRole('button', { name: 'Run evaluators on v1' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'queued' })).toHaveText('2 evaluations queued (1 evaluator).');
  const table = page.getByTestId('experiments-table');
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await table.locator('tr[data-experiment="v1"]').textContent()) ?? '';
      },
      { timeout: 30_000 },
    )
    .toContain('0.5');
  await expect(table.locator('thead')).toContainText(`exact_${R}`);
});
