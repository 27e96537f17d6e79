// Test support for access control: a clean access configuration per test, people signed
// in through the real /api/auth route (cookies as a browser would get them), and keys
// made through the api-key plugin as an admin would.
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import type { Database } from '@/lib/db/open';
import { createApiKey } from '@/lib/features/access/api-keys';
import { PEER_HEADER, peerHeaderValue } from '@/lib/core/client-address';
import { getDatabase, useDatabase } from '@/lib/db';
import { contextAs } from './context';
import { getAuth, resetAuth } from '@/lib/features/access/auth';
import { resetAccessMode } from '@/lib/features/access/mode';
import type { KeyScope, Role } from '@/lib/core/access/scopes';
import { createUser } from '@/lib/features/access/create-user';

/** Every variable that decides the access mode or the auth instance. */
const ACCESS_ENV = [
  'API_KEYS',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'AUTH_SECRET',
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_ALLOWED_DOMAINS',
  'OIDC_ALLOWED_EMAILS',
] as const;

/** Unsets the access configuration and forgets the cached mode and auth instance. */
export function resetAccess(): void {
  for (const name of ACCESS_ENV) delete process.env[name];
  resetAccessMode();
  resetAuth();
}

/** Empties the tables of access control (and traces), so each test starts in open mode. */
export async function truncateAccess(db: Database): Promise<void> {
  await db.sql.exec('TRUNCATE "Trace", "User", "Apikey", "AppSetting", "SignInThrottle", "Verification" CASCADE');
  resetAccessMode();
}

type ConsoleLevel = 'info' | 'warn' | 'error';

/**
 * The hooks every access suite needs, registered in the calling describe: one database for
 * the suite, and before each test the access configuration unset, the access tables empty
 * (open mode) and the environment restored after it. `quiet` silences the console levels
 * the auth library logs to on purpose (wrong passwords, refusals).
 */
export function accessSuite(open: () => Promise<Database>, quiet: ConsoleLevel[] = ['info']): { readonly db: Database } {
  const state = {} as { db: Database };
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    state.db = await open();
    for (const level of quiet) vi.spyOn(console, level).mockImplementation(() => undefined);
  });
  afterAll(async () => {
    await state.db.close();
    vi.restoreAllMocks();
  });
  beforeEach(async () => {
    useDatabase(state.db);
    resetAccess();
    await truncateAccess(state.db);
  });
  afterEach(() => {
    process.env = { ...savedEnv };
    resetAccess();
  });
  return state;
}

export const ORIGIN = 'http://crossroads.test:3000';

/** Headers that make a request come from this socket address, as the server notes it (lib/core/client-address.ts). */
export function peer(address: string): Record<string, string> {
  return { [PEER_HEADER]: peerHeaderValue(address) };
}

/** POST /api/auth/sign-in/email through the real route, as the sign-in page sends it. */
export function signInRequest(
  email: string,
  password: string,
  opts: { origin?: string; address?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const origin = opts.origin ?? ORIGIN;
  const req = new Request(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    body: JSON.stringify({ email, password }),
    headers: {
      'content-type': 'application/json',
      origin,
      ...peer(opts.address ?? '198.51.100.7'),
      ...opts.headers,
    },
  });
  return authPost(req, { params: Promise.resolve({ all: ['sign-in', 'email'] }) });
}

/** The Set-Cookie line of the session token. */
export function sessionSetCookie(res: Response): string {
  const line = res.headers.getSetCookie().find((c) => /^(__Secure-)?crossroads\.session_token=/.test(c));
  if (!line) throw new Error(`no session cookie in ${res.status} answer: ${res.headers.getSetCookie().join(' | ')}`);
  return line;
}

/** A Cookie header carrying every cookie an answer set (name=value pairs only). */
export function cookieHeader(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Signs in and returns the Cookie header a browser would send afterwards. */
export async function signIn(email: string, password: string): Promise<string> {
  const res = await signInRequest(email, password);
  expect(res.status).toBe(200);
  sessionSetCookie(res);
  return cookieHeader(res);
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

let people = 0;
export async function makeUser(role: Role, password = 'correct horse battery'): Promise<TestUser> {
  people += 1;
  const email = `${role}-${people}-${process.pid}@example.test`;
  const { id } = await createUser(await getAuth(), { email, name: `${role} ${people}`, password, role });
  return { id, email, password };
}

/** A key made through the api-key plugin (as POST /api/api-keys does), owned by `ownerId`. */
export async function makeKey(scopes: KeyScope[], ownerId: string): Promise<{ id: string; key: string }> {
  const owner = contextAs(await getDatabase(), {
    mode: 'protected',
    keysOnly: false,
    credential: { kind: 'session', identity: { userId: ownerId, email: 'owner@example.test', name: 'owner', role: 'admin' } },
  });
  const created = await createApiKey(owner, { name: `test ${scopes.join('+')}`, scopes });
  return { id: created.id, key: created.key };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const basic = (key: string, user = 'any-user') => ({ authorization: `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}` });

/** Expects a JSON error answer `{ error }` and nothing else. */
export async function expectError(res: Response, status: number, message: string): Promise<void> {
  const text = await res.text();
  expect({ status: res.status, body: text }).toEqual({ status, body: JSON.stringify({ error: message }) });
}
