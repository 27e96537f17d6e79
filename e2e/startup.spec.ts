// A production server with a bad configuration value stops at start, naming the variable,
// instead of answering 500 to its first request (instrumentation.ts, lib/core/startup.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT || 3100) + 9;

test('next start with MAX_BODY_BYTES=ten stops with a message naming it', async () => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crossroads-startup-'));
  try {
    const child = spawn('npx', ['next', 'start', '-p', String(PORT), '-H', '127.0.0.1'], {
      env: {
        ...process.env,
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || '.next-e2e',
        NEXT_TELEMETRY_DISABLED: '1',
        PGLITE_DATA_DIR: path.join(dataDir, 'pglite'),
        MAX_BODY_BYTES: 'ten',
        API_KEYS: '',
        ADMIN_EMAIL: '',
        OIDC_ISSUER: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code, output).not.toBe(0);
    expect(output).toContain('[crossroads] configuration error: MAX_BODY_BYTES must be an integer >= 1, got "ten". The server stops.');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
