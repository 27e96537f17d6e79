// The security headers every response carries, pages and API alike (e2e/headers.spec.ts
// checks them on the production build, and that every page still renders and hydrates
// under the policy).
import { afterEach, describe, expect, it, vi } from 'vitest';
import nextConfig from '@/next.config';

async function headersFor(config: typeof nextConfig): Promise<Record<string, string>> {
  const rules = (await config.headers?.()) ?? [];
  const all = rules.filter((r) => r.source === '/:path*');
  expect(all).toHaveLength(1);
  return Object.fromEntries(all[0].headers.map((h) => [h.key, h.value]));
}

/** The policy's directives by name. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe('next.config.ts headers', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('on every path: nosniff, no framing at all, and a content security policy', async () => {
    const headers = await headersFor(nextConfig);
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['X-Frame-Options']).toBe('DENY');
    const csp = directives(headers['Content-Security-Policy']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    // Next's inline bootstrap scripts carry no nonce (see the comment in next.config.ts).
    expect(csp['script-src']).toEqual(["'self'", "'unsafe-inline'"]);
    // Plain HTTP on a LAN is supported: nothing may be upgraded to HTTPS.
    expect(csp).not.toHaveProperty('upgrade-insecure-requests');
  });

  it("allows eval to scripts in development only (React's dev tooling needs it)", async () => {
    vi.stubEnv('NODE_ENV', 'development');
    vi.resetModules();
    const dev = (await import('@/next.config')).default;
    expect(directives((await headersFor(dev))['Content-Security-Policy'])['script-src']).toEqual(["'self'", "'unsafe-inline'", "'unsafe-eval'"]);
  });
});
