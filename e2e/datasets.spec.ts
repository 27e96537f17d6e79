// Datasets and experiments as a team uses them: a dataset made and filled on its page (by
// hand and from a CSV file), two versions of an agent run over another from a script (the
// JSON API with each trace's experiment field), and the compare page showing which items
// got worse and where the runs chose differently, opening the two traces side by side.
import { E2E_API_KEY } from '../playwright.config';
import { runId, type TraceInput } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const DATASET = `support-${R}`;
const AUTH = { authorization: `Bearer ${E2E_API_KEY}` };
const experiments: Record<'v1' | 'v2', string> = { v1: '', v2: '' };

/** Elements reaching past the viewport's right edge (none: the page never scrolls sideways). */
const pastTheEdge = (page: import('@playwright/test').Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !e.closest('.overflow-x-auto'))
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 60)} ${Math.round(e.getBoundingClientRect().right)} ${e.textContent?.slice(0, 20)} in ${e.parentElement?.className.slice(0, 40)}`)
      .slice(0, 5),
  );

function run(id: string, item: string, experiment: string, tool: string, status: 'COMPLETED' | 'ERROR', answer: string): TraceInput & { experiment: unknown } {
  const t0 = Date.now() - 60_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  return {
    id,
    name: `support-agent-${R}`,
    status,
    tags: ['e2e'],
    startedAt: at(0),
    endedAt: at(2000),
    spans: [{ id: 'root', name: 'agent', type: 'AGENT', status, output: { answer }, startedAt: at(0), endedAt: at(2000) }],
    decisionPoints: [{ id: 'pick', type: 'TOOL_SELECTION', chosen: { tool }, alternatives: [{ tool: 'search' }, { tool: 'sql' }], parentSpanId: 'root', timestamp: at(100) }],
    events: [],
    experiment: { id: experiment, itemId: item },
  };
}

test.beforeAll(async ({ request }) => {
  const created = await request.post('/api/datasets', { headers: AUTH, data: { name: DATASET, description: 'Questions from production' } });
  expect(created.status()).toBe(201);
  const items = await request.post(`/api/datasets/${DATASET}/items`, {
    headers: AUTH,
    data: {
      items: [
        { id: 'refund', input: { question: 'Where is my refund?' }, expectedOutput: 'On its way', expectedDecisions: [{ chosen: { tool: 'search' } }] },
        { id: 'invoice', input: { question: 'Send my invoice' }, expectedOutput: 'Sent' },
      ],
    },
  });
  expect(items.status()).toBe(200);
  for (const version of ['v1', 'v2'] as const) {
    const res = await request.post('/api/experiments', { headers: AUTH, data: { dataset: DATASET, name: version, metadata: { prompt: version } } });
    expect(res.status()).toBe(201);
    experiments[version] = (await res.json()).experiment.id;
  }
  await postTraces(request, [
    run(`ds-v1-refund-${R}`, 'refund', experiments.v1, 'search', 'COMPLETED', 'On its way'),
    run(`ds-v1-invoice-${R}`, 'invoice', experiments.v1, 'search', 'COMPLETED', 'Sent'),
    run(`ds-v2-refund-${R}`, 'refund', experiments.v2, 'sql', 'ERROR', 'failed'),
    run(`ds-v2-invoice-${R}`, 'invoice', experiments.v2, 'search', 'COMPLETED', 'Sent'),
  ] as TraceInput[]);
});

test('a dataset is made and filled on its pages: by hand, and from a CSV file', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/400.*\/items\/upload/);
  const name = `made-here-${R}`;
  await open(page, '/datasets');
  const form = page.getByRole('form', { name: 'New dataset' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Description (optional)').fill('Typed in');
  await form.getByRole('button', { name: 'Create dataset' }).click();
  await expect(page).toHaveURL(new RegExp(`/datasets/${name}$`));
  await expect(page.getByTestId('dataset-name')).toHaveText(name);

  const add = page.getByRole('form', { name: 'Add item' });
  await add.getByLabel('Input (JSON, or text)').fill('{"question": "Can I change my plan?"}');
  await add.getByLabel('Expected output (optional)').fill('Yes, from Settings');
  await add.getByRole('button', { name: 'Add item' }).click();
  await expect(page.getByTestId('items-table').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('items-table')).toContainText('{"question":"Can I change my plan?"}');

  const upload = page.getByRole('form', { name: 'Upload items' });
  await upload.locator('input[type=file]').setInputFiles({
    name: 'cases.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('input,expectedOutput,metadata\n"{""question"": ""Cancel my order""}",Cancelled,"{""tier"": ""gold""}"\nplain question,plain answer,\n'),
  });
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload.getByRole('status')).toHaveText('2 items added or updated from cases.csv');
  await expect(page.getByTestId('items-table').locator('tbody tr')).toHaveCount(3);
  await expect(page.getByText('3 items, 0 experiments')).toBeVisible();

  // A file the server cannot read says why, and adds nothing.
  await upload.locator('input[type=file]').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('question\nq\n') });
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(upload.getByRole('alert')).toHaveText('The CSV needs an "input" column');
  await expect(page.getByTestId('items-table').locator('tbody tr')).toHaveCount(3);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`two versions compared item by item, the worse one marked, a different choice opening both traces (1440 and 390 px, ${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 1000 });
      await open(page, `/datasets/${DATASET}`);
      const table = page.getByTestId('experiments-table');
      await expect(table.locator('tbody tr')).toHaveCount(2);
      await expect(table.locator('tr[data-experiment="v1"]')).toContainText('100%');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: shotPath(`dataset-${width}-${scheme}`), fullPage: true });
      expect(await contrastProblems(page)).toEqual([]);

      await page.getByTestId('compare-experiments').click();
      await expect(page).toHaveURL(/\/experiments\/compare\?ids=/);
      const summary = page.getByTestId('compare-summary-table');
      await expect(summary.locator('tr[data-experiment="v2"] [data-delta="worse"]').first()).toBeVisible();
      const refund = page.locator('[data-compare-item="refund"]');
      await expect(refund.getByTestId('chose-differently')).toContainText('chose differently at decision 1: search vs sql');
      await expect(page.locator('[data-compare-item="invoice"]').getByTestId('chose-differently')).toHaveCount(0);
      expect(await pastTheEdge(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: shotPath(`experiments-compare-${width}-${scheme}`), fullPage: true });
      expect(await contrastProblems(page)).toEqual([]);

      await page.getByRole('link', { name: 'Only items where the runs differ' }).click();
      await expect(page.getByTestId('compare-items-count')).toHaveText('1 item where the runs differ');
      await refund.getByTestId('chose-differently').click();
      await expect(page).toHaveURL(new RegExp(`/traces/compare\\?a=ds-v1-refund-${R}&b=ds-v2-refund-${R}$`));
      await expect(page.getByTestId('compare-summary')).toContainText('part at step 1');
    }
  });
}

test('"Add to dataset" on a trace takes its input, its output corrected by hand, and its decisions (1440 and 390 px)', async ({ page, request }) => {
  const target = `from-prod-${R}`;
  expect((await request.post('/api/datasets', { headers: AUTH, data: { name: target } })).status()).toBe(201);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await open(page, `/traces/ds-v2-refund-${R}`);
    await page.getByTestId('add-to-dataset').first().click();
    const form = page.getByRole('form', { name: 'Add this trace to a dataset' });
    await expect(form.getByLabel('Expected output (correct it if the run got it wrong)')).toHaveValue(/"answer": "failed"/);
    await form.getByLabel('Dataset').fill(target);
    await form.getByLabel('Expected output (correct it if the run got it wrong)').fill('{"answer": "On its way"}');
    await expect(form.getByLabel('Expect its decision, in order')).toBeChecked();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: shotPath(`add-to-dataset-${width}`) });
    await form.getByRole('button', { name: 'Add item' }).click();
    await expect(form.getByRole('status')).toContainText(`Added to ${target}`);
  }
  const items = (await (await request.get(`/api/datasets/${target}/items`, { headers: AUTH })).json()).items;
  expect(items).toHaveLength(2);
  expect(items[0]).toMatchObject({
    sourceTraceId: `ds-v2-refund-${R}`,
    expectedOutput: { answer: 'On its way' },
    expectedDecisions: [{ type: 'TOOL_SELECTION', chosen: { tool: 'sql' } }],
  });
});
