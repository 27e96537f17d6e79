// The JSON transport's error mapping and response helpers. Every API response is
// uncacheable: traces change (RUNNING ones) and carry private data.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { isAppError, type AppErrorCode } from '@/lib/core/errors';
import type { Actor } from '@/lib/core/access/decide';
import type { Scope } from '@/lib/core/access/scopes';
import { BusyError } from '@/lib/core/budget';
import { requireAnyScope, type ServiceContext } from '@/lib/core/context';
import { requestContext } from '@/lib/features/access';

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

/**
 * A 200 whose body is JSON sent piece by piece as the pieces come (text, or UTF-8 bytes sent
 * as they are); a failure after the first piece can only cut the body short (logged, the
 * client sees a broken body).
 */
export function jsonChunks(chunks: AsyncIterable<string | Uint8Array>): Response {
  const iterator = chunks[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(typeof next.value === 'string' ? utf8(next.value) : next.value);
      } catch (err) {
        console.error('response body failed after it started', err);
        controller.error(err);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, { status: 200, headers: { ...NO_STORE, 'Content-Type': 'application/json' } });
}

/**
 * The text as UTF-8 bytes, written into a buffer of the exact size: half the CPU of
 * TextEncoder.encode on the megabytes a large trace's pages carry (measured in
 * docs/benchmarks.md), same bytes.
 */
function utf8(text: string): Uint8Array {
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return bytes;
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

export interface AccessRule {
  /** The scope the route needs; a list: any one of them (the verb decides what each allows). */
  scope: Scope | readonly [Scope, ...Scope[]];
  /** Accept `Authorization: Basic` with the key as the password (not on POST /api/traces, whose contract says Bearer). */
  basic?: boolean;
}

/** The scopes a rule accepts, any one of them. */
export function ruleScopes(rule: AccessRule): readonly [Scope, ...Scope[]] {
  return typeof rule.scope === 'string' ? [rule.scope] : rule.scope;
}

type Handler<P> = (req: Request, params: P, ctx: ServiceContext, actor: Actor) => Promise<Response>;

/**
 * Wraps a route handler that reads or writes data: builds the request's context, checks
 * the rule's scope before anything else (so a refused request never has its body read),
 * runs the handler, and maps every failure through toHttpResponse. The verbs the handler
 * calls check their own scope again with the same context: the rule only answers early.
 */
export function route<P>(rule: AccessRule, handler: Handler<P>): (req: Request, params?: P) => Promise<Response> {
  return async (req, params) => {
    try {
      const ctx = await requestContext(req.headers, { kind: 'http', method: req.method, url: req.url, basic: rule.basic });
      return await handler(req, params as P, ctx, requireAnyScope(ctx, ruleScopes(rule)).actor);
    } catch (err) {
      return toHttpResponse(err);
    }
  };
}

/** Wraps a route handler that holds no data (health, the WSDL, sign-in) or authenticates on its own (SOAP's envelopes): error mapping only. */
export function publicRoute<P>(handler: (req: Request, params: P) => Promise<Response>): (req: Request, params?: P) => Promise<Response> {
  return async (req, params) => {
    try {
      return await handler(req, params as P);
    } catch (err) {
      return toHttpResponse(err);
    }
  };
}
