// SSO's configuration and who may join (pure), and the one piece of SSO that is ours
// around Better Auth: a provider unreachable when the server starts is picked up later.
// The whole flow, through a real provider in a browser, is e2e/sso.spec.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { useDatabase } from '@/lib/db';
import { getAccessConfig, type OidcConfig } from '@/lib/core/config';
import { testDatabases } from '@/test/support/databases';
import { resetAuth, ssoMayJoin } from '@/lib/features/access/auth';
import { resetAccessMode } from '@/lib/features/access/mode';

const ISSUER = 'https://idp.example.test/realms/main';

/** The SSO configuration as the server reads it from these variables. */
function oidcFrom(env: Record<string, string>): OidcConfig {
  vi.stubEnv('OIDC_ISSUER', ISSUER);
  vi.stubEnv('OIDC_CLIENT_ID', 'crossroads');
  vi.stubEnv('OIDC_CLIENT_SECRET', 'secret');
  vi.stubEnv('OIDC_ALLOWED_DOMAINS', '');
  vi.stubEnv('OIDC_ALLOWED_EMAILS', '');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const { oidc } = getAccessConfig();
  if (!oidc) throw new Error('expected an OIDC configuration');
  return oidc;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('getAccessConfig: OIDC', () => {
  it('is off without OIDC_ISSUER', () => {
    vi.stubEnv('OIDC_ISSUER', '');
    vi.stubEnv('OIDC_CLIENT_ID', 'crossroads');
    vi.stubEnv('OIDC_CLIENT_SECRET', 'secret');
    expect(getAccessConfig().oidc).toBeUndefined();
  });

  it.each([
    ['no client id', { OIDC_CLIENT_ID: '' }],
    ['no client secret', { OIDC_CLIENT_SECRET: '' }],
    ['a blank client id', { OIDC_CLIENT_ID: '   ' }],
    ['neither', { OIDC_CLIENT_ID: '', OIDC_CLIENT_SECRET: '' }],
  ])('refuses OIDC_ISSUER with %s', (_, env) => {
    vi.stubEnv('OIDC_ISSUER', ISSUER);
    vi.stubEnv('OIDC_CLIENT_ID', 'crossroads');
    vi.stubEnv('OIDC_CLIENT_SECRET', 'secret');
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    expect(() => getAccessConfig()).toThrow('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  });

  it('reads the issuer without trailing slashes (the discovery URL is built from it)', () => {
    expect(oidcFrom({ OIDC_ISSUER: `  ${ISSUER}//  ` })).toMatchObject({ issuer: ISSUER, clientId: 'crossroads', clientSecret: 'secret' });
  });

  it('lower-cases and trims the lists, drops empty entries and the @ before a domain', () => {
    const oidc = oidcFrom({ OIDC_ALLOWED_DOMAINS: ' SSO.test, ,@Partner.Test,', OIDC_ALLOWED_EMAILS: 'Grace@Elsewhere.TEST ,, bob@x.test' });
    expect(oidc.allowedDomains).toEqual(['sso.test', 'partner.test']);
    expect(oidc.allowedEmails).toEqual(['grace@elsewhere.test', 'bob@x.test']);
  });

  it('has empty lists when neither is set', () => {
    vi.stubEnv('OIDC_ALLOWED_DOMAINS', undefined);
    const oidc = oidcFrom({});
    expect(oidc.allowedDomains).toEqual([]);
    expect(oidc.allowedEmails).toEqual([]);
  });
});

describe('ssoMayJoin', () => {
  it('lets anyone the provider vouches for join when both lists are empty', () => {
    const oidc = oidcFrom({});
    expect(ssoMayJoin(oidc, 'anyone@anywhere.test')).toBe(true);
  });

  it('admits the allowed domains exactly: no other domain, no subdomain, no look-alike suffix', () => {
    const oidc = oidcFrom({ OIDC_ALLOWED_DOMAINS: 'sso.test' });
    expect(ssoMayJoin(oidc, 'ada@sso.test')).toBe(true);
    expect(ssoMayJoin(oidc, 'ada@elsewhere.test')).toBe(false);
    expect(ssoMayJoin(oidc, 'ada@eu.sso.test')).toBe(false);
    expect(ssoMayJoin(oidc, 'ada@notsso.test')).toBe(false);
    expect(ssoMayJoin(oidc, 'ada@sso.test.evil.test')).toBe(false);
  });

  it('judges the domain after the last @', () => {
    const oidc = oidcFrom({ OIDC_ALLOWED_DOMAINS: 'sso.test' });
    expect(ssoMayJoin(oidc, 'sso.test@evil.test')).toBe(false);
    expect(ssoMayJoin(oidc, 'ada@sso.test@evil.test')).toBe(false);
    expect(ssoMayJoin(oidc, '"odd@name"@sso.test')).toBe(true);
  });

  it('refuses a claimed email that is not an address at all', () => {
    const oidc = oidcFrom({ OIDC_ALLOWED_DOMAINS: 'sso.test', OIDC_ALLOWED_EMAILS: 'grace@partner.test' });
    expect(ssoMayJoin(oidc, 'sso.test')).toBe(false);
    expect(ssoMayJoin(oidc, '@sso.test')).toBe(false);
    expect(ssoMayJoin(oidc, '')).toBe(false);
  });

  it('ignores case and surrounding spaces, in the lists and in the claimed email', () => {
    const oidc = oidcFrom({ OIDC_ALLOWED_DOMAINS: 'SSO.Test', OIDC_ALLOWED_EMAILS: 'Grace@Partner.TEST' });
    expect(ssoMayJoin(oidc, 'Ada@SSO.TEST')).toBe(true);
    expect(ssoMayJoin(oidc, '  ada@sso.test ')).toBe(true);
    expect(ssoMayJoin(oidc, 'GRACE@partner.test')).toBe(true);
  });

  it('accepts a domain written with its @', () => {
    const oidc = oidcFrom({ OIDC_ALLOWED_DOMAINS: '@sso.test' });
    expect(ssoMayJoin(oidc, 'ada@sso.test')).toBe(true);
  });

  it('admits listed emails one by one, not their whole domain', () => {
    const oidc = oidcFrom({ OIDC_ALLOWED_EMAILS: 'grace@partner.test' });
    expect(ssoMayJoin(oidc, 'grace@partner.test')).toBe(true);
    expect(ssoMayJoin(oidc, 'mallory@partner.test')).toBe(false);
    expect(ssoMayJoin(oidc, 'ada@sso.test')).toBe(false);
  });

  it('admits either list when both are set', () => {
    const oidc = oidcFrom({ OIDC_ALLOWED_DOMAINS: 'sso.test', OIDC_ALLOWED_EMAILS: 'grace@partner.test' });
    expect(ssoMayJoin(oidc, 'ada@sso.test')).toBe(true);
    expect(ssoMayJoin(oidc, 'grace@partner.test')).toBe(true);
    expect(ssoMayJoin(oidc, 'mallory@partner.test')).toBe(false);
  });
});

describe.each(testDatabases())('SSO with a provider that starts after the server, on $name', ({ open }) => {
  const ORIGIN = 'http://crossroads.test:3000';
  let up = false;
  let discoveryReads = 0;
  let issuer = '';
  const idp = http.createServer((req, res) => {
    if (req.url !== '/.well-known/openid-configuration') return void res.writeHead(404).end();
    discoveryReads += 1;
    if (!up) return void res.writeHead(503).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/me`,
        jwks_uri: `${issuer}/jwks`,
        id_token_signing_alg_values_supported: ['RS256'],
      }),
    );
  });

  let close: () => Promise<void>;
  beforeAll(async () => {
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    const db = await open();
    close = () => db.close();
    useDatabase(db);
    resetAuth();
    resetAccessMode();
    // Better Auth logs each failed discovery and each sign-in for a provider it lacks.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  beforeEach(() => {
    vi.stubEnv('OIDC_ISSUER', issuer);
    vi.stubEnv('OIDC_CLIENT_ID', 'crossroads');
    vi.stubEnv('OIDC_CLIENT_SECRET', 'secret');
  });
  afterAll(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    resetAuth();
    resetAccessMode();
    await close();
    await new Promise((resolve) => idp.close(resolve));
  });

  /** The SSO button's request. */
  const startSso = () =>
    authPost(
      new Request(`${ORIGIN}/api/auth/sign-in/social`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({ provider: 'oidc', callbackURL: '/traces/t1?tab=events', disableRedirect: true }),
      }),
      { params: Promise.resolve({ all: ['sign-in', 'social'] }) },
    );

  it('reads the discovery document again on a later request, and then sends people to the provider', async () => {
    expect((await startSso()).status).toBe(404);
    expect(discoveryReads).toBe(1);

    // The provider is up now; the next read waits for the retry delay (5 s).
    up = true;
    expect((await startSso()).status).toBe(404);
    expect(discoveryReads).toBe(1);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 5_001);
    // The request that finds the retry due starts a new instance; the old one answers meanwhile.
    let res = await startSso();
    // Building the new instance and reading discovery took over the default 1 s on a loaded machine.
    await vi.waitFor(
      async () => {
        res = await startSso();
        expect(res.status).toBe(200);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(discoveryReads).toBe(2);

    const { url } = (await res.json()) as { url: string };
    const authorize = new URL(url);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${issuer}/auth`);
    const q = Object.fromEntries(authorize.searchParams);
    expect(q).toMatchObject({
      client_id: 'crossroads',
      response_type: 'code',
      // Built from the request's host: no base URL to configure.
      redirect_uri: `${ORIGIN}/api/auth/callback/oidc`,
      code_challenge_method: 'S256',
    });
    expect(q.scope.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
    expect(q.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(q.state).toBeTruthy();
    expect(q.nonce).toBeTruthy();

    // Once SSO is there, it is not read again.
    vi.setSystemTime(Date.now() + 60_000);
    expect((await startSso()).status).toBe(200);
    expect(discoveryReads).toBe(2);
  });
});
