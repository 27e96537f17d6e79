// Where a signed-out visit goes, and how it comes back: /sign-in?next=<the page>.
/** Set by proxy.ts on page requests: the path and query being visited. */
export const REQUEST_PATH_HEADER = 'x-crossroads-path';

/** A same-site path to return to, or /traces; never another origin (no open redirect). */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/traces';
  return next;
}

export function signInPath(next: string | null | undefined): string {
  const target = safeNext(next);
  return target === '/traces' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(target)}`;
}
