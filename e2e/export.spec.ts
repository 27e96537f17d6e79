// Export (issue 13) in Chromium against the production build: the list's Export menu
// downloads every trace of the current filters (NDJSON, CSV, NDJSON with children), and
// the detail page's Download JSON saves the whole trace. Data goes in through the real
// POST /api/traces; names carry this run's id so the tests hold in a shared database.
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Download, Page } from '@playwright/test';
import { agentTrace, runId, simpleTrace, type TraceInput } from './fixtures';
import { contrastProblems, expect, open, postTraces, shotPath, test } from './viewer-helpers';

const R = runId();
const P = `export-${R}`;
const TRICKY = `${P}-tricky "quoted", comma; Grüße 東京 🚀`;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const traces: TraceInput[] = [
    simpleTrace({ id: `ok-1-${R}`, name: `${P}-ok-1`, status: 'COMPLETED', startedAt: minutesAgo(8), endedAt: minutesAgo(7.9) }),
    simpleTrace({ id: `ok-2-${R}`, name: `${P}-ok-2`, status: 'COMPLETED', startedAt: minutesAgo(7), endedAt: minutesAgo(6.9) }),
    simpleTrace({ id: `err-1-${R}`, name: TRICKY, status: 'ERROR', startedAt: minutesAgo(6), endedAt: minutesAgo(5.9), metadata: { note: 'line1\nline2, "q"' } }),
    // An ERROR trace started 5 minutes ago: the newest of the four.
    agentTrace(`agent-${R}`, `${P}-agent`, `sess-${R}`),
  ];
  await postTraces(request, traces);
  await request.dispose();
});

async function text(download: Download): Promise<string> {
  return readFile((await download.path())!, 'utf8');
}

async function exportVia(page: Page, item: RegExp): Promise<Download> {
  await page.getByRole('button', { name: 'Export' }).click();
  const menu = page.getByRole('menu', { name: 'Export traces' });
  await expect(menu).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), menu.getByRole('menuitem', { name: item }).click()]);
  await expect(menu).toBeHidden();
  return download;
}

test.describe('Export menu on the list', () => {
  test('NDJSON of the current filters: every matching trace, each a list row', async ({ page }) => {
    await open(page, `/traces?search=${encodeURIComponent(P)}`);
    await expect(page.locator('tbody tr')).toHaveCount(4);
    const download = await exportVia(page, /^NDJSON One trace per line/);
    expect(download.suggestedFilename()).toMatch(/^crossroads-traces-\d{8}T\d{6}Z\.ndjson$/);
    const rows = (await text(download)).trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string; name: string; _count: object });
    expect(rows.map((r) => r.id)).toEqual([`agent-${R}`, `err-1-${R}`, `ok-2-${R}`, `ok-1-${R}`]);
    expect(rows[1].name).toBe(TRICKY);
    expect(rows[0]._count).toEqual({ decisionPoints: expect.any(Number), spans: expect.any(Number), events: expect.any(Number) });
  });

  test('CSV honours a filter (status), parsed back with a CSV parser', async ({ page }) => {
    await open(page, `/traces?search=${encodeURIComponent(P)}&status=ERROR`);
    await expect(page.locator('tbody tr')).toHaveCount(2);
    const download = await exportVia(page, /^CSV/);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const records = parse(await text(download), { columns: true }) as Record<string, string>[];
    expect(records.map((r) => r.id)).toEqual([`agent-${R}`, `err-1-${R}`]);
    expect(records[1]).toMatchObject({ name: TRICKY, status: 'ERROR' });
    expect(JSON.parse(records[1].metadata)).toEqual({ note: 'line1\nline2, "q"' });
  });

  test('NDJSON with children: full traces, as the detail returns them; keyboard operable', async ({ page }) => {
    await open(page, `/traces?search=${encodeURIComponent(`${P}-agent`)}`);
    const button = page.getByRole('button', { name: 'Export' });
    await button.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu', { name: 'Export traces' });
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await expect(menu.getByRole('menuitem', { name: /with children/ })).toBeFocused();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/^crossroads-traces-with-children-.*\.ndjson$/);
    const lines = (await text(download)).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const res = await page.request.get(`/api/traces/agent-${R}`);
    expect(JSON.parse(lines[0])).toEqual(((await res.json()) as { trace: unknown }).trace);
  });

  test('the menu, seen: light and dark, contrast', async ({ page }) => {
    await open(page, `/traces?search=${encodeURIComponent(P)}`);
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(page.getByRole('menu')).toContainText('All 4 traces that match the current filters');
    await page.screenshot({ path: shotPath('export-menu-light'), clip: { x: 0, y: 0, width: 1280, height: 420 } });
    expect(await contrastProblems(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.screenshot({ path: shotPath('export-menu-dark'), clip: { x: 0, y: 0, width: 1280, height: 420 } });
    expect(await contrastProblems(page)).toEqual([]);
    // A click elsewhere closes it.
    await page.locator('h1').click();
    await expect(page.getByRole('menu')).toBeHidden();
  });
});

test.describe('Download JSON on the detail page', () => {
  test('saves the whole trace as GET /api/traces/{id} returns it', async ({ page }) => {
    await open(page, `/traces/agent-${R}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
    expect(download.suggestedFilename()).toBe(`trace-agent-${R}.json`);
    const saved = JSON.parse(await text(download)) as { trace: { id: string; spans: unknown[]; decisionPoints: unknown[] } };
    const res = await page.request.get(`/api/traces/agent-${R}`);
    expect(saved).toEqual(await res.json());
    expect(saved.trace.spans.length).toBeGreaterThan(0);
    expect(saved.trace.decisionPoints.length).toBeGreaterThan(0);
    await page.screenshot({ path: shotPath('download-json'), clip: { x: 0, y: 0, width: 1280, height: 260 } });
  });
});
