// Scores in the viewer: a span annotated with thumbs and a comment (kept across a reload,
// edited, deleted), score configs made in /settings/scores, and decisions reviewed from
// the queue by keyboard. Data goes in through the real POST /api/traces.
import type { Page } from '@playwright/test';
import { runId, type TraceInput } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const ANNOTATED = `scores-${R}`;
const REVIEWED = `review-${R}`;

function annotated(): TraceInput {
  const t0 = Date.now() - 5 * 60_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  return {
    id: ANNOTATED,
    name: `scored run ${R}`,
    sessionId: `scores-session-${R}`,
    status: 'COMPLETED',
    tags: ['e2e'],
    startedAt: at(0),
    endedAt: at(2000),
    spans: [
      { id: 'agent', name: 'support agent', type: 'AGENT', status: 'COMPLETED', startedAt: at(0), endedAt: at(2000) },
      {
        id: 'llm',
        parentSpanId: 'agent',
        name: 'answer',
        type: 'LLM_CALL',
        status: 'COMPLETED',
        startedAt: at(100),
        durationMs: 300,
        input: [{ role: 'user', content: 'Where is my order?' }],
        output: 'It shipped yesterday.',
      },
    ],
    decisionPoints: [{ id: 'route', type: 'ROUTING', chosen: 'orders', alternatives: ['billing'], parentSpanId: 'agent', timestamp: at(50) }],
    events: [],
  };
}

/** Five decisions to review, and one left over; each with its own chosen option. */
function toReview(): TraceInput {
  const t0 = Date.now() - 4 * 60_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const pick = (i: number, tool: string, alts: string[]) => ({
    id: `d${i}`,
    type: 'TOOL_SELECTION' as const,
    reasoning: `Step ${i}: ${tool} looks best.`,
    chosen: { tool },
    alternatives: alts.map((a) => ({ tool: a })),
    parentSpanId: 'llm',
    timestamp: at(200 + i * 100),
  });
  return {
    id: REVIEWED,
    name: `review run ${R}`,
    status: 'ERROR',
    tags: ['e2e'],
    startedAt: at(0),
    endedAt: at(3000),
    spans: [
      { id: 'agent', name: 'review agent', type: 'AGENT', status: 'ERROR', startedAt: at(0), endedAt: at(3000) },
      {
        id: 'llm',
        parentSpanId: 'agent',
        name: 'plan tools',
        type: 'LLM_CALL',
        status: 'COMPLETED',
        startedAt: at(100),
        durationMs: 100,
        input: [
          { role: 'system', content: 'You help with refunds.' },
          { role: 'user', content: 'I want my money back for order 42.' },
        ],
        output: 'Looking up the order.',
      },
      { id: 'kb', parentSpanId: 'agent', name: 'search_kb', type: 'TOOL_CALL', status: 'ERROR', statusMessage: 'index offline', startedAt: at(350), durationMs: 30 },
    ],
    decisionPoints: [
      pick(1, 'search_kb', ['sql', 'web']),
      pick(2, 'sql', ['search_kb']),
      pick(3, 'web', ['sql']),
      pick(4, 'calculator', ['sql']),
      pick(5, 'refund_api', ['escalate']),
      pick(6, 'email', ['chat']),
    ],
    events: [],
  };
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postTraces(request, [annotated(), toReview()]);
  await request.dispose();
});

const scoresPanel = (page: Page) => page.getByTestId('details-panel').getByRole('group', { name: 'Scores of span answer' });

test('a span is annotated with thumbs and a comment, kept after a reload, edited and deleted', async ({ page }) => {
  const name = `helpful-${R}`;
  await open(page, `/traces/${ANNOTATED}?span=llm`);
  const bar = scoresPanel(page);
  await bar.getByRole('button', { name: '+ Score span answer' }).click();
  const form = bar.getByTestId('score-form');
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Thumbs up' }).click();
  await expect(form.getByRole('button', { name: 'Thumbs up' })).toHaveAttribute('aria-pressed', 'true');
  await form.getByLabel('Comment (optional)').fill('Clear and right.');
  await form.getByRole('button', { name: 'Save score' }).click();
  await expect(bar.getByTestId('score-chip')).toHaveText(`${name}:yes…`);

  await page.reload();
  await expect(scoresPanel(page).getByTestId('score-chip')).toHaveText(`${name}:yes…`);
  const chip = scoresPanel(page).getByTestId('score-chip');
  await expect(chip).toHaveAttribute('title', /^annotation by .+: Clear and right\.$/);
  await chip.click();
  await expect(scoresPanel(page).getByTestId('score-comment')).toHaveText('Clear and right.');

  // Edit by keyboard: thumbs down, saved with Enter.
  await scoresPanel(page).getByRole('button', { name: 'Edit' }).click();
  const edit = scoresPanel(page).getByTestId('score-form');
  await edit.getByRole('button', { name: 'Thumbs down' }).focus();
  await page.keyboard.press('Enter');
  await edit.getByLabel('Comment (optional)').fill('Actually, it missed the date.');
  await edit.getByLabel('Comment (optional)').press('Tab');
  await page.keyboard.press('Enter');
  await expect(scoresPanel(page).getByTestId('score-chip')).toHaveText(`${name}:no…`);
  await expect(scoresPanel(page).getByTestId('score-chip')).toHaveAttribute('title', /^annotation by .+: Actually, it missed the date\.$/);

  await scoresPanel(page).getByTestId('score-chip').click();
  await scoresPanel(page).getByRole('button', { name: 'Delete', exact: true }).click();
  await scoresPanel(page).getByRole('button', { name: `Delete ${name} for good` }).click();
  await expect(scoresPanel(page).getByTestId('score-chip')).toHaveCount(0);
  await page.reload();
  await expect(scoresPanel(page).getByTestId('score-chip')).toHaveCount(0);
});

test('settings: a BOOLEAN and a CATEGORICAL config, the API’s message on a clash, then their controls when annotating', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/409.*\/api\/score-configs/);
  const thumbs = `thumbs-${R}`;
  const tone = `tone-${R}`;
  await open(page, '/settings/scores');
  const form = page.getByRole('form', { name: 'New score config' });
  await form.getByLabel('Name').fill(thumbs);
  await form.getByLabel('Data type').selectOption('BOOLEAN');
  await form.getByLabel('Description (optional, shown to annotators)').fill('Was the answer useful?');
  await form.getByRole('button', { name: 'Create config' }).click();
  await expect(page.getByTestId('score-config').filter({ hasText: thumbs })).toContainText('BOOLEAN thumbs up or down');

  await form.getByLabel('Name').fill(tone);
  await form.getByLabel('Data type').selectOption('CATEGORICAL');
  await form.getByLabel('Categories (one a line; none: any label)').fill('friendly\nneutral\nrude');
  await form.getByRole('button', { name: 'Create config' }).click();
  await expect(page.getByTestId('score-config').filter({ hasText: tone })).toContainText('CATEGORICAL friendly, neutral, rude');

  // The same name again: the API's message, shown as it is.
  await form.getByLabel('Name').fill(tone);
  await form.getByRole('button', { name: 'Create config' }).click();
  await expect(form.getByRole('alert')).toHaveText(`A score config named "${tone}" already exists`);

  // Edit a config's description.
  await page.getByRole('button', { name: `Edit ${thumbs}` }).click();
  const edit = page.getByRole('form', { name: `Edit score config ${thumbs}` });
  await edit.getByLabel('Description (optional, shown to annotators)').fill('Useful to the user?');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('score-config').filter({ hasText: thumbs })).toContainText('Useful to the user?');

  // On a trace, the categorical config's name gives its categories.
  await open(page, `/traces/${ANNOTATED}`);
  const bar = page.getByTestId('trace-scores');
  // The trace's tags, scores and metadata are folded under the summary line.
  await page.getByTestId('header-more-toggle').click();
  await bar.getByRole('button', { name: '+ Score this trace' }).click();
  await bar.getByLabel('Name').fill(tone);
  await expect(bar.getByLabel('Value')).toHaveRole('combobox');
  await bar.getByLabel('Value').selectOption('friendly');
  await bar.getByRole('button', { name: 'Save score' }).click();
  await expect(bar.getByTestId('score-chip')).toHaveText(`${tone}:friendly`);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await open(page, '/settings/scores');
      await expect(page.getByTestId('score-config').first()).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: shotPath(`settings-scores-${width}-${scheme}`), fullPage: true });
    }
    expect(await contrastProblems(page)).toEqual([]);
  }
});

test('five decisions reviewed from the queue by keyboard: right, wrong with a better option, skip, wrong with a typed one', async ({ page }) => {
  await open(page, `/review?name=${encodeURIComponent(`review run ${R}`)}`);
  const progress = page.getByTestId('review-progress');
  const item = page.getByTestId('review-item');
  await expect(progress).toHaveText('0 of 6 reviewed');
  await expect(page.getByRole('button', { name: /^Right/ })).toHaveAttribute('aria-keyshortcuts', 'R');
  await expect(page.getByRole('button', { name: /^Wrong/ })).toHaveAttribute('aria-keyshortcuts', 'W');
  await expect(page.getByRole('button', { name: /^Skip/ })).toHaveAttribute('aria-keyshortcuts', 'S');

  // 1: search_kb, which failed downstream; the conversation so far is the model call's input.
  await expect(item.getByTestId('review-chosen')).toHaveText('Chose search_kb');
  await expect(item.getByTestId('decision-outcome')).toContainText('index offline');
  await expect(item.getByTestId('review-trace-outcome')).toContainText('Error');
  await expect(item).toContainText('I want my money back for order 42.');
  await expect(item).toContainText('Step 1: search_kb looks best.');
  await page.keyboard.press('w');
  await expect(page.getByTestId('better-option')).toBeVisible();
  await page.keyboard.press('1'); // sql
  await expect(progress).toHaveText('1 of 6 reviewed');

  // 2: sql, right.
  await expect(item.getByTestId('review-chosen')).toHaveText('Chose sql');
  await page.keyboard.press('r');
  await expect(progress).toHaveText('2 of 6 reviewed');

  // 3: web, skipped: nothing recorded.
  await expect(item.getByTestId('review-chosen')).toHaveText('Chose web');
  await page.keyboard.press('s');
  await expect(item.getByTestId('review-chosen')).toHaveText('Chose calculator');
  await expect(progress).toHaveText('2 of 6 reviewed');

  // 4: calculator, wrong; the better option typed.
  await page.keyboard.press('w');
  await page.getByPlaceholder('Another option (Enter saves)').fill('ask the user');
  await page.keyboard.press('Enter');
  await expect(progress).toHaveText('3 of 6 reviewed');

  // 5: refund_api, right.
  await expect(item.getByTestId('review-chosen')).toHaveText('Chose refund_api');
  await page.keyboard.press('r');
  await expect(progress).toHaveText('4 of 6 reviewed');
  await expect(item.getByTestId('review-chosen')).toHaveText('Chose email');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(item).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: shotPath(`review-${width}-${scheme}`), fullPage: true });
    }
    expect(await contrastProblems(page)).toEqual([]);
  }

  // What was stored: four verdicts and two better options, by the signed-in admin.
  const res = await page.request.get(`/api/scores?traceId=${REVIEWED}&limit=100`);
  const { scores } = (await res.json()) as { scores: Array<{ decisionPointId: string; name: string; value: unknown; source: string }> };
  const stored = scores.map((s) => `${s.decisionPointId} ${s.name}=${String(s.value)} ${s.source}`).sort();
  expect(stored).toEqual([
    'd1 decision.better_option=sql ANNOTATION',
    'd1 decision.correct=false ANNOTATION',
    'd2 decision.correct=true ANNOTATION',
    'd4 decision.better_option=ask the user ANNOTATION',
    'd4 decision.correct=false ANNOTATION',
    'd5 decision.correct=true ANNOTATION',
  ]);

  // The decision card shows the verdict.
  await open(page, `/traces/${REVIEWED}?tab=decisions`);
  const card = page.getByTestId('decision-card').filter({ hasText: 'Step 1:' });
  // Both scores are saved by one request, in the same millisecond: their order is not defined.
  await expect(card.getByTestId('score-chip')).toHaveCount(2);
  const chips = (await card.getByTestId('score-chip').allTextContents()).map((t) => t.replace(/\s+/g, '')).sort();
  expect(chips).toEqual(['decision.better_option:sql', 'decision.correct:no']);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`scores on a trace, a span, a decision and a session at 390 and 1440 px (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    // One of each kind through the UI's own route.
    const res = await page.request.post('/api/scores', {
      headers: { origin: test.info().project.use.baseURL as string },
      data: {
        scores: [
          { id: `e2e-${R}-t`, traceId: ANNOTATED, name: 'quality', value: 0.8, comment: 'Mostly good.' },
          { id: `e2e-${R}-s`, traceId: ANNOTATED, spanId: 'llm', name: 'accurate', value: true },
          { id: `e2e-${R}-d`, traceId: ANNOTATED, decisionPointId: 'route', name: 'decision.correct', value: true },
          { id: `e2e-${R}-x`, sessionId: `scores-session-${R}`, name: 'resolved', value: 'yes' },
        ],
      },
    });
    expect(res.status(), await res.text()).toBe(200);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await open(page, `/traces/${ANNOTATED}?span=llm`);
      await expect(page.getByTestId('trace-scores').getByTestId('score-chip').filter({ hasText: 'quality' })).toHaveText('quality:0.8…');
      await expect(scoresPanel(page).getByTestId('score-chip')).toHaveText('accurate:yes');
      await page.screenshot({ path: shotPath(`trace-scores-${width}-${scheme}`) });
      await open(page, `/traces/${ANNOTATED}?tab=decisions`);
      await expect(page.getByTestId('decision-card').getByTestId('score-chip')).toHaveText('decision.correct:yes');
      await open(page, `/sessions/scores-session-${R}`);
      await expect(page.getByTestId('session-scores').getByTestId('score-chip')).toHaveText('resolved:yes');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: shotPath(`session-scores-${width}-${scheme}`) });
    }
    expect(await contrastProblems(page)).toEqual([]);
  });
}
