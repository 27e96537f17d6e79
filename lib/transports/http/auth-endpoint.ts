// Better Auth's own HTTP endpoints under /api/auth, narrowed to what Crossroads uses:
// email sign-in (throttled by a plugin of the library, throttle.ts), sign-out, the
// session, and SSO's redirect and callback. Everything else the library would serve (sign-up, key management by any
// signed-in user, password reset without mail) answers 404: accounts and keys are made
// by admins through /api/users and /api/api-keys.
import 'server-only';
import { getAuth } from '@/lib/features/access';

// Better Auth 1.7 serves generic-OAuth providers through its core social endpoints:
// POST /sign-in/social {provider: 'oidc'} and /callback/oidc (no /sign-in/oauth2 any more).
const ALLOWED: readonly RegExp[] = [
  /^\/sign-in\/email$/,
  /^\/sign-in\/social$/,
  /^\/sign-out$/,
  /^\/get-session$/,
  /^\/callback\/[\w-]+$/,
  /^\/error$/,
];

export async function handleAuthRequest(req: Request, path: string): Promise<Response> {
  if (!ALLOWED.some((pattern) => pattern.test(path))) {
    return Response.json({ error: 'Not found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  }
  const auth = await getAuth();
  const res = await auth.handler(req);
  return secureCookies(req, await withoutSessionToken(res));
}

/**
 * Better Auth also puts the session token in the JSON of sign-in and get-session (for its
 * bearer plugin, which Crossroads does not use). The cookie is HttpOnly so that page
 * scripts cannot read the session; the token is taken out of the bodies for the same reason.
 */
async function withoutSessionToken(res: Response): Promise<Response> {
  if (!res.headers.get('content-type')?.includes('application/json')) return res;
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  }
  if (body && typeof body === 'object') {
    const b = body as { token?: unknown; session?: { token?: unknown } | null };
    delete b.token;
    if (b.session && typeof b.session === 'object') delete b.session.token;
  }
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: res.status, statusText: res.statusText, headers });
}

/** Whether the browser reached us over HTTPS: the URL, or X-Forwarded-Proto where TLS ends at a proxy. */
function overHttps(req: Request): boolean {
  const forwarded = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return new URL(req.url).protocol === 'https:' || forwarded === 'https';
}

// Better Auth decides Secure once per instance, not per request (auth.ts turns it off:
// the same server may be reached over plain HTTP on a LAN and over HTTPS behind a proxy),
// so the cookies it sets are made Secure here when the request came over HTTPS.
function secureCookies(req: Request, res: Response): Response {
  const cookies = res.headers.getSetCookie();
  if (cookies.length === 0 || !overHttps(req)) return res;
  const headers = new Headers(res.headers);
  headers.delete('set-cookie');
  for (const cookie of cookies) headers.append('set-cookie', /;\s*secure\s*(;|$)/i.test(cookie) ? cookie : `${cookie}; Secure`);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
