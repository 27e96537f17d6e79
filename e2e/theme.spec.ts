// The theme switch: the system's colour scheme until a person picks light or dark, the
// pick remembered in this browser (applied before the first paint, so a reload never
// flashes the other scheme), and "System" following the system again.
import { contrastProblems, expect, open, shotPath, test } from './viewer-helpers';

const LIGHT_BG = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(11, 17, 32)';

const bodyBackground = (page: import('@playwright/test').Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

for (const width of [1440, 390]) {
  test(`at ${width} px a chosen theme overrides the system's, survives a reload before the first paint, and System follows the system again`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await open(page, '/traces');
    const picker = page.getByRole('combobox', { name: 'Theme' });
    await expect(picker).toBeVisible();
    await expect(picker).toHaveValue('system');
    expect(await bodyBackground(page)).toBe(DARK_BG);

    // Light, against a dark system.
    await picker.selectOption('light');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect.poll(() => bodyBackground(page)).toBe(LIGHT_BG);
    expect(await contrastProblems(page)).toEqual([]);
    await page.screenshot({ path: shotPath(`theme-light-on-dark-system-${width}`) });

    // Remembered, and set before anything paints: the document's first state already has it.
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('light');
    expect(await bodyBackground(page)).toBe(LIGHT_BG);
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('light');

    // Dark, against a light system, on another page (the choice is the browser's, not the page's).
    await page.emulateMedia({ colorScheme: 'light' });
    await open(page, '/insights');
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    await expect.poll(() => bodyBackground(page)).toBe(DARK_BG);
    // Tailwind's dark: variant follows the choice as the colours do.
    await expect
      .poll(() => page.locator('.insights-root').evaluate((el) => getComputedStyle(el).getPropertyValue('--ch-traces').trim()))
      .toBe('#60a5fa');
    expect(await contrastProblems(page)).toEqual([]);
    await page.screenshot({ path: shotPath(`theme-dark-on-light-system-${width}`) });

    // System again: it follows the system as it changes.
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
    await expect.poll(() => bodyBackground(page)).toBe(LIGHT_BG);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => bodyBackground(page)).toBe(DARK_BG);
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('system');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}
