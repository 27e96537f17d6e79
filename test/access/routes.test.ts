// Every route of the app, found on disk (so a route added later is covered without
// touching this file), refuses an anonymous request in protected mode, except a short
// allowlist, each entry with its reason and a check that it gives nothing away. And every
// page sits under app/(app)/, whose layout runs the page check, except the sign-in page.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDatabase } from '@/lib/db';
import { getLimits } from '@/lib/core/config';
import { RpcStatus } from '@/lib/transports/otlp/proto';
import { keys, parseResult, phpEnvelope, str } from '@/test/support/soap';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { tryToParsePath } from 'next/dist/lib/try-to-parse-path';
import { config as proxyConfig, proxy } from '@/proxy';
import { makeUser, resetAccess, truncateAccess } from '@/test/support/access';
import { decodeStatus } from '@/test/support/otlp-status';
import { testContext } from '@/test/support/context';

const ROOT = path.resolve(import.meta.dirname, '../..');
const APP = path.join(ROOT, 'app');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const MISSING = { error: 'Missing or invalid Authorization header' };
/** In every stored trace, so an answer that leaks data is caught by a substring search. */
const MARKER = 'secret-marker-7f3a';

function filesNamed(dir: string, name: RegExp): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && name.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

interface RouteFile {
  file: string;
  /** The URL pattern as Next serves it: route groups dropped, dynamic segments kept ("/api/traces/[id]"). */
  pattern: string;
  /** A concrete URL path and the params Next would pass for it. */
  urlPath: string;
  params: Record<string, string | string[]>;
}

function routeFile(file: string): RouteFile {
  const segments = file.split('/').slice(1, -1).filter((s) => !/^\(.*\)$/.test(s));
  const params: Record<string, string | string[]> = {};
  const concrete = segments.map((s) => {
    const catchAll = /^\[{1,2}\.\.\.(\w+)\]{1,2}$/.exec(s);
    if (catchAll) {
      params[catchAll[1]] = ['x', 'y'];
      return 'x/y';
    }
    const dynamic = /^\[(\w+)\]$/.exec(s);
    if (dynamic) {
      params[dynamic[1]] = 'x';
      return 'x';
    }
    return s;
  });
  return { file, pattern: `/${segments.join('/')}`, urlPath: `/${concrete.join('/')}`, params };
}

const ROUTES = filesNamed(APP, /^route\.(ts|tsx|js)$/).map(routeFile);

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
const ctxOf = (params: Record<string, string | string[]>) => ({ params: Promise.resolve(params) });
const BASE = 'http://crossroads.test:3000';

async function handlerOf(route: RouteFile, method: string): Promise<Handler> {
  const mod = (await import(path.join(ROOT, route.file))) as Record<string, unknown>;
  return mod[method] as Handler;
}

/** What an anonymous caller sends: a plausible body for the methods that carry one. */
function anonymous(url: string, method: string, headers: Record<string, string> = {}): Request {
  const body = ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined;
  return new Request(url, { method, body, headers: { 'content-type': 'application/json', ...headers } });
}

async function call(route: RouteFile, method: string, subpath = route.urlPath, init: RequestInit = {}, params = route.params): Promise<Response> {
  const handler = await handlerOf(route, method);
  const headers = new Headers(init.headers);
  return handler(new Request(`${BASE}${subpath}`, { method, ...init, headers }), ctxOf(params));
}

/**
 * The only answers an anonymous caller may get, by route and method, each with why it is
 * safe and a check that it holds no data. Anything not listed here must be a 401.
 */
const ALLOWED: Record<string, { reason: string; check: (route: RouteFile) => Promise<void> }> = {
  'GET /api/health': {
    reason: 'liveness for load balancers; says status, database, version and mode only',
    async check(route) {
      const res = await call(route, 'GET');
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['auth', 'database', 'mode', 'status', 'version']);
      expect(body).toMatchObject({ status: 'ok', database: 'ok', mode: 'protected', auth: 'keys' });
    },
  },
  'GET /api/soap': {
    reason: 'the WSDL and the schema it imports: no data, fetched anonymously by legacy toolkits',
    async check(route) {
      for (const query of ['?wsdl', '?xsd=soapenc', '']) {
        const res = await call(route, 'GET', `${route.urlPath}${query}`);
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text).not.toContain(MARKER);
        if (query === '?wsdl') expect(text).toContain('<wsdl:definitions');
      }
    },
  },
  'POST /api/soap': {
    reason: 'SOAP checks the key in each envelope (callContext) and answers business status 0, never data',
    async check(route) {
      const read = phpEnvelope('read', { password: '' }, [str('publicName', 'TRACE'), keys('objectKeys', [['id', `${MARKER}-trace`]])]);
      const res = await call(route, 'POST', route.urlPath, { body: read, headers: { 'content-type': 'text/xml; charset=utf-8' } });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toContain(MARKER);
      const result = parseResult(text);
      expect(result).toMatchObject({ status: 0, resultXml: '', messages: [{ type: '3', message: 'Authentication failed' }] });
    },
  },
  'GET /api/auth/[...all]': {
    reason: "Better Auth's session read (null when signed out); every other path answers 404",
    async check(route) {
      const session = await call(route, 'GET', '/api/auth/get-session', {}, { all: ['get-session'] });
      expect(session.status).toBe(200);
      expect(await session.text()).toBe('null');
      for (const p of ['/api/auth/api-key/list', '/api/auth/list-sessions', '/api/auth/x/y']) {
        const res = await call(route, 'GET', p, {}, { all: p.split('/').slice(3) });
        expect(res.status, p).toBe(404);
      }
    },
  },
  'POST /api/auth/[...all]': {
    reason: 'sign-in (a wrong password is a 401 that holds nothing), sign-out; sign-up and key management are 404',
    async check(route) {
      const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json', origin: BASE } });
      const signIn = await call(route, 'POST', '/api/auth/sign-in/email', json({ email: 'nobody@example.test', password: 'whatever-1' }), {
        all: ['sign-in', 'email'],
      });
      expect(signIn.status).toBe(401);
      expect(signIn.headers.getSetCookie()).toEqual([]);
      const refused = [
        ['/api/auth/sign-up/email', { email: 'new@example.test', password: 'password-1', name: 'n' }],
        ['/api/auth/api-key/create', { name: 'k' }],
        ['/api/auth/api-key/verify', { key: 'cr_x' }],
        ['/api/auth/update-user', { role: 'admin' }],
        ['/api/auth/change-password', { currentPassword: 'a', newPassword: 'b' }],
        ['/api/auth/request-password-reset', { email: 'x@example.test' }],
        ['/api/auth/x/y', {}],
      ] as const;
      for (const [p, body] of refused) {
        const res = await call(route, 'POST', p, json(body), { all: p.split('/').slice(3) });
        expect({ path: p, status: res.status }).toEqual({ path: p, status: 404 });
      }
    },
  },
  ...Object.fromEntries(
    METHODS.map((method) => [
      `${method} /api/otel/[...path]`,
      {
        reason: 'OTLP paths this server does not serve (/v1/metrics): a 404 google.rpc.Status naming the traces and logs paths, no data',
        async check(route: RouteFile) {
          const res = await call(route, method, '/api/otel/v1/metrics', { headers: { 'content-type': 'application/x-protobuf' } }, { path: ['v1', 'metrics'] });
          expect(res.status).toBe(404);
          expect(decodeStatus(res.headers.get('content-type'), new Uint8Array(await res.arrayBuffer()))).toMatchObject({
            code: 5,
            message: 'Not found: /api/otel/v1/metrics (this server accepts OTLP traces at /api/otel/v1/traces and logs at /api/otel/v1/logs)',
          });
        },
      },
    ]),
  ),
};

/** OTLP routes (ours, and Langfuse's path for its SDKs) answer in their own encoding. */
const isOtlp = (pattern: string) => /^\/api\/(public\/)?otel\//.test(pattern);

/** A google.rpc.Status in either OTLP encoding. */
async function rpcStatus(res: Response): Promise<{ code: number; message: string }> {
  if (res.headers.get('content-type') === 'application/json') return (await res.json()) as { code: number; message: string };
  const decoded = RpcStatus.toObject(RpcStatus.decode(new Uint8Array(await res.arrayBuffer()))) as { code: number; message: Uint8Array };
  return { code: decoded.code, message: Buffer.from(decoded.message).toString('utf8') };
}

async function expectRefused(route: RouteFile, method: string): Promise<void> {
  const url = `${BASE}${route.urlPath}`;
  const handler = await handlerOf(route, method);
  if (isOtlp(route.pattern)) {
    // OTLP answers a google.rpc.Status (UNAUTHENTICATED) in the request's encoding.
    const proto = await handler(anonymous(url, method, { 'content-type': 'application/x-protobuf' }), ctxOf(route.params));
    expect(proto.status).toBe(401);
    expect(proto.headers.get('content-type')).toBe('application/x-protobuf');
    expect(await rpcStatus(proto)).toEqual({ code: 16, message: MISSING.error });
    const json = await handler(anonymous(url, method), ctxOf(route.params));
    expect(json.status).toBe(401);
    expect(await rpcStatus(json)).toEqual({ code: 16, message: MISSING.error });
    return;
  }
  const res = await handler(anonymous(url, method), ctxOf(route.params));
  const text = await res.text();
  expect({ status: res.status, body: text }).toEqual({ status: 401, body: JSON.stringify(MISSING) });
}

/** Every exported handler of every route file: the cases of the tests below. */
const ENDPOINTS: { route: RouteFile; method: string; name: string }[] = [];
for (const route of ROUTES) {
  const mod = (await import(path.join(ROOT, route.file))) as Record<string, unknown>;
  for (const method of METHODS) if (typeof mod[method] === 'function') ENDPOINTS.push({ route, method, name: `${method} ${route.pattern}` });
}

describe('the routes found on disk', () => {
  it('include every route this suite was written against (the enumeration is not empty or partial)', () => {
    const found = ENDPOINTS.map((e) => e.name);
    expect(found).toEqual(
      expect.arrayContaining([
        'GET /api/traces',
        'POST /api/traces',
        'DELETE /api/traces',
        'GET /api/traces/[id]',
        'GET /api/traces/export',
        'GET /api/traces/suggest',
        'DELETE /api/traces/[id]',
        'POST /api/otel/v1/traces',
        'POST /api/public/otel/v1/traces',
        'POST /api/otel/v1/logs',
        'GET /api/soap',
        'POST /api/soap',
        'GET /api/health',
        'GET /api/auth/[...all]',
        'POST /api/auth/[...all]',
        'GET /api/users',
        'POST /api/users',
        'PATCH /api/users/[id]',
        'DELETE /api/users/[id]',
        'GET /api/api-keys',
        'POST /api/api-keys',
        'DELETE /api/api-keys/[id]',
        'POST /api/scores',
        'POST /api/review/next',
        'GET /api/scores',
        'DELETE /api/scores/[id]',
        'GET /api/score-configs',
        'POST /api/score-configs',
        'PATCH /api/score-configs/[id]',
        'DELETE /api/score-configs/[id]',
        'GET /api/views',
        'POST /api/views',
        'DELETE /api/views/[id]',
        'GET /api/demo',
        'POST /api/demo',
        'DELETE /api/demo',
        'POST /api/mcp',
        'GET /api/mcp',
        'DELETE /api/mcp',
      ]),
    );
    // No allowlist entry outlives its route.
    for (const name of Object.keys(ALLOWED)) expect(found).toContain(name);
  });

  it('export nothing that looks like a handler under another name (get, Post...)', async () => {
    for (const route of ROUTES) {
      const mod = (await import(path.join(ROOT, route.file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        if (typeof value === 'function') expect(METHODS, `${route.file} exports ${name}`).toContain(name);
      }
    }
  });
});

// Protected by configuration (API_KEYS) or by a person in the database alone (no variable).
const PROTECTIONS = [
  { name: 'API_KEYS set', setup: async () => void (process.env.API_KEYS = 'env-key-1') },
  { name: 'a user in the database, nothing configured', setup: async () => void (await makeUser('viewer')) },
];

describe.each(testDatabases())('anonymous requests on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    await db.close();
    vi.restoreAllMocks();
  });
  const savedEnv = { ...process.env };
  afterEach(() => {
    process.env = { ...savedEnv };
    resetAccess();
  });

  describe.each(PROTECTIONS)('protected by $name', ({ setup }) => {
    beforeEach(async () => {
      useDatabase(db);
      resetAccess();
      await truncateAccess(db);
      const batch = parseIngestBody(JSON.stringify({ traces: [makeTrace({ id: `${MARKER}-trace`, name: MARKER })] }), getLimits());
      await ingestTraces(testContext(db), batch);
      await setup();
    });

    it.each(ENDPOINTS)('$name refuses, or is on the allowlist and gives nothing away', async ({ route, method, name }) => {
      const allowed = ALLOWED[name];
      if (allowed) {
        expect(allowed.reason).not.toBe('');
        await allowed.check(route);
      } else {
        await expectRefused(route, method);
      }
    });
  });

  it('the same routes answer without credentials in open mode (the refusals above come from protection)', async () => {
    useDatabase(db);
    resetAccess();
    await truncateAccess(db);
    const list = ROUTES.find((r) => r.pattern === '/api/traces')!;
    expect((await call(list, 'GET')).status).toBe(200);
  });
});

describe('proxy.ts, when configuration protects the server', () => {
  const savedEnv = { ...process.env };
  beforeEach(() => {
    process.env.API_KEYS = 'env-key-1';
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });

  // Compiled as Next compiles a matcher (its build adds only the data-route prefix and suffix).
  const matchers = proxyConfig.matcher.map((source) => new RegExp(tryToParsePath(source).regexStr!));
  const runsFor = (p: string) => matchers.some((m) => m.test(p));

  // Next reads the whole body of a request the proxy runs on into memory before the proxy
  // or the route starts, even one that is then refused: the routes authenticate first
  // themselves (the tests above), so the proxy must not run for any of them.
  it.each(ENDPOINTS)('$name: the proxy does not run (Next would buffer its body first)', ({ route }) => {
    expect(runsFor(route.urlPath), route.urlPath).toBe(false);
  });

  it('runs for the pages', () => {
    for (const p of ['/traces', '/traces/abc', '/sessions/abc', '/settings/users', '/sign-in', '/']) expect(runsFor(p), p).toBe(true);
  });

  it('passes page requests that carry a session cookie on to the page check', () => {
    const res = proxy(new NextRequest(`${BASE}/traces`, { headers: { cookie: 'crossroads.session_token=whatever' } }));
    expect(res.headers.get('x-middleware-next')).toBe('1');
  });

  it('sends an anonymous page visit to /sign-in with the page to come back to', () => {
    const res = proxy(new NextRequest(`${BASE}/traces/abc?tab=events`));
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe(`${BASE}/sign-in?next=${encodeURIComponent('/traces/abc?tab=events')}`);
  });
});

describe('pages', () => {
  const pages = filesNamed(APP, /^page\.(tsx|ts|jsx|js|mdx)$/);

  it('every page is under app/(app)/, whose layout checks access, except the sign-in page', () => {
    expect(pages.length).toBeGreaterThan(0);
    const outside = pages.filter((p) => !p.startsWith('app/(app)/') && !p.startsWith('app/sign-in/'));
    expect(outside).toEqual([]);
  });

  // The protection of a page is its own pageContext() (or settingsAccess(), built on it) and
  // the verbs it reads through, never the layout: Next renders a page without its layout on
  // client-side navigation. e2e/page-gate.spec.ts tries it from outside.
  const REDIRECT_ONLY: Record<string, string> = { 'app/(app)/page.tsx': 'redirects to /traces, reads nothing' };

  it('every page of the app builds its page context, except the ones that read nothing', () => {
    for (const page of pages.filter((p) => p.startsWith('app/(app)/'))) {
      const source = readFileSync(path.join(ROOT, page), 'utf8');
      if (REDIRECT_ONLY[page]) {
        expect(source, page).not.toMatch(/@\/lib\/(traces|insights|access\/(users|api-keys))/);
        continue;
      }
      expect(source, `${page} must call pageContext() or settingsAccess()`).toMatch(/\b(pageContext|settingsAccess)\(/);
    }
  });

  it('no page, layout or route opens the database itself: data is reached through verbs that take a context', () => {
    const modules = filesNamed(APP, /\.(tsx?|jsx?)$/).filter((f) => !/\.test\.tsx?$/.test(f));
    expect(modules.length).toBeGreaterThan(10);
    for (const file of modules) {
      const source = readFileSync(path.join(ROOT, file), 'utf8');
      expect(source, file).not.toMatch(/from '@\/lib\/(db|storage\/[\w-]+)'/);
    }
  });
});
