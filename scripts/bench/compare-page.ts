// The comparison of two big runs in a real browser: headless Chromium (as the page
// scenario) loads /traces/compare?a=…&b=… of two 10,000-span traces, cold each time, and
// waits until the view is usable: its first span pair on screen, the page loaded and its
// client code hydrated. Then it scrolls the span table to its end and waits for the last
// pair. Measured per load: the HTML document's bytes, the span rows drawn, and both times
// from the start of the navigation. The target: usable < 1.5 s.
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, signedInState } from './page';
import { summarize } from './stats';
import type { Ctx, ScenarioResult } from './scenarios';

export interface ComparePageFigures {
  spans: number;
  loads: number;
  documentBytes: number;
  /** Span rows in the document once usable (all of them when the table is not virtualised). */
  rowsDrawn: number;
  /** Navigation start to the first span pair on screen, ms. */
  firstRowMedianMs: number;
  /** Navigation start to the view usable (loaded and hydrated), ms. */
  usableMedianMs: number;
  usableP95Ms: number;
  /** Navigation start to the span table's last pair on screen after scrolling to its end, ms. */
  endMedianMs: number;
}

/** Scrolls the span table to its end: its own scroll box when it has one, else the window. */
async function scrollToEnd(page: Page): Promise<void> {
  await page.evaluate(() => {
    const box = document.querySelector<HTMLElement>('[data-testid="compare-spans-scroll"]');
    if (box) box.scrollTop = box.scrollHeight;
    else window.scrollTo(0, document.body.scrollHeight);
  });
}

export async function comparePageScenario(
  ctx: Ctx,
  options: { a: string; b: string; spans: number; loads: number; admin: { email: string; password: string } },
): Promise<ScenarioResult> {
  const baseUrl = ctx.server.baseUrl;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const state = await signedInState(browser, baseUrl, options.admin);
    const url = `/traces/compare?a=${encodeURIComponent(options.a)}&b=${encodeURIComponent(options.b)}`;
    const first: number[] = [];
    const usable: number[] = [];
    const end: number[] = [];
    let documentBytes = 0;
    let rowsDrawn = 0;
    let errors = 0;
    const started = performance.now();
    // One load first, not counted: the server's first render of the page compiles its code.
    for (let i = -1; i < options.loads; i++) {
      const context = await browser.newContext({ baseURL: baseUrl, storageState: state, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      try {
        const t0 = performance.now();
        const response = await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
        if (!response || response.status() !== 200) throw new Error(`GET ${url}: HTTP ${response?.status()}`);
        await page.locator('[data-testid="compare-span"]').first().waitFor({ state: 'visible', timeout: 120_000 });
        const tFirst = performance.now();
        await page.waitForLoadState('load', { timeout: 120_000 });
        // A virtualised table scrolls only once its client code runs (its hydration marker).
        await page.waitForFunction(
          () => !document.querySelector('[data-testid="compare-spans-scroll"]') || document.documentElement.dataset.hydrated === 'compare',
          null,
          { timeout: 120_000 },
        );
        const tUsable = performance.now();
        const drawn = await page.locator('[data-testid="compare-span"]').count();
        // The browser's count: a document of megabytes is evicted from the protocol's cache before it could be read.
        const bytes = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).decodedBodySize);
        await scrollToEnd(page);
        // A virtualised table marks its last row; a table drawn whole ends with it.
        const virtual = (await page.locator('[data-testid="compare-spans-scroll"]').count()) > 0;
        const last = virtual ? page.locator('[data-testid="compare-span"][data-last]') : page.locator('[data-testid="compare-span"]').last();
        await last.waitFor({ state: 'visible', timeout: 120_000 });
        const tEnd = performance.now();
        if (i >= 0) {
          documentBytes = Math.max(documentBytes, bytes);
          rowsDrawn = Math.max(rowsDrawn, drawn);
          first.push(tFirst - t0);
          usable.push(tUsable - t0);
          end.push(tEnd - t0);
        }
      } catch (err) {
        if (i >= 0) errors++;
        ctx.log(`  compare load failed: ${(err as Error).message}`);
      } finally {
        await context.close();
      }
    }
    const wallMs = performance.now() - started;
    const summary = summarize(usable, wallMs, errors);
    const figures: ComparePageFigures = {
      spans: options.spans,
      loads: usable.length,
      documentBytes,
      rowsDrawn,
      firstRowMedianMs: summarize(first, wallMs).medianMs,
      usableMedianMs: summary.medianMs,
      usableP95Ms: summary.p95Ms,
      endMedianMs: summarize(end, wallMs).medianMs,
    };
    ctx.log(
      `  compare ${options.spans} + ${options.spans} spans: document ${documentBytes} bytes, ${rowsDrawn} span rows drawn; first row median ${figures.firstRowMedianMs.toFixed(0)} ms; ` +
        `usable median ${figures.usableMedianMs.toFixed(0)} ms, p95 ${figures.usableP95Ms.toFixed(0)} ms; end reached median ${figures.endMedianMs.toFixed(0)} ms (${figures.loads} cold loads)`,
    );
    return { db: ctx.db, group: 'compare', name: `GET /traces/compare ${options.spans} + ${options.spans} spans, cold`, clients: 1, storedTraces: ctx.storedTraces, summary, comparePage: figures };
  } finally {
    await browser.close();
  }
}

export function comparePageTable(results: ScenarioResult[]): string {
  const head = '| db | spans per run | cold loads | HTML document bytes | span rows drawn | first row median ms | usable median ms | usable p95 ms | end reached median ms |';
  const sep = '|---|---:|---:|---:|---:|---:|---:|---:|---:|';
  const lines = results
    .filter((r) => r.comparePage)
    .map((r) => {
      const p = r.comparePage!;
      return `| ${r.db} | ${p.spans} | ${p.loads} | ${p.documentBytes} | ${p.rowsDrawn} | ${p.firstRowMedianMs.toFixed(0)} | ${p.usableMedianMs.toFixed(0)} | ${p.usableP95Ms.toFixed(0)} | ${p.endMedianMs.toFixed(0)} |`;
    });
  return [head, sep, ...lines].join('\n');
}
