// The pages' data is out of reach without a live session, whichever way the page is asked
// for: a document request, and the RSC requests the App Router makes when someone clicks a
// link (navigation) or a link comes into view (prefetch). Those render a page without its
// shared layout, so a check in app/(app)/layout.tsx or presence-only checks in proxy.ts are
// no protection. Black box: the RSC headers are captured from a real signed-in navigation in
// Chromium and replayed, with no credentials and with invented or ended ones, to every page
// of the app (from the file system), on the server protected by configuration and on one
// protected only by a person in its database. The same replays with a live admin session
// must show the data, so the test cannot pass by breaking navigation.
import type { APIRequestContext, Browser, PlaywrightWorkerArgs, Request } from '@playwright/test';
import { ADMIN_STATE, DB_ONLY_ADMIN, DB_ONLY_PORT, E2E_ADMIN } from '../playwright.config';
import { appPages, knownPages } from './app-pages';
import { agentTrace, runId, type TraceInput } from './fixtures';
import { expect, hydrated, postTraces, test } from './viewer-helpers';

type Playwright = PlaywrightWorkerArgs['playwright'];

const R = runId();
const TRACE_ID = `gate-${R}`;
const TAG = `gate-${R}`;
/** Strings only this run's trace (and key) holds: any response that has one shows data. */
const MARKERS = {
  'trace name': `gate-name-${R}`,
  'span output': `gate-output-${R}`,
  'decision reasoning': `gate-reasoning-${R}`,
  'API key name': `gate-key-${R}`,
};
const SESSION_COOKIE = 'crossroads.session_token';
const SIGNED_OUT = { cookies: [], origins: [] };
/** Headers of the App Router's own requests (the rest of a browser's headers do not matter here). */
const ROUTER_HEADERS = /^(rsc|next-router-state-tree|next-router-prefetch|next-router-segment-prefetch|next-url)$/;

function gateTrace(): TraceInput {
  // Its own session, named like the trace, so /sessions/[id] (filled with TRACE_ID) shows it.
  const trace = agentTrace(TRACE_ID, MARKERS['trace name'], TRACE_ID);
  trace.tags = [TAG, 'e2e'];
  trace.spans = trace.spans.map((s) => (s.id === 'plan' ? { ...s, output: { text: MARKERS['span output'] } } : s));
  trace.decisionPoints = trace.decisionPoints.map((d) => (d.id === 'choose-tool' ? { ...d, reasoning: MARKERS['decision reasoning'] } : d));
  return trace;
}

/** A page's URL as the test asks for it: lists and figures filtered to this run's trace. */
function pageUrl(page: string): string {
  return page === '/traces' || page === '/insights' ? `${page}?tag=${TAG}` : page;
}

/** What a live admin must see on each known page (the control); other pages need only be served. */
function expectedData(page: string): Array<keyof typeof MARKERS> {
  // A span's input and output load on demand (GET /api/traces/{id}/spans/{spanId}, in the routes' access tests), not with the page.
  if (page === `/traces/${encodeURIComponent(TRACE_ID)}`) return ['trace name', 'decision reasoning'];
  // The session's turn: the trace's name, and its last model call's output (its root span has none).
  if (page === `/sessions/${encodeURIComponent(TRACE_ID)}`) return ['trace name', 'span output'];
  if (page === '/traces' || page === '/insights') return ['trace name'];
  if (page === '/settings/api-keys') return ['API key name'];
  return [];
}

interface RequestKind {
  name: string;
  headers: Record<string, string>;
  /** The cache-busting `_rsc` the browser sent with these headers, if any. */
  rsc?: string;
}

interface Captured {
  navigation: RequestKind;
  prefetches: RequestKind[];
}

/** Signs in to a real browser as the e2e admin, clicks through the viewer and records the App Router's requests. */
async function captureRouterRequests(browser: Browser, baseURL: string): Promise<Captured> {
  const context = await browser.newContext({ baseURL, storageState: ADMIN_STATE });
  type Seen = { url: string; headers: Record<string, string> };
  const seen: Array<Promise<Seen | null>> = [];
  let raw: Seen[];
  try {
    const page = await context.newPage();
    // A request still going out when the browser closes has no headers to give (null).
    const onRequest = (req: Request) => {
      if (req.headers()['rsc'] === '1') seen.push(req.allHeaders().then((headers) => ({ url: req.url(), headers }), () => null));
    };
    page.on('request', onRequest);
    await page.goto(pageUrl('/traces'));
    await hydrated(page);
    await page.locator('tbody a[data-row-link]').filter({ hasText: MARKERS['trace name'] }).click();
    await expect(page).toHaveURL(new RegExp(`/traces/${TRACE_ID}$`));
    await expect(page.getByRole('heading', { level: 1, name: MARKERS['trace name'] })).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Insights' }).click();
    await expect(page).toHaveURL(/\/insights$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Read while the browser is open: the full headers come from it.
    page.off('request', onRequest);
    raw = (await Promise.all(seen)).filter((r): r is Seen => r !== null);
  } finally {
    await context.close();
  }
  const requests = raw.map(({ url, headers }) => ({
    url,
    rsc: new URL(url).searchParams.get('_rsc') ?? undefined,
    headers: Object.fromEntries(Object.entries(headers).filter(([name]) => ROUTER_HEADERS.test(name))),
  }));
  const navigations = requests.filter((r) => !('next-router-prefetch' in r.headers));
  expect(navigations.length, 'the clicks made RSC navigation requests').toBeGreaterThan(0);
  expect(navigations[0].headers['next-router-state-tree'], 'a navigation sends its router state tree').toBeTruthy();
  const distinct = new Map<string, RequestKind>();
  for (const r of requests.filter((x) => 'next-router-prefetch' in x.headers)) {
    const segment = r.headers['next-router-segment-prefetch'];
    const key = `${r.headers['next-router-prefetch']}${segment ? ` of segment ${segment}` : ''}`;
    if (!distinct.has(key)) distinct.set(key, { name: `captured prefetch ${key}`, headers: r.headers, rsc: r.rsc });
  }
  test.info().annotations.push({ type: 'captured RSC requests', description: JSON.stringify(requests.map((r) => ({ path: new URL(r.url).pathname, ...r.headers, _rsc: r.rsc }))) });
  return { navigation: { name: 'RSC navigation', headers: navigations[0].headers, rsc: navigations[0].rsc }, prefetches: [...distinct.values()] };
}

function isPrefetch(kind: RequestKind): boolean {
  return 'next-router-prefetch' in kind.headers;
}

/** The request kinds replayed to every page: a document, the captured navigation, and it as a prefetch. */
function requestKinds(captured: Captured): RequestKind[] {
  const nav = captured.navigation;
  return [
    { name: 'document', headers: { accept: 'text/html,application/xhtml+xml' } },
    nav,
    { name: 'RSC prefetch', headers: { ...nav.headers, 'next-router-prefetch': '1' } },
    // A segment prefetch names a segment of the page it was made for: replayed to other pages it asks for nothing.
    ...captured.prefetches.filter((p) => !p.headers['next-router-segment-prefetch'] || p.headers['next-router-segment-prefetch'] === '/_tree'),
  ];
}

interface Server {
  label: string;
  base: string;
  admin: { email: string; password: string };
}

/** Signs in through Better Auth's endpoint, as the sign-in form does; returns the session cookie's value. */
async function signInCookie(playwright: Playwright, server: Server): Promise<string> {
  const request = await bare(playwright, server.base);
  try {
    const res = await request.post('/api/auth/sign-in/email', { headers: { origin: server.base }, data: server.admin });
    expect(res.status(), await res.text()).toBe(200);
    const cookie = (await request.storageState()).cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie, 'sign-in sets the session cookie').toBeDefined();
    return cookie!.value;
  } finally {
    await request.dispose();
  }
}

/** A request context of its own: it sends the headers given and no cookie from another test's answers. */
async function bare(playwright: Playwright, base: string): Promise<APIRequestContext> {
  return playwright.request.newContext({ baseURL: base, storageState: SIGNED_OUT });
}

/** The credentials replayed; `live` is the control. */
interface Credentials {
  name: string;
  headers: Record<string, string>;
  live?: boolean;
}

/** Makes a key (and, when `ingest`, sends the trace with it), a live session and an ended one. */
async function prepare(playwright: Playwright, server: Server, ingest: boolean): Promise<Credentials[]> {
  const live = await signInCookie(playwright, server);
  const request = await bare(playwright, server.base);
  try {
    // A key made by the admin: its name is data of /settings/api-keys, and on the DB-only
    // server (no API_KEYS) it is the only way to ingest.
    const made = await request.post('/api/api-keys', {
      headers: { origin: server.base, cookie: `${SESSION_COOKIE}=${live}` },
      data: { name: MARKERS['API key name'], scopes: ['ingest', 'read'] },
    });
    expect(made.status(), await made.text()).toBe(201);
    if (ingest) await postTraces(request, [gateTrace()], ((await made.json()) as { key: string }).key);

    // A session that signed out: its cookie must be worth nothing afterwards.
    const ended = await signInCookie(playwright, server);
    const out = await request.post('/api/auth/sign-out', { headers: { origin: server.base, cookie: `${SESSION_COOKIE}=${ended}` }, data: {} });
    expect(out.status(), await out.text()).toBe(200);
    const replay = await request.get('/api/traces', { headers: { cookie: `${SESSION_COOKIE}=${ended}` } });
    expect(replay.status(), 'the ended session is refused by the API').toBe(401);

    const random = () => `${runId()}${runId()}`;
    return [
      { name: 'no credentials', headers: {} },
      { name: 'an invented session cookie', headers: { cookie: `${SESSION_COOKIE}=${random()}.${random()}` } },
      { name: 'an invented Bearer token', headers: { authorization: `Bearer ${random()}` } },
      { name: 'an invented Basic password', headers: { authorization: `Basic ${Buffer.from(`${server.admin.email}:${random()}`).toString('base64')}` } },
      { name: 'the cookie of a signed-out session', headers: { cookie: `${SESSION_COOKIE}=${ended}` } },
      { name: 'a live admin session', headers: { cookie: `${SESSION_COOKIE}=${live}` }, live: true },
    ];
  } finally {
    await request.dispose();
  }
}

/**
 * How a request ended: refused (401/403, or a redirect to /sign-in), sent elsewhere in the
 * app (a redirect to another page, which the loop asks for on its own), served, or sent off
 * the site.
 */
interface Outcome {
  verdict: 'refused' | 'elsewhere' | 'served' | 'off-site';
  /** Each hop: `GET <path> -> <status> <location>`. */
  trail: string[];
  /** Every body on the way, for the markers. */
  bodies: string[];
}

/** Redirect targets in an RSC payload (or a streamed HTML page): `NEXT_REDIRECT;replace;/sign-in?next=…;307;`. */
function payloadRedirects(body: string): string[] {
  return [...body.matchAll(/NEXT_REDIRECT;(?:push|replace);([^;"\\]+);30\d;/g)].map((m) => m[1]);
}

/**
 * Asks like the App Router (or a browser) would. Follows only a redirect to the same path
 * (Next's check of the `_rsc` hash answers a request without the right one so); any other
 * redirect, in the HTTP status or carried in an RSC payload, decides the verdict.
 */
async function ask(request: APIRequestContext, base: string, url: string, kind: RequestKind, credentials: Credentials): Promise<Outcome> {
  const outcome: Outcome = { verdict: 'served', trail: [], bodies: [] };
  const origin = new URL(base).origin;
  const where = (targets: URL[]): Outcome['verdict'] => {
    if (targets.some((t) => t.origin !== origin)) return 'off-site';
    return targets.some((t) => t.pathname === '/sign-in') ? 'refused' : 'elsewhere';
  };
  let next = kind.rsc ? `${url}${url.includes('?') ? '&' : '?'}_rsc=${kind.rsc}` : url;
  for (let hop = 0; hop < 4; hop++) {
    const res = await request.get(next, { headers: { ...kind.headers, ...credentials.headers }, maxRedirects: 0 });
    const body = await res.text();
    outcome.bodies.push(body);
    const status = res.status();
    const location = res.headers().location;
    outcome.trail.push(`GET ${next} -> ${status}${location ? ` ${location}` : ''}`);
    if (status === 401 || status === 403) return { ...outcome, verdict: 'refused' };
    if (status >= 300 && status < 400 && location) {
      const current = new URL(next, origin);
      const target = new URL(location, current);
      if (target.origin !== origin || target.pathname !== current.pathname) return { ...outcome, verdict: where([target]) };
      next = target.pathname + target.search;
      continue;
    }
    const redirects = payloadRedirects(body).map((r) => new URL(r, origin));
    if (redirects.length === 0) return outcome;
    outcome.trail.push(`(the payload redirects to ${redirects.map((r) => r.pathname + r.search).join(', ')})`);
    return { ...outcome, verdict: where(redirects) };
  }
  throw new Error(`redirect loop: ${outcome.trail.join(' | ')}`);
}

/** Runs tasks a few at a time (the server has two cores; one request at a time would be slow). */
async function inPool<T>(tasks: Array<() => Promise<T>>, width = 4): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let nextTask = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (nextTask < tasks.length) {
        const i = nextTask++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

/** Every page × request kind × credentials; returns the problems, one line each. */
async function gate(playwright: Playwright, server: Server, kinds: RequestKind[], credentials: Credentials[]): Promise<string[]> {
  const pages = appPages(TRACE_ID);
  for (const known of knownPages(TRACE_ID)) expect(pages, `app/**/page.tsx gives ${known}`).toContain(known);

  const cases = pages.flatMap((page) => kinds.flatMap((kind) => credentials.map((cred) => ({ page, kind, cred }))));
  const problems = await inPool(
    cases.map(({ page, kind, cred }) => async () => {
      const request = await bare(playwright, server.base);
      try {
        const url = pageUrl(page);
        const outcome = await ask(request, server.base, url, kind, cred);
        const all = outcome.bodies.join('\n');
        const shown = (Object.keys(MARKERS) as Array<keyof typeof MARKERS>).filter((m) => all.includes(MARKERS[m]));
        const where = `${server.label}: ${kind.name} of ${url} with ${cred.name}`;
        const issues: string[] = [];
        if (page === '/sign-in') {
          // Public, and holds no data; a live session is sent on to the app (not checked here).
          if (!cred.live && outcome.verdict !== 'served') issues.push('the public sign-in page was not served');
          if (!cred.live && shown.length) issues.push(`LEAKS ${shown.join(', ')}`);
        } else if (cred.live) {
          // The control: prefetches of dynamic pages hold no page data, so only served is asked of them.
          if (outcome.verdict !== 'served' && outcome.verdict !== 'elsewhere') issues.push(`the control was not served (${outcome.verdict})`);
          const missing = isPrefetch(kind) ? [] : expectedData(page).filter((m) => !shown.includes(m));
          if (missing.length) issues.push(`the control lacks ${missing.join(', ')}`);
        } else {
          if (shown.length) issues.push(`LEAKS ${shown.join(', ')}`);
          // A document or a navigation renders the page, so it must be turned away (or sent to
          // another page, which the loop asks for itself); a prefetch of a dynamic page may be
          // answered with the route's shell, as long as it holds no data.
          const refused = outcome.verdict === 'refused' || outcome.verdict === 'elsewhere';
          if (outcome.verdict === 'off-site' || (!isPrefetch(kind) && !refused)) issues.push(`not refused (${outcome.verdict})`);
        }
        return issues.length ? [`${where}: ${issues.join('; ')} [${outcome.trail.join(' | ')}]`] : [];
      } finally {
        await request.dispose();
      }
    }),
  );
  return problems.flat();
}

let captured: Captured;

test.beforeAll(async ({ browser, playwright }) => {
  const base = test.info().project.use.baseURL as string;
  const request = await bare(playwright, base);
  try {
    await postTraces(request, [gateTrace()]);
  } finally {
    await request.dispose();
  }
  captured = await captureRouterRequests(browser, base);
});

test.describe('pages give no data without a live session, to documents and App Router requests alike', () => {
  test('on the server protected by configuration (API_KEYS, ADMIN_EMAIL, OIDC)', async ({ playwright }) => {
    const server = { label: 'env-protected', base: test.info().project.use.baseURL as string, admin: E2E_ADMIN };
    // The trace came in with API_KEYS' key in beforeAll; the key made here only shows on its page.
    const credentials = await prepare(playwright, server, false);
    expect(await gate(playwright, server, requestKinds(captured), credentials)).toEqual([]);
  });

  test('on a server protected only by a person in its database (no access variable set)', async ({ playwright }) => {
    const server = { label: 'db-only', base: `http://127.0.0.1:${DB_ONLY_PORT}`, admin: DB_ONLY_ADMIN };
    const credentials = await prepare(playwright, server, true);
    expect(await gate(playwright, server, requestKinds(captured), credentials)).toEqual([]);
  });
});
