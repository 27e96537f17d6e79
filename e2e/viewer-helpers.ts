// Fixtures for the viewer's end-to-end tests: a console guard that fails a test on
// any console error (hydration warnings included), layout-shift measurement, and the
// ingest call through the real API.
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_API_KEY } from '../playwright.config';
import type { TraceInput } from './fixtures';

export interface ConsoleGuard {
  /** Console errors matching this pattern are expected in the current test. */
  allow(pattern: RegExp): void;
  errors: string[];
}

export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      page.on('console', (msg) => {
        const text = msg.text();
        const where = msg.location().url ? ` (${msg.location().url})` : '';
        if (msg.type() === 'error' || /hydrat/i.test(text)) errors.push(`[console.${msg.type()}] ${text}${where}`);
      });
      page.on('pageerror', (err) => errors.push(`[pageerror] ${err.message}`));
      // Chromium's "Failed to load resource" does not say which; record it beside.
      page.on('response', (res) => {
        if (res.status() >= 400) errors.push(`[response ${res.status()}] ${res.url()}`);
      });
      await use({ allow: (p) => allowed.push(p), errors });
      const unexpected = errors.filter((e) => !allowed.some((p) => p.test(e)));
      expect(unexpected, 'console errors during the test').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Ingests through POST /api/traces with the e2e server's key (or `key`, for another server). */
export async function postTraces(request: APIRequestContext, traces: TraceInput[], key = E2E_API_KEY): Promise<void> {
  const res = await request.post('/api/traces', {
    headers: { authorization: `Bearer ${key}` },
    data: { traces },
    timeout: 120_000,
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Starts summing the page's cumulative layout shift (call before goto). */
export async function watchLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

export async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __cls: number }).__cls);
}

/** Opens a page of the app and waits until its view has hydrated (handlers attached). */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

export async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

/** Names of the rows in the trace table, in order. */
export async function rowNames(page: Page): Promise<string[]> {
  return page.locator('tbody a[data-row-link]').allTextContents();
}

/** A stable file name in this test's output folder (test-results/…). */
export function shotPath(name: string): string {
  return test.info().outputPath(`${name}.png`);
}

/**
 * WCAG AA contrast of every visible text on the page: 4.5:1, or 3:1 for large text.
 * Colours are resolved through a canvas (Tailwind 4 writes oklch), backgrounds by
 * compositing the element's ancestors. Returns the failures, described.
 */
export async function contrastProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    const cache = new Map<string, [number, number, number, number]>();
    const rgba = (css: string): [number, number, number, number] => {
      const hit = cache.get(css);
      if (hit) return hit;
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const d = ctx.getImageData(0, 0, 1, 1).data;
      const out: [number, number, number, number] = [d[0], d[1], d[2], d[3] / 255];
      cache.set(css, out);
      return out;
    };
    const over = (top: number[], bottom: number[]) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3]));
    const luminance = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (el: Element): number[] => {
      const layers: Array<[number, number, number, number]> = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let base = [255, 255, 255];
      if (!layers.length || layers[layers.length - 1][3] < 1) base = rgba(getComputedStyle(document.body).backgroundColor).slice(0, 3);
      for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
      return base;
    };
    const problems = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const el = node.parentElement;
      if (!text || !el) continue;
      if (el.closest('[aria-hidden="true"], .sr-only, [hidden], script, style, noscript, [aria-disabled="true"], :disabled')) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || rect.bottom < 0 || rect.top > innerHeight) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      let faded = false;
      for (let e: Element | null = el; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) faded = true;
      if (faded) continue;
      const fg = rgba(style.color);
      const bg = background(el);
      const color = over(fg, bg);
      const [l1, l2] = [luminance(color), luminance(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) problems.add(`${ratio.toFixed(2)}:1 “${text.slice(0, 40)}” (${style.color} on rgb(${bg.map(Math.round).join(',')}))`);
    }
    return [...problems];
  });
}
