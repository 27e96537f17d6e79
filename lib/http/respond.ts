// The JSON transport's error mapping and response helpers. Every API response is
// uncacheable: traces change (RUNNING ones) and carry private data.
import { randomUUID } from 'node:crypto';
import { isAppError, type AppErrorCode } from '@/lib/errors';
import { requireAccess, type AccessRule, type Principal } from '@/lib/access/check';
import { BusyError } from '@/lib/budget';
import { scheduleRetentionIfDue, scheduleSearchIndexIfDue } from '@/lib/housekeeping';

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
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
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

/** How a thrown value is answered, whatever the body's encoding (JSON here, OTLP's Status in lib/otlp). */
export interface ErrorAnswer {
  status: number;
  message: string;
  headers: Record<string, string>;
}

/** Classifies any thrown value; unknown failures are logged with a request id and hidden. */
export function errorAnswer(err: unknown): ErrorAnswer {
  if (err instanceof BusyError) {
    return { status: 503, message: err.message, headers: { ...NO_STORE, 'Retry-After': String(err.retryAfterSeconds) } };
  }
  if (isAppError(err)) {
    const headers: Record<string, string> = { ...NO_STORE };
    if (err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
    return { status: STATUS[err.code], message: err.message, headers };
  }
  if (isPoolExhausted(err)) {
    return { status: 503, message: 'Database busy, retry later', headers: { ...NO_STORE, 'Retry-After': '1' } };
  }
  const requestId = randomUUID();
  console.error(`[${requestId}] unhandled error:`, err);
  return { status: 500, message: 'Internal server error', headers: { ...NO_STORE, 'X-Request-Id': requestId } };
}

/** Maps any thrown value to `{ error }`. */
export function toHttpResponse(err: unknown): Response {
  const answer = errorAnswer(err);
  return Response.json({ error: answer.message }, { status: answer.status, headers: answer.headers });
}

type Handler<C> = (req: Request, ctx: C, principal: Principal) => Promise<Response>;

/**
 * Wraps a route handler: first the access check for its rule ('public' only for what
 * holds no data: health, the WSDL, sign-in), then the handler; every failure goes
 * through toHttpResponse. Routes must name their rule, so none can forget one. Every
 * call also gives retention and search indexing their chance to run, after the answer
 * (lib/housekeeping.ts).
 */
export function route<C>(rule: AccessRule | 'public', handler: Handler<C>): (req: Request, ctx?: C) => Promise<Response> {
  return async (req, ctx) => {
    scheduleRetentionIfDue();
    scheduleSearchIndexIfDue();
    try {
      const principal: Principal = rule === 'public' ? { kind: 'open' } : await requireAccess(req.headers, rule);
      return await handler(req, ctx as C, principal);
    } catch (err) {
      return toHttpResponse(err);
    }
  };
}
