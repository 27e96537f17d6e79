// A model call's request beside its chat: the parameters as a table (from the request
// object and from the span's metadata), the offered tools folded to name and description
// with the schema on opening, and the request's other keys as JSON. Data goes in through
// the real POST /api/traces.
import { runId, type TraceInput } from './fixtures';
import { expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const ID = `request-${R}`;

function trace(): TraceInput {
  const t0 = Date.now() - 60_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const city = { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] };
  return {
    id: ID,
    name: `request details ${R}`,
    status: 'COMPLETED',
    tags: ['e2e'],
    startedAt: at(0),
    endedAt: at(2000),
    spans: [
      { id: 'agent', name: 'weather agent', type: 'AGENT', status: 'COMPLETED', startedAt: at(0), endedAt: at(2000) },
      {
        id: 'openai',
        parentSpanId: 'agent',
        name: 'openai chat',
        type: 'LLM_CALL',
        status: 'COMPLETED',
        startedAt: at(10),
        endedAt: at(900),
        input: {
          model: 'gpt-4o-2024-08-06',
          temperature: 0.2,
          max_tokens: 512,
          seed: 42,
          tool_choice: 'auto',
          messages: [
            { role: 'system', content: 'You are a weather assistant.' },
            { role: 'user', content: 'What is the weather in Paris?' },
          ],
          tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather for a city', parameters: city } }],
          experiment: { arm: 'b' },
        },
        output: { role: 'assistant', content: 'Sunny.' },
      },
      {
        id: 'genai',
        parentSpanId: 'agent',
        name: 'chat gpt-4',
        type: 'LLM_CALL',
        status: 'COMPLETED',
        startedAt: at(1000),
        endedAt: at(1900),
        input: [{ role: 'user', parts: [{ type: 'text', content: 'Weather in Lyon?' }] }],
        metadata: { 'gen_ai.request.model': 'gpt-4', 'gen_ai.request.temperature': 0.25 },
        output: [{ role: 'assistant', parts: [{ type: 'text', content: 'Rainy.' }] }],
      },
    ],
    decisionPoints: [],
    events: [],
  };
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, [trace()]);
  await request.dispose();
});

test('a request object shows its parameters, its tools folded, and its other keys beside the chat', async ({ page }) => {
  await open(page, `/traces/${ID}?span=openai`);
  const input = page.getByTestId('details-panel').getByRole('region', { name: 'Input' });
  await expect(input.getByText('What is the weather in Paris?')).toBeVisible();

  const table = input.getByRole('table', { name: 'Parameters' });
  await expect(table.getByRole('columnheader')).toHaveText(['Parameter', 'Value']);
  await expect(table.getByRole('rowheader')).toHaveText(['model', 'temperature', 'max_tokens', 'seed', 'tool_choice']);
  await expect(table.getByRole('row', { name: /^temperature/ })).toContainText('0.2');

  const tools = input.getByRole('region', { name: 'Input tools' });
  const tool = tools.locator('details').filter({ hasText: 'get_weather' });
  await expect(tool.locator('summary')).toContainText('Current weather for a city');
  const schema = tool.getByRole('region', { name: 'get_weather schema' });
  await expect(schema).toBeHidden();
  await tool.locator('summary').click();
  await expect(schema).toBeVisible();
  await expect(schema).toContainText('City name');

  const extra = input.getByRole('region', { name: 'Additional input' });
  await expect(extra).toContainText('experiment');
  await expect(extra).not.toContainText('temperature');
  await page.screenshot({ path: shotPath('request-details') });
});

test('parameters recorded in the span metadata show beside a message list', async ({ page }) => {
  await open(page, `/traces/${ID}?span=genai`);
  const table = page.getByTestId('details-panel').getByRole('region', { name: 'Input' }).getByRole('table', { name: 'Parameters' });
  await expect(table.getByRole('row', { name: /^model/ })).toContainText('gen_ai.request.model');
  await expect(table.getByRole('row', { name: /^temperature/ })).toContainText('0.25');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`at 390 px, ${scheme}: the table and tools fit the screen`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: scheme });
    await open(page, `/traces/${ID}?span=openai`);
    const table = page.getByRole('table', { name: 'Parameters' });
    await table.scrollIntoViewIfNeeded();
    const box = (await table.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: shotPath(`request-details-390-${scheme}`) });
  });
}
