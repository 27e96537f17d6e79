import { defineConfig } from '@playwright/test';

// The e2e suite runs against a production build (`npm run build` with
// NEXT_DIST_DIR=.next-e2e) served by `next start` on an embedded database of its own.
const port = Number(process.env.E2E_PORT || 3100);
export const E2E_API_KEY = 'e2e-test-key';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    // Each port gets its own embedded database, wiped before the run. (Deleting a shared
    // directory would also delete a running server's lock file and let two servers in.)
    command: `rm -rf .data/e2e-${port} && npx next start -p ${port} -H 127.0.0.1`,
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || '.next-e2e',
      PGLITE_DATA_DIR: `.data/e2e-${port}/pglite`,
      NEXT_TELEMETRY_DISABLED: '1',
      API_KEYS: E2E_API_KEY,
    },
  },
});
