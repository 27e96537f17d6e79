import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // Server modules import 'server-only' so that a client component importing one fails
      // the build; tests run them on the server side, as Next does.
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules', '.next*', 'e2e', 'lib/generated'],
    environment: 'node',
    setupFiles: ['test/support/config-reset.ts'],
    // Each integration file opens its own databases (PGlite in memory, a fresh
    // PostgreSQL database); two cores, so keep the worker count small.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
