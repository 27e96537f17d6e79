// A convenience in front of access control, not the protection: in protected mode, an
// anonymous request for a page is sent to /sign-in (and comes back after). It runs for
// pages only: API routes refuse anonymous requests themselves. It only looks for credentials;
// checking them is lib/core/context.ts's, through which every page, route handler and verb
// reads. A proxy must not rely on the app's modules or globals (Next runs it apart), so
// it knows protection from configuration alone; a server protected only by users in its
// database (no variable set) is guarded by the pages' and routes' own contexts.
import { getSessionCookie } from 'better-auth/cookies';
import { NextResponse, type NextRequest } from 'next/server';
import { configuredProtected } from '@/lib/core/access/configured';
import { REQUEST_PATH_HEADER, signInPath } from '@/lib/transports/pages/sign-in';

/** Pages anyone may see. */
const PUBLIC_PATHS: readonly RegExp[] = [/^\/sign-in$/];

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
  return NextResponse.redirect(new URL(signInPath(pathname + search), request.url));
}

export const config = {
  // Pages only: not Next's own assets, the icons or any API route. For a request the proxy
  // runs on, Next reads the whole body into memory before the proxy or the route starts
  // (next.config.ts keeps that copy small), even for a caller the route then refuses; API
  // routes authenticate before they read a body (lib/transports/http/respond.ts route()).
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg|api(?:/|$)).*)'],
};
