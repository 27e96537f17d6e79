import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // soap and PGlite (WASM + data files) must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ['soap', '@electric-sql/pglite', 'pglite-prisma-adapter'],
  poweredByHeader: false,
  // Lets the e2e run and the benchmark build into their own folder beside a dev server.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  experimental: {
    // Next reads the body of every request proxy.ts runs on into memory before the proxy
    // (10 MiB by default), whoever sends it. The proxy runs for pages only, which take no
    // body, so a stranger's upload to a page costs this much at most.
    proxyClientMaxBodySize: 64 * 1024,
  },
};

export default nextConfig;
