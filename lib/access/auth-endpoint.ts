// Better Auth's own HTTP endpoints under /api/auth, narrowed to what Crossroads uses:
// email sign-in (throttled, throttle.ts), sign-out, the session, and SSO's redirect and
// callback. Everything else the library would serve (sign-up, key management by any
// signed-in user, password reset without mail) answers 404: accounts and keys are made
// by admins through /api/users and /api/api-keys.
import { getDatabase } from '@/lib/db';
import { getAuth } from './auth';
import { assertSignInAllowed, clearAccountFailures, recordSignInFailure, throttleKeys } from './throttle';

const ALLOWED: readonly RegExp[] = [
  /^\/sign-in\/email$/,
  /^\/sign-in\/oauth2$/,
  /^\/sign-out$/,
  /^\/get-session$/,
  /^\/oauth2\/callback\/[\w-]+$/,
  /^\/error$/,
];

/** The client's address: the first X-Forwarded-For hop (set by Next and by proxies), else X-Real-IP. */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || headers.get('x-real-ip')?.trim() || 'unknown';
}

async function signInWithEmail(req: Request, handle: (req: Request) => Promise<Response>): Promise<Response> {
  let email = '';
  try {
    const body = (await req.clone().json()) as { email?: unknown };
    if (typeof body.email === 'string') email = body.email;
  } catch {
    // Better Auth answers the malformed body itself.
  }
  const { sql } = await getDatabase();
  const keys = throttleKeys(email, clientAddress(req.headers));
  await assertSignInAllowed(sql, keys);
  const res = await handle(req);
  if (res.status === 401 || res.status === 403) await recordSignInFailure(sql, keys);
  else if (res.ok) await clearAccountFailures(sql, keys);
  return res;
}

export async function handleAuthRequest(req: Request, path: string): Promise<Response> {
  if (!ALLOWED.some((pattern) => pattern.test(path))) {
    return Response.json({ error: 'Not found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  }
  const auth = await getAuth();
  if (req.method === 'POST' && path === '/sign-in/email') return signInWithEmail(req, auth.handler);
  return auth.handler(req);
}
