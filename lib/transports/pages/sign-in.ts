// Where a signed-out visit goes, and how it comes back: /sign-in?next=<the page>.
/** Set by proxy.ts on page requests: the path and query being visited. */
export const REQUEST_PATH_HEADER = 'x-crossroads-path';

// Any origin serves: a path resolved against it stays on it, whatever the app's real origin.
const HERE = 'http://crossroads.invalid';

/**
 * A path on this site to return to, or /traces; never another origin (no open redirect).
 * `next` is parsed as a browser parses a link (WHATWG URL: tabs and newlines dropped, a
 * backslash read as a slash) and kept only when it stays on the origin it was resolved
 * against; the path returned is the parsed one, percent-encoded, so the browser goes
 * where it was checked to go and a Location header can carry it.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith('/')) return '/traces';
  let url: URL;
  try {
    url = new URL(next, HERE);
  } catch {
    return '/traces';
  }
  if (url.origin !== HERE) return '/traces';
  const path = url.pathname + url.search + url.hash;
  // The parsed path still starts with one slash; checked again rather than assumed.
  return path.startsWith('/') && !path.startsWith('//') && !/[\u0000-\u0020\u007f\\]/.test(path) ? path : '/traces';
}

export function signInPath(next: string | null | undefined): string {
  const target = safeNext(next);
  return target === '/traces' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(target)}`;
}
