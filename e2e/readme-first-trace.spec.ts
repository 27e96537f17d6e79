// The README's first trace, sent by its own curl command (read from README.md, pointed at
// this server with its key): dated now, so it is on the list's first page, tagged
// getting-started (not demo), and its timeline shows the whole 2 s run, not the part
// before the decision.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { E2E_API_KEY } from '../playwright.config';
import { expect, open, shotPath, test } from './viewer-helpers';

function readmeCommand(baseURL: string, id: string): string {
  const readme = readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const block = /```sh\n(NOW=[\s\S]*?curl -s http:\/\/localhost:3000\/api\/traces \\[\s\S]*?)\n# \{"success":true,"count":1\}/.exec(readme);
  if (!block) throw new Error("README.md: the first trace's command was not found");
  return block[1]
    .replace('http://localhost:3000', baseURL)
    .replace('Bearer dev-key', `Bearer ${E2E_API_KEY}`)
    .replace('"id":"hello-1"', `"id":"${id}"`);
}

test("the README's first trace is on the first page, tagged getting-started, and its timeline shows the whole run", async ({ page, baseURL }) => {
  const id = `hello-${Date.now()}`;
  const answer = execFileSync('bash', ['-c', readmeCommand(baseURL!, id)], { encoding: 'utf8' });
  expect(JSON.parse(answer)).toEqual({ success: true, count: 1 });

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await open(page, '/traces?tag=getting-started');
    await expect(page.locator(`a[href="/traces/${id}"]:visible`).first()).toBeVisible();

    await open(page, `/traces/${id}`);
    // Tags sit in the header's folded part: open it (the choice is remembered, so only when closed).
    const more = page.getByTestId('header-more-toggle');
    if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
    await expect(page.locator('#trace-header-more').getByText('getting-started')).toBeVisible();
    await expect(page.getByText('Ended').locator('..')).not.toContainText('—');
    // One 2 s agent span and a decision at 0.5 s: nothing is left off the axis.
    await expect(page.getByRole('treeitem').first()).toBeVisible();
    await expect(page.getByRole('button', { name: /Show all \(\d+ outliers? left out\)/ })).toHaveCount(0);
    await expect(page.getByTestId('view-range')).toHaveText('');
    await page.screenshot({ path: shotPath(`readme-first-trace-${width}-light`) });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: shotPath(`readme-first-trace-${width}-dark`) });
    await page.emulateMedia({ colorScheme: 'light' });
  }
});
