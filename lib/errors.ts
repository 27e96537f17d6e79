// The one error type of the domain. Transports map it: lib/http/respond.ts for
// JSON (toHttpResponse) and lib/soap for SOAP (business failures become status 0).
export type AppErrorCode =
  | 'VALIDATION' // 400: bad input; message names the field
  | 'UNAUTHENTICATED' // 401
  | 'NOT_FOUND' // 404
  | 'CONFLICT' // 409: unique violation (duplicate id)
  | 'PAYLOAD_TOO_LARGE' // 413
  | 'UNSUPPORTED_MEDIA_TYPE' // 415: a content type or encoding the endpoint does not read
  | 'UNAVAILABLE'; // 503: database unreachable

export class AppError extends Error {
  readonly code: AppErrorCode;

  constructor(code: AppErrorCode, message: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
