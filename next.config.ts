import type { NextConfig } from 'next';

const MiB = 1024 * 1024;

// MAX_BODY_BYTES as lib/env.ts getLimits() reads it (app/api/body-limits.test.ts checks they
// agree): lib/env.ts cannot be loaded here, Next's config loader does not resolve its `@/`
// JSON import. An invalid value is lib/env.ts's to refuse; the default stands in here.
const configuredMaxBody = Number(process.env.MAX_BODY_BYTES?.trim() || NaN);
const maxBodyBytes = Number.isInteger(configuredMaxBody) && configuredMaxBody >= 1 ? configuredMaxBody : 10 * MiB;

const nextConfig: NextConfig = {
  // soap and PGlite (WASM + data files) must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ['soap', '@electric-sql/pglite', 'pglite-prisma-adapter'],
  poweredByHeader: false,
  // Lets the e2e run and the benchmark build into their own folder beside a dev server.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  experimental: {
    // For the routes proxy.ts runs on (not the large-body endpoints, see its matcher), Next
    // buffers each request body for it and silently truncates the copy the route reads at
    // this size (10 MiB by default, MAX_BODY_BYTES' default too), dropping the whole socket
    // read that crosses it: a chunked body over the limit reached the route cut to at most
    // the limit and was answered 400 invalid JSON. A margin larger than any one read
    // (64 KiB) lets lib/http/body.ts see it is over.
    proxyClientMaxBodySize: maxBodyBytes + MiB,
  },
};

export default nextConfig;
