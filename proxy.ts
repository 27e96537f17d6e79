// A convenience in front of access control, not the protection: in protected mode, an
// anonymous request for a page is sent to /sign-in (and comes back after), and an
// anonymous API request is refused before any route runs. It only looks for credentials;
// checking them is lib/context.ts's, through which every page, route handler and verb
// reads. A proxy must not rely on the app's modules or globals (Next runs it apart), so
// it knows protection from configuration alone; a server protected only by users in its
// database (no variable set) is guarded by the pages' and routes' own contexts.
import { getSessionCookie } from 'better-auth/cookies';
import { NextResponse, type NextRequest } from 'next/server';
import { configuredProtected } from '@/lib/access/configured';
import { REQUEST_PATH_HEADER, signInPath } from '@/lib/access/pages';

/** Paths that hold no data or authenticate on their own: sign-in, health, the SOAP service (credentials in its envelope), OTLP and its Langfuse path (answer in their own encoding). */
const PUBLIC_PATHS: readonly RegExp[] = [/^\/sign-in$/, /^\/api\/auth\//, /^\/api\/health$/, /^\/api\/soap$/, /^\/api\/otel\//, /^\/api\/public\/otel\//];

export function proxy(request: NextRequest): NextResponse {
  const { pathname } = request.nextUrl;
  // The page to come back to after signing in; a client-side navigation's cache-busting
  // _rsc parameter is not part of it.
  const query = new URLSearchParams(request.nextUrl.search);
  query.delete('_rsc');
  const search = query.size > 0 ? `?${query}` : '';
  const forward = new Headers(request.headers);
  forward.set(REQUEST_PATH_HEADER, pathname + search);
  const next = () => NextResponse.next({ request: { headers: forward } });

  if (!configuredProtected() || PUBLIC_PATHS.some((p) => p.test(pathname))) return next();
  const hasCredentials = request.headers.has('authorization') || getSessionCookie(request, { cookiePrefix: 'crossroads' }) !== null;
  if (hasCredentials) return next();
  if (pathname.startsWith('/api/')) {
    return NextResponse.json({ error: 'Missing or invalid Authorization header' }, { status: 401, headers: { 'Cache-Control': 'no-store' } });
  }
  return NextResponse.redirect(new URL(signInPath(pathname + search), request.url));
}

export const config = {
  // Everything but Next's own assets, the icons and the endpoints that take large bodies
  // (ingest, scores, SOAP, OTLP): for a request the proxy runs on, Next reads the whole
  // body into memory before the route starts, past the routes' body admission, so 16
  // clients sending 9 MB batches held 16 bodies at once. Those routes refuse anonymous
  // requests themselves, with the same answer, before reading the body.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg|api/traces$|api/scores$|api/soap$|api/otel/|api/public/otel/).*)'],
};
