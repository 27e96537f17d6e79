// A path segment that is not valid percent-encoding ("%ff" is no UTF-8, "%zz" no escape)
// makes Next's router throw while matching a dynamic route, and an app without a Pages
// Router error page turns that into a plain-text 500 with none of the security headers.
// The server process repairs such a segment as Node receives the request, before Next
// routes it: each '%' in it is taken literally ("%25ff"), so the segment names "%ff" and
// the route answers as for any id it does not know (404), never a 500.
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** The request target with every undecodable path segment's '%' escaped; the query is left as sent. */
export function repairPathEncoding(target: string): string {
  const queryAt = target.search(/[?#]/);
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (!path.includes('%')) return target;
  const segments = path.split('/');
  let changed = false;
  for (let i = 0; i < segments.length; i++) {
    if (segments[i].includes('%') && !decodes(segments[i])) {
      segments[i] = segments[i].replaceAll('%', '%25');
      changed = true;
    }
  }
  return changed ? segments.join('/') + (queryAt === -1 ? '' : target.slice(queryAt)) : target;
}

const state = globalThis as unknown as { __crossroadsPathRepair?: boolean };

/** From now on, in this process, every request's path is repaired before any handler sees it (the server calls it at start). */
export function repairRequestPaths(): void {
  if (state.__crossroadsPathRepair) return;
  state.__crossroadsPathRepair = true;
  subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: IncomingMessage };
    if (request.url) request.url = repairPathEncoding(request.url);
  });
}
