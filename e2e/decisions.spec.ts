// Decision cards: confidences beside their options, the chosen option never "not chosen",
// the tool span a selection led to, every decision counted in the overview, and repeated
// decisions folded. Data goes in through the real POST /api/traces.
import { runId, type DecisionInput, type TraceInput } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const RUN = `decisions-${R}`;
const MANY = `decisions-many-${R}`;

function run(): TraceInput {
  const t0 = Date.now() - 3 * 60_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  return {
    id: RUN,
    name: `support run ${R}`,
    status: 'ERROR',
    tags: ['e2e'],
    startedAt: at(0),
    endedAt: at(3000),
    spans: [
      { id: 'agent', name: 'support agent', type: 'AGENT', status: 'ERROR', startedAt: at(0), endedAt: at(3000) },
      { id: 'llm', parentSpanId: 'agent', name: 'pick a tool', type: 'LLM_CALL', status: 'COMPLETED', startedAt: at(100), durationMs: 150 },
      { id: 'search', parentSpanId: 'agent', name: 'web_search', type: 'TOOL_CALL', status: 'COMPLETED', startedAt: at(300), durationMs: 400 },
      {
        id: 'calc',
        parentSpanId: 'agent',
        name: 'calculator',
        type: 'TOOL_CALL',
        status: 'ERROR',
        statusMessage: 'division by zero',
        startedAt: at(1000),
        durationMs: 20,
        metadata: { toolCallId: 'call-9' },
      },
    ],
    decisionPoints: [
      { id: 'plan', type: 'PLANNING', chosen: 'multi-step plan', alternatives: ['direct answer'], parentSpanId: 'agent', timestamp: at(50) },
      {
        id: 'route',
        type: 'ROUTING',
        reasoning: 'A refund question.',
        chosen: { route: 'billing', confidence: 0.79 },
        // The client listed every option, the chosen one too.
        alternatives: [
          { route: 'billing', confidence: 0.79 },
          { route: 'technical', confidence: 0.2 },
          { route: 'sales', confidence: 0.01 },
        ],
        parentSpanId: 'agent',
        timestamp: at(80),
      },
      { id: 'pick-search', type: 'TOOL_SELECTION', chosen: { tool: 'web_search' }, alternatives: ['calculator'], parentSpanId: 'agent', timestamp: at(200) },
      { id: 'mem', type: 'MEMORY_RETRIEVAL', chosen: 'recent conversation', alternatives: ['user profile'], parentSpanId: 'agent', timestamp: at(700) },
      {
        id: 'pick-calc',
        type: 'TOOL_SELECTION',
        chosen: { tool: 'calculator' },
        alternatives: ['web_search'],
        contextSnapshot: { toolCallId: 'call-9' },
        parentSpanId: 'llm',
        timestamp: at(150),
      },
      { id: 'retry', type: 'RETRY', chosen: 'give up', alternatives: ['retry calculator'], parentSpanId: 'agent', timestamp: at(1100) },
      { id: 'escalate', type: 'ESCALATION', chosen: { agent: 'human on call' }, alternatives: [{ agent: 'senior model' }], parentSpanId: 'agent', timestamp: at(1200) },
    ],
    events: [],
  };
}

function many(): TraceInput {
  const t0 = Date.now() - 2 * 60_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const decisionPoints: DecisionInput[] = Array.from({ length: 1000 }, (_, i) => ({
    id: `d${i}`,
    type: 'TOOL_SELECTION',
    reasoning: `Item ${i} needs a lookup.`,
    chosen: { tool: 'lookup', arguments: { item: i } },
    alternatives: [{ tool: 'skip', score: 0.1 }],
    parentSpanId: 'agent',
    timestamp: at(10 + i * 5),
  }));
  decisionPoints.push({ id: 'final', type: 'ESCALATION', chosen: 'human', alternatives: [], parentSpanId: 'agent', timestamp: at(6000) });
  return {
    id: MANY,
    name: `batch run ${R}`,
    status: 'COMPLETED',
    tags: ['e2e'],
    startedAt: at(0),
    endedAt: at(6100),
    spans: [{ id: 'agent', name: 'batch agent', type: 'AGENT', status: 'COMPLETED', startedAt: at(0), endedAt: at(6100) }],
    decisionPoints,
    events: [],
  };
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, [run(), many()]);
  await request.dispose();
});

test('a card shows each option’s confidence, never the chosen option as not chosen', async ({ page }) => {
  await open(page, `/traces/${RUN}?tab=decisions`);
  const card = page.getByTestId('decision-card').filter({ hasText: 'Routing' });
  await expect(card.getByTestId('decision-chosen')).toContainText('billing');
  await expect(card.getByTestId('decision-chosen').getByTestId('option-confidence')).toHaveText('confidence 0.79');
  const alternatives = card.getByTestId('decision-alternatives');
  await expect(alternatives).toContainText('Not chosen (2)');
  await expect(alternatives.getByTestId('decision-alternative')).toHaveText(['○technicalconfidence 0.2', '○salesconfidence 0.01']);
  await expect(alternatives).not.toContainText('billing');
});

test('a tool selection links the tool span it led to, with its outcome', async ({ page }) => {
  await open(page, `/traces/${RUN}?tab=decisions`);
  const bySibling = page.getByTestId('decision-card').filter({ has: page.getByTestId('decision-chosen').filter({ hasText: 'web_search' }) });
  await expect(bySibling.getByTestId('decision-outcome')).toContainText('Led to');
  await expect(bySibling.getByTestId('decision-outcome')).toContainText('Completed');
  // Matched by its tool-call id, though made in the model call.
  const byCallId = page.getByTestId('decision-card').filter({ has: page.getByTestId('decision-chosen').filter({ hasText: 'calculator' }) });
  await expect(byCallId.getByTestId('decision-outcome')).toContainText('Error');
  await expect(byCallId.getByTestId('decision-outcome')).toContainText('division by zero');
  await byCallId.getByTestId('decision-outcome').getByRole('button', { name: 'calculator' }).click();
  await expect(page).toHaveURL(/span=calc/);
  await expect(page.getByTestId('details-panel').getByRole('heading', { level: 2 })).toHaveText('calculator');
});

test('the overview counts every decision and leads to the ones it does not list', async ({ page }) => {
  await open(page, `/traces/${RUN}`);
  const overview = page.getByTestId('overview-decisions');
  await expect(overview.getByRole('heading')).toHaveText('Decisions (7)');
  await expect(overview.getByRole('listitem')).toHaveCount(6);
  await overview.getByTestId('overview-decisions-more').click();
  await expect(page).toHaveURL(/tab=decisions/);
  await expect(page.getByTestId('decision-card')).toHaveCount(7);
  await expect(page.getByTestId('decision-card').filter({ hasText: 'Escalation' })).toHaveCount(1);
});

test('1,000 repeated decisions are one group with its count, opened a page at a time', async ({ page }) => {
  await open(page, `/traces/${MANY}`);
  const overview = page.getByTestId('overview-decisions');
  await expect(overview.getByRole('heading')).toHaveText('Decisions (1,001)');
  await expect(overview.getByRole('listitem')).toHaveCount(2);
  await expect(overview.getByRole('listitem').first()).toContainText('×1,000');

  await open(page, `/traces/${MANY}?tab=decisions`);
  const group = page.getByTestId('decision-group');
  await expect(group).toHaveCount(1);
  await expect(group.getByTestId('decision-group-count')).toHaveText('×1,000');
  await expect(group.getByTestId('decision-group-outcomes')).toHaveText('Led to: 1,000 without a tool span');
  await expect(page.getByTestId('decision-card')).toHaveCount(1); // the escalation
  await group.getByRole('button', { name: 'Show all 1,000' }).click();
  await expect(page.getByTestId('decision-card')).toHaveCount(51);
  await expect(group.getByRole('button', { name: 'Show 50 more of 950' })).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`decision cards at 390, 1024 and 1440 px (${scheme}), readable`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await open(page, `/traces/${RUN}?tab=decisions`);
      await expect(page.getByTestId('decision-card')).toHaveCount(7);
      await page.screenshot({ path: shotPath(`decisions-${width}-${scheme}`) });
    }
    expect(await contrastProblems(page)).toEqual([]);
  });
}
