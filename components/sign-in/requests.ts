// The browser's side of signing in: Better Auth's endpoints under /api/auth, with every
// answer turned into a sentence a person can act on. A wrong email and a wrong password
// read the same, so the page never tells whether an account exists.
export const INVALID_CREDENTIALS = 'Invalid email or password';
const UNREACHABLE = 'Could not reach the server. Check your connection and try again.';

async function post(url: string, body: unknown): Promise<Response> {
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new Error(UNREACHABLE, { cause: err });
  }
}

async function messageOf(res: Response): Promise<string | null> {
  try {
    const body = (await res.json()) as { error?: unknown; message?: unknown };
    const message = body.error ?? body.message;
    return typeof message === 'string' && message ? message : null;
  } catch {
    return null;
  }
}

/** "in 40 seconds", "in 15 minutes": when a throttled sign-in may be tried again. */
export function retryIn(seconds: number): string {
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

async function failure(res: Response, what: string): Promise<Error> {
  if (res.status === 429) {
    const message = (await messageOf(res)) ?? 'Too many sign-in attempts';
    const seconds = Number(res.headers.get('retry-after'));
    return new Error(Number.isFinite(seconds) && seconds > 0 ? `${message}. Try again ${retryIn(Math.ceil(seconds))}.` : `${message}.`);
  }
  if (res.status >= 500) return new Error(`${what} failed on the server (HTTP ${res.status}). Try again in a moment.`);
  return new Error((await messageOf(res)) ?? `${what} failed (HTTP ${res.status}).`);
}

/** Email and password; on success the session cookie is set by the answer itself. */
export async function signInWithEmail(email: string, password: string): Promise<void> {
  const res = await post('/api/auth/sign-in/email', { email, password });
  if (res.ok) return;
  // 401 (unknown email or wrong password) and 403 alike: never say which.
  if (res.status === 401 || res.status === 403) throw new Error(INVALID_CREDENTIALS);
  throw await failure(res, 'Sign-in');
}

/**
 * Starts single sign-on: Better Auth answers the provider's authorization URL, which the
 * browser then visits. Back from the provider, the callback goes to `next`, or to
 * `errorPath` with ?error=<code> when the provider or Crossroads refused.
 */
export async function startSso(providerId: string, next: string, errorPath: string): Promise<string> {
  const res = await post('/api/auth/sign-in/social', {
    provider: providerId,
    callbackURL: next,
    errorCallbackURL: errorPath,
    disableRedirect: true,
  });
  if (!res.ok) throw await failure(res, 'Single sign-on');
  const body = (await res.json()) as { url?: unknown };
  if (typeof body.url !== 'string') throw new Error('Single sign-on is not available right now. Try again in a moment.');
  return body.url;
}
