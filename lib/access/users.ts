// People: listed, added and changed by admins (/settings/users), and the first admin from
// ADMIN_EMAIL/ADMIN_PASSWORD. Passwords are hashed by Better Auth (scrypt) and stored on
// its credential account; nothing here sees a hash.
import 'server-only';
import { runWithEndpointContext, type AuthEndpointContext } from '@better-auth/core/context';
import { AppError } from '@/lib/errors';
import type { Db } from '@/lib/db';
import { getAuth, type Auth } from './auth';
import { isRole, type Role } from './scopes';
import { requireScope, type ServiceContext } from '@/lib/context';

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  role: Role;
  /** How the person signs in: "password", "sso" or both. */
  signIn: string[];
  createdAt: string;
}

export interface NewUser {
  email: string;
  name: string;
  password: string;
  role: Role;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

/** Validates an admin's "add user" form; throws AppError('VALIDATION') naming the field. */
export function parseNewUser(body: unknown): NewUser {
  const b = (body ?? {}) as Record<string, unknown>;
  const email = typeof b.email === 'string' ? b.email.trim().toLowerCase() : '';
  if (!EMAIL.test(email) || email.length > 254) throw new AppError('VALIDATION', 'email must be an email address');
  const name = typeof b.name === 'string' && b.name.trim() ? b.name.trim().slice(0, 200) : email.split('@')[0];
  const password = typeof b.password === 'string' ? b.password : '';
  if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
    throw new AppError('VALIDATION', `password must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
  }
  const role = b.role ?? 'viewer';
  if (!isRole(role)) throw new AppError('VALIDATION', 'role must be admin or viewer');
  return { email, name, password, role };
}

/** An admin adds a person with a password; 409 when the email is taken. */
export async function addUser(ctx: ServiceContext, input: NewUser): Promise<{ id: string }> {
  requireScope(ctx, 'admin');
  return createUser(await getAuth(), input);
}

/** Creates a person with a password; 409 when the email is taken. Only the server itself calls this directly (the ADMIN_EMAIL account). */
export async function createUser(auth: Auth, input: NewUser): Promise<{ id: string }> {
  const ctx = await auth.$context;
  if (await ctx.internalAdapter.findUserByEmail(input.email)) {
    throw new AppError('CONFLICT', 'A user with this email already exists');
  }
  // createUser runs user.validateUserInfo (the SSO gate in auth.ts), which Better Auth
  // only allows inside one of its endpoints; an admin's form and the bootstrap admin are
  // not, so they run in a context of their own (the gate lets non-OAuth sources pass).
  // (The cast only widens the instance's own options type to the library's general one.)
  const endpoint: AuthEndpointContext = { context: ctx as unknown as AuthEndpointContext['context'] };
  const user = await runWithEndpointContext(endpoint, () =>
    ctx.internalAdapter.createUser({ email: input.email, name: input.name, emailVerified: true, role: input.role }, { method: 'admin' }),
  );
  try {
    await ctx.internalAdapter.linkAccount({
      userId: user.id,
      providerId: 'credential',
      accountId: user.id,
      password: await ctx.password.hash(input.password),
    });
  } catch (err) {
    // Two writes: never leave a person without their password behind.
    await ctx.internalAdapter.deleteUser(user.id).catch(() => undefined);
    throw err;
  }
  return { id: user.id };
}

/**
 * The first admin, from the environment: created when no user has ADMIN_EMAIL, never
 * changed afterwards (a password changed since stays changed). Concurrent starts: the
 * unique email index lets one win; the other finds it.
 */
export async function ensureBootstrapAdmin(auth: Auth, email: string | undefined, password: string | undefined): Promise<void> {
  if (!email || !password) return;
  try {
    await createUser(auth, { email, name: email.split('@')[0], password, role: 'admin' });
    console.info(`[crossroads] created the admin account ${email} from ADMIN_EMAIL`);
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONFLICT') return;
    if ((err as { code?: string }).code === 'P2002') return;
    throw err;
  }
}

export async function listUsers(ctx: ServiceContext): Promise<UserRecord[]> {
  requireScope(ctx, 'admin');
  const db = ctx.db.prisma;
  const rows = await db.user.findMany({
    orderBy: { createdAt: 'asc' },
    select: { id: true, name: true, email: true, role: true, createdAt: true, accounts: { select: { providerId: true } } },
  });
  return rows.map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    role: isRole(u.role) ? u.role : 'viewer',
    signIn: [...new Set(u.accounts.map((a) => (a.providerId === 'credential' ? 'password' : 'sso')))],
    createdAt: u.createdAt.toISOString(),
  }));
}

async function adminCount(db: Db): Promise<number> {
  return db.user.count({ where: { role: 'admin' } });
}

/** Changes a role; an admin cannot demote the last admin (nobody could manage the server). */
export async function setUserRole(ctx: ServiceContext, id: string, role: unknown): Promise<void> {
  requireScope(ctx, 'admin');
  const db = ctx.db.prisma;
  if (!isRole(role)) throw new AppError('VALIDATION', 'role must be admin or viewer');
  const user = await db.user.findUnique({ where: { id }, select: { role: true } });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  if (user.role === 'admin' && role !== 'admin' && (await adminCount(db)) <= 1) {
    throw new AppError('CONFLICT', 'The last admin cannot be made a viewer');
  }
  await db.user.update({ where: { id }, data: { role } });
}

/** Removes a person and their sessions; not oneself, not the last admin. */
export async function deleteUser(ctx: ServiceContext, id: string): Promise<void> {
  const actor = requireScope(ctx, 'admin');
  const db = ctx.db.prisma;
  if (actor.kind === 'user' && id === actor.userId) throw new AppError('CONFLICT', 'You cannot remove your own account');
  const user = await db.user.findUnique({ where: { id }, select: { role: true } });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  if (user.role === 'admin' && (await adminCount(db)) <= 1) throw new AppError('CONFLICT', 'The last admin cannot be removed');
  await db.user.delete({ where: { id } });
}
