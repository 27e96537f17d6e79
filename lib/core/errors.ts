// The one error type of the domain. Transports map it: lib/transports/http/respond.ts for
// JSON (toHttpResponse) and lib/soap for SOAP (business failures become status 0).
export type AppErrorCode =
  | 'VALIDATION' // 400: bad input; message names the field
  | 'UNAUTHENTICATED' // 401
  | 'FORBIDDEN' // 403: authenticated, but not allowed (a key without the scope, a viewer)
  | 'NOT_FOUND' // 404
  | 'CONFLICT' // 409: unique violation (duplicate id)
  | 'PAYLOAD_TOO_LARGE' // 413
  | 'UNSUPPORTED_MEDIA_TYPE' // 415: a content type or encoding the endpoint does not read
  | 'TOO_MANY_REQUESTS' // 429: try again after retryAfterSeconds
  | 'UNAVAILABLE'; // 503: database unreachable

export class AppError extends Error {
  readonly code: AppErrorCode;
  /** For TOO_MANY_REQUESTS (and UNAVAILABLE): when to try again, sent as Retry-After. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: AppErrorCode, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
