import { defineConfig } from '@playwright/test';

// The e2e suite runs against a production build (`npm run build` with
// NEXT_DIST_DIR=.next-e2e) served by `next start` on an embedded database of its own.
// Three servers: the main one is protected (API keys, a bootstrap admin, SSO through a
// local OpenID Connect provider that the SSO test starts on OIDC_PORT); the second runs
// in open mode (nothing configured), for what a newcomer sees; the third is protected only
// by a person in its database (seeded before it starts, no access variable set).
const port = Number(process.env.E2E_PORT || 3100);
export const OPEN_MODE_PORT = port + 1;
export const OIDC_PORT = port + 2;
export const DB_ONLY_PORT = port + 3;
export const E2E_API_KEY = 'e2e-test-key';
export const E2E_ADMIN = { email: 'admin@crossroads.test', password: 'e2e-admin-password' };
/** The admin seeded into the database of the DB_ONLY_PORT server (e2e/seed-db-user.ts). */
export const DB_ONLY_ADMIN = { email: 'db-admin@crossroads.test', password: 'e2e-db-admin-password' };
export const OIDC_CLIENT = { id: 'crossroads-e2e', secret: 'e2e-oidc-secret' };
/** Who may join through SSO on the e2e server. */
export const OIDC_ALLOWED_DOMAIN = 'sso.test';
/** Signed-in admin session for the tests that need one (made by e2e/auth.setup.ts). */
export const ADMIN_STATE = 'test-results/.auth/admin.json';

const distDir = process.env.NEXT_DIST_DIR || '.next-e2e';

/** `seed`: a command run on the fresh database before the server opens it (it must close it). */
function server(serverPort: number, env: Record<string, string>, seed?: string) {
  return {
    // Each port gets its own embedded database, wiped before the run. (Deleting a shared
    // directory would also delete a running server's lock file and let two servers in.)
    command: `rm -rf .data/e2e-${serverPort} && ${seed ? `${seed} && ` : ''}npx next start -p ${serverPort} -H 127.0.0.1`,
    url: `http://127.0.0.1:${serverPort}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      NEXT_DIST_DIR: distDir,
      PGLITE_DATA_DIR: `.data/e2e-${serverPort}/pglite`,
      NEXT_TELEMETRY_DISABLED: '1',
      ...env,
    },
  };
}

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
  projects: [
    // Signs in as E2E_ADMIN through /sign-in once and saves the session for the others.
    { name: 'setup', testMatch: /auth\.setup\.ts$/ },
    {
      name: 'chromium',
      testIgnore: /auth\.setup\.ts$/,
      dependencies: ['setup'],
      // The server is protected: pages need a session. Specs that test signed-out
      // visits reset it (test.use({ storageState: { cookies: [], origins: [] } })).
      use: { storageState: ADMIN_STATE },
    },
  ],
  webServer: [
    server(port, {
      API_KEYS: E2E_API_KEY,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      OIDC_ISSUER: `http://127.0.0.1:${OIDC_PORT}`,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_ALLOWED_DOMAINS: OIDC_ALLOWED_DOMAIN,
    }),
    server(OPEN_MODE_PORT, {}),
    // Access variables blank (a shell's own must not leak in): users in the database are the only protection.
    server(
      DB_ONLY_PORT,
      { API_KEYS: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '', OIDC_ISSUER: '', OIDC_CLIENT_ID: '', OIDC_CLIENT_SECRET: '' },
      `npx tsx --conditions=react-server e2e/seed-db-user.ts ${DB_ONLY_ADMIN.email} ${DB_ONLY_ADMIN.password}`,
    ),
  ],
});
