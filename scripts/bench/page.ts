// The trace detail page in a real browser: headless Chromium (the system's, as the e2e
// suite runs it) loads /traces/{id} of the 10,000-span detail trace, cold each time (a
// fresh browser context: no HTTP cache, no storage but the session cookie), and clicks a
// span row. Measured per load: the HTML document's bytes, when the tree's first span row
// is on screen, and when a click on a span row has shown its lazily loaded details
// (time to interactive, from the start of the navigation). Issue 25's targets: < 1.5 s
// and < 512,000 bytes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type CDPSession } from '@playwright/test';
import { summarize } from './stats';
import type { Ctx, ScenarioResult } from './scenarios';

export interface PageFigures {
  spans: number;
  loads: number;
  documentBytes: number;
  /** Navigation start to the first span row on screen, ms. */
  treeMedianMs: number;
  treeP95Ms: number;
  /** Navigation start to a clicked span row's details shown (its payloads loaded), ms. */
  interactiveMedianMs: number;
  interactiveP95Ms: number;
  /** Time from the click to the details shown, ms. */
  clickMedianMs: number;
  /** Median per phase, ms from navigation start (the browser's own clock): where the time goes. */
  phases: PhaseFigures;
}

/** When each step of a load ended, ms from navigation start, as the page's Performance API saw it. */
export interface PhaseFigures {
  /** The HTML document fully received. */
  documentMs: number;
  /** The last script of the page received. */
  scriptsMs: number;
  /** The outline request sent, and its answer fully received (null: the outline came inside the page). */
  outlineStartMs: number | null;
  outlineEndMs: number | null;
  /** The page's client code hydrated (its effects ran). */
  hydratedMs: number;
  /** The second span row in the document. */
  rowMs: number;
  /** How the outline was asked for, per request ("link": the preload; "fetch": the page's code). */
  outlineRequests?: string;
}

// Marks, in the page's clock, when the page hydrated and when the tree's second span row
// appeared: the bench's own clock includes the protocol's round trips.
const MARK_SCRIPT = `(() => {
  const marks = (window.__benchMarks = {});
  const seen = () => {
    if (marks.hydratedMs === undefined && document.documentElement && document.documentElement.dataset.hydrated) marks.hydratedMs = performance.now();
    if (marks.rowMs === undefined && document.querySelectorAll('[role="treeitem"][data-key^="s:"]').length > 1) marks.rowMs = performance.now();
    if (marks.hydratedMs !== undefined && marks.rowMs !== undefined) observer.disconnect();
  };
  const observer = new MutationObserver(seen);
  observer.observe(document, { attributes: true, childList: true, subtree: true });
})();`;

// The renderer's main-thread tasks, network and paint: enough to tell where a load's time goes.
const TRACE_CATEGORIES = ['devtools.timeline', 'blink.user_timing', 'loading', 'netlog', 'v8.execute', 'disabled-by-default-devtools.timeline'];

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export async function signedInState(browser: Browser, baseUrl: string, admin: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/traces$/);
  const state = await context.storageState();
  await context.close();
  return state;
}

export async function pageScenario(
  ctx: Ctx,
  options: {
    traceId: string;
    spans: number;
    loads: number;
    admin: { email: string; password: string };
    /** --profile: the last load's Chromium trace and JS CPU profile are written here (see bench/page-profile.ts). */
    profileDir?: string;
  },
): Promise<ScenarioResult> {
  const baseUrl = ctx.server.baseUrl;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const state = await signedInState(browser, baseUrl, options.admin);
    const url = `/traces/${encodeURIComponent(options.traceId)}`;
    const tree: number[] = [];
    const interactive: number[] = [];
    const click: number[] = [];
    const phases: PhaseFigures[] = [];
    let documentBytes = 0;
    let errors = 0;
    const started = performance.now();
    // One load first, not counted: the server's first render of the page compiles its code.
    for (let i = -1; i < options.loads; i++) {
      const context = await browser.newContext({ baseURL: baseUrl, storageState: state, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(MARK_SCRIPT);
      const profiling = options.profileDir && i === options.loads - 1;
      let cdp: CDPSession | undefined;
      if (profiling) {
        cdp = await context.newCDPSession(page);
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
        await cdp.send('Profiler.start');
        await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      }
      try {
        const t0 = performance.now();
        const response = await page.goto(url, { waitUntil: 'commit' });
        if (!response || response.status() !== 200) throw new Error(`GET ${url}: HTTP ${response?.status()}`);
        const bytes = (await response.body()).length;
        // The second row is a span below the root (the tree opens expanded).
        const row = page.locator('[role="treeitem"][data-key^="s:"]').nth(1);
        await row.waitFor({ state: 'visible', timeout: 30_000 });
        const tTree = performance.now();
        // A click before hydration does nothing: click until the details answer.
        await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'detail', null, { timeout: 30_000 });
        const tClick = performance.now();
        await row.click();
        await page.getByTestId('span-payloads').waitFor({ state: 'visible', timeout: 30_000 });
        const tDone = performance.now();
        const phase = await page.evaluate(() => {
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
          const scripts = resources.filter((r) => r.initiatorType === 'script' || /\.js(\?|$)/.test(r.name));
          const outlines = resources.filter((r) => /\/outline(\?|$)/.test(r.name));
          const outline = outlines[0];
          const marks = (window as unknown as { __benchMarks: { hydratedMs?: number; rowMs?: number } }).__benchMarks;
          return {
            documentMs: nav.responseEnd,
            scriptsMs: Math.max(0, ...scripts.map((r) => r.responseEnd)),
            outlineStartMs: outline ? outline.startTime : null,
            outlineEndMs: outline ? outline.responseEnd : null,
            hydratedMs: marks.hydratedMs ?? NaN,
            rowMs: marks.rowMs ?? NaN,
            outlineRequests: outlines.map((r) => r.initiatorType).join(','),
          };
        });
        if (profiling && cdp) {
          const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
          writeFileSync(path.join(options.profileDir!, `page-${ctx.db}.cpuprofile`), JSON.stringify(profile));
          writeFileSync(path.join(options.profileDir!, `page-${ctx.db}.trace.json`), await browser.stopTracing());
          ctx.log(`  page profile of the last load: ${path.join(options.profileDir!, `page-${ctx.db}.{cpuprofile,trace.json}`)}`);
        }
        if (i >= 0) {
          phases.push(phase);
          documentBytes = Math.max(documentBytes, bytes);
          tree.push(tTree - t0);
          interactive.push(tDone - t0);
          click.push(tDone - tClick);
        }
      } catch (err) {
        if (i >= 0) errors++;
        ctx.log(`  page load failed: ${(err as Error).message}`);
      } finally {
        await context.close();
      }
    }
    const wallMs = performance.now() - started;
    const treeSummary = summarize(tree, wallMs);
    const summary = summarize(interactive, wallMs, errors);
    const figures: PageFigures = {
      spans: options.spans,
      loads: interactive.length,
      documentBytes,
      treeMedianMs: treeSummary.medianMs,
      treeP95Ms: treeSummary.p95Ms,
      interactiveMedianMs: summary.medianMs,
      interactiveP95Ms: summary.p95Ms,
      clickMedianMs: summarize(click, wallMs).medianMs,
      phases: medianPhases(phases),
    };
    ctx.log(
      `  page ${options.spans} spans: document ${documentBytes} bytes; tree shown median ${figures.treeMedianMs.toFixed(0)} ms; ` +
        `interactive median ${figures.interactiveMedianMs.toFixed(0)} ms, p95 ${figures.interactiveP95Ms.toFixed(0)} ms (${figures.loads} cold loads)`,
    );
    ctx.log(`  page phases (median ms from navigation start): ${phaseLine(figures.phases)}`);
    return { db: ctx.db, group: 'page', name: `GET /traces/{id} ${options.spans} spans, cold, click a span`, clients: 1, storedTraces: ctx.storedTraces, summary, page: figures };
  } finally {
    await browser.close();
  }
}

function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
}

function medianPhases(loads: PhaseFigures[]): PhaseFigures {
  const of = (f: (p: PhaseFigures) => number | null) => median(loads.map(f).filter((v): v is number => v !== null));
  const outline = loads.some((p) => p.outlineStartMs !== null);
  return {
    documentMs: of((p) => p.documentMs),
    scriptsMs: of((p) => p.scriptsMs),
    outlineStartMs: outline ? of((p) => p.outlineStartMs) : null,
    outlineEndMs: outline ? of((p) => p.outlineEndMs) : null,
    hydratedMs: of((p) => p.hydratedMs),
    rowMs: of((p) => p.rowMs),
    outlineRequests: [...new Set(loads.map((p) => p.outlineRequests))].join(' / '),
  };
}

function phaseLine(p: PhaseFigures): string {
  const f = (v: number | null) => (v === null ? '-' : v.toFixed(0));
  return `document ${f(p.documentMs)}, scripts ${f(p.scriptsMs)}, outline ${f(p.outlineStartMs)}→${f(p.outlineEndMs)}, hydrated ${f(p.hydratedMs)}, second row ${f(p.rowMs)}; outline requests by ${p.outlineRequests || 'none'}`;
}

export function pageTable(results: ScenarioResult[]): string {
  const head = '| db | spans | cold loads | HTML document bytes | tree shown median ms | tree shown p95 ms | interactive median ms | interactive p95 ms | click → details median ms |';
  const sep = '|---|---:|---:|---:|---:|---:|---:|---:|---:|';
  const lines = results
    .filter((r) => r.page)
    .map((r) => {
      const p = r.page!;
      return `| ${r.db} | ${p.spans} | ${p.loads} | ${p.documentBytes} | ${p.treeMedianMs.toFixed(0)} | ${p.treeP95Ms.toFixed(0)} | ${p.interactiveMedianMs.toFixed(0)} | ${p.interactiveP95Ms.toFixed(0)} | ${p.clickMedianMs.toFixed(0)} |`;
    });
  return [head, sep, ...lines].join('\n');
}
