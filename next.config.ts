import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // soap and PGlite (WASM + data files) must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ['soap', '@electric-sql/pglite', 'pglite-prisma-adapter'],
  poweredByHeader: false,
  // Lets the e2e run and the benchmark build into their own folder beside a dev server.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
