// Where a change made with a session cookie may come from. A browser sends the cookie with
// every request to this server, whichever page makes it, so a write it authenticates must
// show it came from the app's own pages: its Origin names this server (the Host the
// browser used, or X-Forwarded-Host behind a proxy) or an origin in TRUSTED_ORIGINS, or,
// without an Origin, Sec-Fetch-Site says same-origin. Its body must be declared as JSON:
// text/plain, forms and multipart are what a page elsewhere can send without asking first.
// Keys are unaffected: no page can make a browser send one.
import 'server-only';
import { getTrustedOrigins } from '@/lib/core/config';

export const CROSS_ORIGIN =
  "Cross-origin request refused: a change made with a session cookie must come from this server's own pages (or an origin in TRUSTED_ORIGINS)";
export const NOT_JSON = 'Content-Type must be application/json';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request of this method may change something (everything but GET, HEAD, OPTIONS). */
export function changesState(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** host[:port] as an Origin's URL gives it: lower case, no default port. */
function normalHost(host: string): string {
  return host.trim().toLowerCase().replace(/:(80|443)$/, '');
}

/** The hosts this request was sent to: as the browser named them, and the server's own address. */
function ownHosts(headers: Headers, url: string): Set<string> {
  const hosts = new Set<string>();
  for (const named of [headers.get('x-forwarded-host'), headers.get('host')]) {
    const first = named?.split(',')[0];
    if (first?.trim()) hosts.add(normalHost(first));
  }
  try {
    hosts.add(normalHost(new URL(url).host));
  } catch {
    // A request's own URL always parses; nothing to add otherwise.
  }
  return hosts;
}

function isOwnOrTrusted(target: URL, headers: Headers, url: string): boolean {
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  // The scheme is not compared for this server's own host: TLS may end at a proxy.
  return getTrustedOrigins().includes(target.origin) || ownHosts(headers, url).has(normalHost(target.host));
}

/** Whether the request came from this server's own pages (or a trusted origin's), as the browser tells. */
export function fromOwnPages(headers: Headers, url: string): boolean {
  const origin = headers.get('origin');
  if (origin === null) return headers.get('sec-fetch-site') === 'same-origin';
  try {
    return isOwnOrTrusted(new URL(origin), headers, url);
  } catch {
    // "null" (a sandboxed frame, a redirect across origins) or garbage.
    return false;
  }
}

/** Whether the request declares a body (RFC 9112: by Content-Length or Transfer-Encoding). */
function declaresBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return headers.has('transfer-encoding') || (length !== null && length.trim() !== '0');
}

function isJson(contentType: string | null): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

export interface Refusal {
  code: 'FORBIDDEN' | 'UNSUPPORTED_MEDIA_TYPE';
  message: string;
}

/** Why a change authenticated by a session cookie is refused (403 from elsewhere, 415 not JSON), or null when it may go on. */
export function cookieWriteRefusal(headers: Headers, url: string): Refusal | null {
  if (!fromOwnPages(headers, url)) return { code: 'FORBIDDEN', message: CROSS_ORIGIN };
  if (declaresBody(headers) && !isJson(headers.get('content-type'))) return { code: 'UNSUPPORTED_MEDIA_TYPE', message: NOT_JSON };
  return null;
}

/** Whether the browser may be sent here after signing in: a path on this server, or a URL of this server or a trusted origin. */
export function isAllowedRedirect(target: string, headers: Headers, url: string): boolean {
  // Browsers drop tabs and newlines and read a backslash as a slash: "/\t/evil" is "//evil".
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return false;
  if (target.startsWith('/')) return !target.startsWith('//');
  try {
    return isOwnOrTrusted(new URL(target), headers, url);
  } catch {
    return false;
  }
}
