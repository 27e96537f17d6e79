// The JSON transport's error mapping and response helpers. Every API response is
// uncacheable: traces change (RUNNING ones) and carry private data.
import { randomUUID } from 'node:crypto';
import { isAppError, type AppErrorCode } from '@/lib/errors';
import { BusyError } from '@/lib/budget';

// node-postgres' pool gives up waiting for a free connection with this message; under
// overload that is a "try again", not an internal error.
function isPoolExhausted(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (/timeout exceeded when trying to connect/i.test(e.message)) return true;
  }
  return false;
}

const STATUS: Record<AppErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNAVAILABLE: 503,
};

const NO_STORE = { 'Cache-Control': 'no-store' };

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: NO_STORE });
}

/** A response whose body is already JSON text. */
export function jsonText(body: string, status = 200): Response {
  return new Response(body, { status, headers: { ...NO_STORE, 'Content-Type': 'application/json' } });
}

/** Maps any thrown value to `{ error }`; unknown failures are logged with a request id and hidden. */
export function toHttpResponse(err: unknown): Response {
  if (err instanceof BusyError) {
    return Response.json(
      { error: err.message },
      { status: 503, headers: { ...NO_STORE, 'Retry-After': String(err.retryAfterSeconds) } },
    );
  }
  if (isAppError(err)) return json({ error: err.message }, STATUS[err.code]);
  if (isPoolExhausted(err)) {
    return Response.json(
      { error: 'Database busy, retry later' },
      { status: 503, headers: { ...NO_STORE, 'Retry-After': '1' } },
    );
  }
  const requestId = randomUUID();
  console.error(`[${requestId}] unhandled error:`, err);
  return Response.json(
    { error: 'Internal server error' },
    { status: 500, headers: { ...NO_STORE, 'X-Request-Id': requestId } },
  );
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

/** Wraps a route handler so that every failure goes through toHttpResponse. */
export function route<C>(handler: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    try {
      return await handler(req, ctx);
    } catch (err) {
      return toHttpResponse(err);
    }
  };
}
