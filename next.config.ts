import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // soap and PGlite (WASM + data files) must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ['soap', '@electric-sql/pglite', 'pglite-prisma-adapter'],
  poweredByHeader: false,
};

export default nextConfig;
