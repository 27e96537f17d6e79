// Sessions and model calls as a conversation (issue 25) in Chromium against the production
// build: the sessions list and API, a session's page turn by turn, the trace header's link
// to it, and an LLM call's input and output as chat in the details panel. Every session
// and user carries this run's id, so the tests hold in a database shared with other specs.
import { E2E_API_KEY } from '../playwright.config';
import { runId, simpleTrace, type SpanInput, type TraceInput } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const SESSION = `chat-${R}`;
const USER = `user-${R}`;
const P = `sessions-${R}`;
const T1 = `turn-1-${R}`;
const T2 = `turn-2-${R}`;
const T3 = `turn-3-${R}`;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function span(fields: Partial<SpanInput> & Pick<SpanInput, 'id' | 'name' | 'type' | 'startedAt'>): SpanInput {
  return { status: 'COMPLETED', ...fields };
}

/** Three turns: OpenAI messages under a root with its own input and output, Anthropic blocks with an image, a failure. */
function sessionTraces(): Array<TraceInput & { userId: string }> {
  const first: TraceInput = simpleTrace({
    id: T1,
    name: `${P}-order`,
    sessionId: SESSION,
    startedAt: minutesAgo(30),
    endedAt: minutesAgo(29.9),
    totalCost: 0.01,
    spans: [
      span({ id: 'root', name: 'support agent', type: 'AGENT', startedAt: minutesAgo(30), input: 'Where is order 7?', output: 'Order 7 has shipped.' }),
      span({
        id: 'llm',
        parentSpanId: 'root',
        name: 'chat gpt-4o',
        type: 'LLM_CALL',
        startedAt: minutesAgo(30),
        input: {
          messages: [
            { role: 'system', content: 'You are a support agent.' },
            { role: 'user', content: 'Where is order 7?' },
          ],
          tools: [{ type: 'function', function: { name: 'lookup_order' } }],
        },
        output: {
          role: 'assistant',
          content: 'Let me look that up.',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"id":7}' } }],
        },
      }),
    ],
  });
  const second: TraceInput = simpleTrace({
    id: T2,
    name: `${P}-photo`,
    sessionId: SESSION,
    startedAt: minutesAgo(20),
    endedAt: minutesAgo(19.95),
    totalCost: 0.02,
    spans: [
      span({
        id: 'claude',
        name: 'messages.create',
        type: 'LLM_CALL',
        startedAt: minutesAgo(20),
        input: {
          system: 'Describe images.',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
                { type: 'text', text: 'Is this parcel damaged?' },
              ],
            },
          ],
        },
        output: { role: 'assistant', content: [{ type: 'text', text: 'The parcel looks intact.' }] },
      }),
    ],
  });
  const third: TraceInput = simpleTrace({ id: T3, name: `${P}-refund`, sessionId: SESSION, status: 'ERROR', startedAt: minutesAgo(10) });
  return [first, second, third].map((t) => ({ ...t, userId: USER }));
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, sessionTraces());
  await request.dispose();
});

test('GET /api/sessions and /api/sessions/{id}: figures, turns oldest first, 404', async ({ request }) => {
  const headers = { authorization: `Bearer ${E2E_API_KEY}` };
  const list = await request.get(`/api/sessions?userId=${USER}&limit=5`, { headers });
  expect(list.status()).toBe(200);
  const body = (await list.json()) as { sessions: Array<Record<string, unknown>>; total: number; page: number; limit: number; totalPages: number };
  expect(body).toMatchObject({ total: 1, page: 1, limit: 5, totalPages: 1 });
  expect(body.sessions[0]).toMatchObject({ id: SESSION, traces: 3, errorTraces: 1, totalTokens: null });
  expect(body.sessions[0].totalCost).toBeCloseTo(0.03, 10);

  const one = await request.get(`/api/sessions/${SESSION}`, { headers });
  expect(one.status()).toBe(200);
  const detail = (await one.json()) as { traces: Array<{ id: string; input: unknown; output: unknown }> };
  expect(detail.traces.map((t) => t.id)).toEqual([T1, T2, T3]);
  expect(detail.traces[0]).toMatchObject({ input: 'Where is order 7?', output: 'Order 7 has shipped.' });
  expect(detail.traces[1].output).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'The parcel looks intact.' }] });

  const missing = await request.get(`/api/sessions/missing-${R}`, { headers });
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ error: 'Session not found' });
  expect((await request.get('/api/sessions?limit=101', { headers })).status()).toBe(400);
});

test('the header nav opens the sessions list; a row opens its session', async ({ page }) => {
  await open(page, '/traces');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sessions' }).click();
  await expect(page).toHaveURL(/\/sessions$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();

  await open(page, `/sessions?userId=${USER}`);
  const row = page.getByTestId('sessions-table').locator('tbody tr');
  await expect(row).toHaveCount(1);
  const cells = row.locator('td');
  await expect(cells.nth(0)).toHaveText(SESSION);
  // Then the user and the first input (their own checks are in list-comfort.spec.ts).
  await expect(cells.nth(3)).toHaveText('3');
  await expect(cells.nth(4)).toHaveText('1');
  await expect(cells.nth(6)).toContainText(/ago/);
  await expect(cells.nth(7)).toHaveText('$0.03');
  await page.screenshot({ path: shotPath('sessions-list') });
  await row.getByRole('link', { name: SESSION }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${SESSION}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(SESSION);
});

test('a session reads turn by turn: chat with roles, tool calls, a collapsed image, JSON one toggle away', async ({ page }) => {
  await open(page, `/sessions/${SESSION}`);
  const totals = page.getByTestId('session-totals');
  await expect(totals).toContainText('3');
  await expect(totals).toContainText('$0.03');
  const turns = page.getByTestId('session-turn');
  await expect(turns).toHaveCount(3);
  await expect(turns.nth(0)).toContainText(`${P}-order`);
  await expect(turns.nth(1)).toContainText(`${P}-photo`);
  await expect(turns.nth(2)).toContainText(`${P}-refund`);
  await expect(turns.nth(2)).toContainText('Error');
  await expect(turns.nth(2)).toContainText('No input or output recorded');

  // Turn 1: the root span's input and output, a user's and the assistant's message.
  const first = turns.nth(0);
  await expect(first.locator('[data-role="user"]')).toContainText('User');
  await expect(first.locator('[data-role="user"]')).toContainText('Where is order 7?');
  await expect(first.locator('[data-role="assistant"]')).toContainText('Order 7 has shipped.');

  // Turn 2: the model call's Anthropic blocks, with the image collapsed until asked for.
  const second = turns.nth(1);
  await expect(second.locator('[data-role="system"]')).toContainText('Describe images.');
  await expect(second.locator('img')).toHaveCount(0);
  await second.getByRole('button', { name: 'Show image' }).click();
  await expect(second.locator('img')).toBeVisible();
  await expect(second.locator('[data-role="assistant"]')).toContainText('The parcel looks intact.');
  await second.getByTestId('chat-output').getByRole('button', { name: 'JSON' }).click();
  await expect(second.getByRole('region', { name: 'Output (JSON)' })).toBeVisible();
  await page.screenshot({ path: shotPath('session-page'), fullPage: true });

  await first.getByRole('link', { name: `${P}-order` }).click();
  await expect(page).toHaveURL(new RegExp(`/traces/${T1}$`));
});

test('the trace header links to its session’s page', async ({ page }) => {
  await open(page, `/traces/${T2}`);
  await page.getByRole('link', { name: SESSION }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${SESSION}$`));
  await expect(page.getByTestId('session-turn')).toHaveCount(3);
});

test('an LLM call’s input and output are a chat in the details panel, which opens full width', async ({ page }) => {
  await open(page, `/traces/${T1}?span=llm`);
  const panel = page.getByTestId('details-panel');
  const input = panel.getByTestId('chat-input');
  await expect(input.locator('[data-role="system"]')).toContainText('System');
  await expect(input.locator('[data-role="system"]')).toContainText('You are a support agent.');
  // The tools offered are beside the chat, folded to their names.
  await expect(panel.getByTestId('request-details')).toContainText('Tools offered');
  await expect(panel.getByTestId('request-tool').filter({ hasText: 'lookup_order' })).toBeVisible();
  const call = panel.getByTestId('chat-output').getByTestId('chat-tool-call');
  await expect(call).toContainText('Tool call');
  await expect(call).toContainText('lookup_order');
  await expect(call).toContainText('call_1');

  await panel.getByTestId('chat-input').getByRole('button', { name: 'JSON' }).click();
  await expect(panel.getByRole('region', { name: 'Input (JSON)' })).toBeVisible();

  await panel.getByRole('button', { name: 'Full width' }).click();
  await expect(panel).toHaveAttribute('data-wide', 'true');
  await page.screenshot({ path: shotPath('details-full-width') });
  // Remembered: the next visit opens wide too; Escape goes back beside the timeline.
  await page.reload();
  await expect(page.getByTestId('details-panel')).toHaveAttribute('data-wide', 'true');
  await page.getByRole('button', { name: 'Narrow' }).focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('details-panel')).not.toHaveAttribute('data-wide', 'true');
  await expect(page).toHaveURL(/span=llm/);
});

test('an unknown session is a 404 page', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/\[response 404\]/);
  consoleGuard.allow(/404/);
  const res = await page.goto(`/sessions/missing-${R}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Session not found' })).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`sessions and chat text meet WCAG AA contrast (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await open(page, `/sessions?userId=${USER}`);
    await expect(page.getByTestId('sessions-table').locator('tbody tr')).toHaveCount(1);
    expect(await contrastProblems(page), 'sessions list').toEqual([]);

    await open(page, `/sessions/${SESSION}`);
    await expect(page.getByTestId('session-turn')).toHaveCount(3);
    expect(await contrastProblems(page), 'session page').toEqual([]);

    await open(page, `/traces/${T1}?span=llm`);
    await expect(page.getByTestId('details-panel').getByTestId('chat-output')).toBeVisible();
    expect(await contrastProblems(page), 'model call as chat').toEqual([]);
  });
}
