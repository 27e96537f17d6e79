// Full-text search as a user meets it: the list's search box finds a term inside a
// span's JSON output and in Japanese reasoning, shows where, switches to names only, and
// a row opens the trace on its first matching span with the place shown and the term
// marked.
import { runId, simpleTrace } from './fixtures';
import { expect, hydrated, open, postTraces, rowNames, shotPath, test } from './viewer-helpers';

test('search everywhere finds text inside spans and decisions and opens the trace on the match', async ({ page, request }) => {
  const run = runId();
  const order = `ORD-${run.toUpperCase()}`;
  const started = Date.now() - 60_000;
  const at = (ms: number) => new Date(started + ms).toISOString();
  await postTraces(request, [
    simpleTrace({
      id: `search-hit-${run}`,
      name: `refund run ${run}`,
      startedAt: at(0),
      spans: [
        { id: 'plan', name: 'plan', type: 'CHAIN', status: 'COMPLETED', startedAt: at(0), output: 'nothing here' },
        {
          id: 'lookup',
          parentSpanId: 'plan',
          name: 'lookup_order',
          type: 'TOOL_CALL',
          status: 'COMPLETED',
          startedAt: at(100),
          input: { customer: 'Jürgen Müller' },
          output: { order: { number: order, status: 'storniert' } },
        },
      ],
      decisionPoints: [
        {
          id: 'route',
          type: 'ROUTING',
          reasoning: `注文番号 ${run} を確認しました`,
          chosen: { route: 'refunds' },
          alternatives: ['faq'],
          timestamp: at(50),
        },
      ],
    }),
    simpleTrace({ id: `search-miss-${run}`, name: `other run ${run}`, startedAt: at(10) }),
  ]);

  await open(page, '/traces');
  const box = page.getByRole('searchbox', { name: 'Search' });
  await expect(page.getByRole('radio', { name: 'Everything' })).toHaveAttribute('aria-checked', 'true');

  // A value inside the tool's JSON output, typed in lower case.
  await box.fill(order.toLowerCase());
  await expect(page).toHaveURL(new RegExp(`[?&]q=${order.toLowerCase()}`));
  await expect.poll(() => rowNames(page)).toEqual([`refund run ${run}`]);
  const matchLine = page.locator('[data-match="span:lookup"]');
  await expect(matchLine).toContainText('Span output:');
  await expect(matchLine.locator('mark')).toHaveText(order);
  await page.screenshot({ path: shotPath('search-list') });

  // Names only: the order number is not in any trace's name.
  await page.getByRole('radio', { name: 'Names only' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]search=${order.toLowerCase()}`));
  await expect(page.getByText('No traces match these filters')).toBeVisible();
  await page.getByRole('radio', { name: 'Everything' }).click();
  await expect.poll(() => rowNames(page)).toEqual([`refund run ${run}`]);

  // The row opens the trace on the matching span, selected, with the term marked.
  await page.getByRole('link', { name: `refund run ${run}` }).click();
  await expect(page).toHaveURL(/\/traces\/search-hit-.*[?&]span=lookup/);
  await hydrated(page);
  const bar = page.getByRole('region', { name: 'Search matches' });
  await expect(bar).toContainText(`“${order.toLowerCase()}”: 1 of 1`);
  await expect(bar.locator('[data-search-match="span:lookup"] mark')).toHaveText(order);
  await expect(page.locator('[aria-selected="true"]', { hasText: 'lookup_order' })).toBeVisible();
  await page.screenshot({ path: shotPath('search-detail') });

  // Japanese text in a decision's reasoning, found by a substring of it.
  await open(page, `/traces?q=${encodeURIComponent('注文番号')}`);
  await expect.poll(() => rowNames(page)).toContain(`refund run ${run}`);
  await expect(page.locator('[data-match="decision:route"]').first()).toContainText('Decision reasoning:');
  await page.goto(`/traces/search-hit-${run}?tab=decisions&decision=route&q=${encodeURIComponent('確認')}`);
  await hydrated(page);
  await expect(page.getByRole('region', { name: 'Search matches' })).toContainText('1 of 1');
  await expect(page.getByRole('region', { name: 'Search matches' }).locator('mark')).toHaveText('確認');
});
