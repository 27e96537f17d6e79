import type { NextConfig } from 'next';

// The content security policy of every response, pages and API alike. Scripts: Next's
// inline bootstrap scripts carry no nonce unless proxy.ts makes one for each page, which
// needs every page rendered per request and the proxy on every path (it is a convenience
// here, and skips the API); so 'unsafe-inline' with 'self', as Next's guide documents for
// an app without nonces. External scripts, plugins, framing and requests to other origins
// are refused. Styles: React's style attributes need 'unsafe-inline'. Development adds
// 'unsafe-eval' (React rebuilds server error stacks with eval). No
// upgrade-insecure-requests: plain HTTP on a LAN is supported.
const scriptSources = ["'self'", "'unsafe-inline'", ...(process.env.NODE_ENV === 'development' ? ["'unsafe-eval'"] : [])];
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src ${scriptSources.join(' ')}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const nextConfig: NextConfig = {
  // soap and PGlite (WASM + data files) must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ['soap', '@electric-sql/pglite', 'pglite-prisma-adapter'],
  poweredByHeader: false,
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          // frame-ancestors for browsers that predate it.
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Content-Security-Policy', value: contentSecurityPolicy },
        ],
      },
    ];
  },
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
