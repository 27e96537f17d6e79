// Small helpers for the viewer's server components.

/** Next's searchParams object as URLSearchParams; a repeated key (`tag`) keeps every value, in order. */
export function toSearchParams(record: Record<string, string | string[] | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(record)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(key, v);
  }
  return out;
}

/** The origin the reader used, for commands shown on the page (curl examples). */
export function requestOrigin(h: Headers): string {
  const host = h.get('x-forwarded-host') ?? h.get('host') ?? 'localhost:3000';
  const proto = h.get('x-forwarded-proto') ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto.split(',')[0].trim()}://${host.split(',')[0].trim()}`;
}

/** The request's clock, handed to client components so their first render matches the HTML. */
export function requestTime(): number {
  return Date.now();
}
