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
        if (msg.type() === 'error' || /hydrat/i.test(text)) errors.push(`[console.${msg.type()}] ${text}`);
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

export async function postTraces(request: APIRequestContext, traces: TraceInput[]): Promise<void> {
  const res = await request.post('/api/traces', {
    headers: { authorization: `Bearer ${E2E_API_KEY}` },
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
