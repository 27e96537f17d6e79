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

test('filters and sorting live in the URL: repeated tags, cost bounds, errors, metadata, sort by cost', async ({ page, request }) => {
  const run = runId();
  const started = Date.now() - 120_000;
  const at = (ms: number) => new Date(started + ms).toISOString();
  const trace = (n: number, cost: number, tags: string[], extra: object = {}) =>
    simpleTrace({ id: `filter-${n}-${run}`, name: `filter ${n} ${run}`, startedAt: at(n * 1000), totalCost: cost, tags: [run, ...tags], ...extra });
  await postTraces(request, [
    trace(1, 0.3, ['eu', 'prod'], { metadata: { tier: 'gold' } }),
    trace(2, 0.1, ['eu', 'prod'], { status: 'ERROR', metadata: { tier: 'gold' } }),
    trace(3, 0.2, ['eu'], { metadata: { tier: 'gold' } }),
    trace(4, 0.9, ['eu', 'prod'], { metadata: { tier: 'silver' } }),
  ]);

  await open(page, `/traces?tag=${run}&tag=prod&maxCost=0.5&metadata.tier=gold`);
  await expect.poll(() => rowNames(page)).toEqual([`filter 2 ${run}`, `filter 1 ${run}`]);
  const chips = page.getByRole('list', { name: 'Other filters' });
  await expect(chips.getByText('prod', { exact: true })).toBeVisible();
  await expect(chips).toContainText('0.5');
  await expect(chips).toContainText('gold');

  // Sort by cost: highest first, then lowest first; the URL keeps it.
  await page.getByRole('button', { name: /^Sort by cost/ }).click();
  await expect(page).toHaveURL(/[?&]sort=cost/);
  await expect.poll(() => rowNames(page)).toEqual([`filter 1 ${run}`, `filter 2 ${run}`]);
  await page.getByRole('button', { name: /^Sort by cost/ }).click();
  await expect(page).toHaveURL(/[?&]order=asc/);
  await expect.poll(() => rowNames(page)).toEqual([`filter 2 ${run}`, `filter 1 ${run}`]);

  // Removing the prod tag's chip widens the list to trace 3; hasErrors narrows it.
  await chips.getByRole('button', { name: 'Remove filter Tag: prod' }).click();
  await expect.poll(() => rowNames(page)).toEqual([`filter 2 ${run}`, `filter 3 ${run}`, `filter 1 ${run}`]);
  await page.goto(`/traces?tag=${run}&hasErrors=true`);
  await hydrated(page);
  await expect.poll(() => rowNames(page)).toEqual([`filter 2 ${run}`]);
});
