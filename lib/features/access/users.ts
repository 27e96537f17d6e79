// People: listed, added and changed by admins (/settings/users), and the first admin from
// ADMIN_EMAIL/ADMIN_PASSWORD. Passwords are hashed by Better Auth (scrypt) and stored on
// its credential account; nothing here sees a hash.
import 'server-only';
import { runWithEndpointContext, type AuthEndpointContext } from '@better-auth/core/context';
import { AppError } from '@/lib/core/errors';
import { getDatabase } from '@/lib/db';
import type { SqlExecutor } from '@/lib/db/executor';
import { getAuth, type Auth } from './auth';
import { isRole, type Role } from '@/lib/core/access/scopes';
import { requireScope, type ServiceContext } from '@/lib/core/context';

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
 * changed afterwards (a password changed since stays changed), except that when no admin
 * is left at all, that person is made admin again, so a server can always be managed.
 * While any admin exists, their choice stands (an admin may demote ADMIN_EMAIL's person).
 * Concurrent starts: the unique email index lets one create it; the other finds it.
 */
export async function ensureBootstrapAdmin(auth: Auth, email: string | undefined, password: string | undefined): Promise<void> {
  if (!email || !password) return;
  try {
    await createUser(auth, { email, name: email.split('@')[0], password, role: 'admin' });
    console.info(`[crossroads] created the admin account ${email} from ADMIN_EMAIL`);
    return;
  } catch (err) {
    const exists = (err instanceof AppError && err.code === 'CONFLICT') || (err as { code?: string }).code === 'P2002';
    if (!exists) throw err;
  }
  const { sql } = await getDatabase();
  const restored = await sql.query(
    `UPDATE "User" SET "role" = 'admin', "updatedAt" = now()
      WHERE "email" = $1 AND NOT EXISTS (SELECT 1 FROM "User" WHERE "role" = 'admin') RETURNING "id"`,
    [email],
  );
  if (restored.length > 0) console.warn(`[crossroads] no admin was left: ${email} (ADMIN_EMAIL) is an admin again`);
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

/**
 * Runs a change to one person under a lock on every admin row, and refuses it (409) when
 * it would take away the last admin. Two admins demoting or removing each other at once
 * take turns here: the second counts the admins the first left (READ COMMITTED re-reads
 * locked rows, so one demoted meanwhile no longer counts).
 */
async function changeKeepingAnAdmin(
  ctx: ServiceContext,
  id: string,
  takesAdmin: (role: string) => boolean,
  lastAdmin: string,
  change: (tx: SqlExecutor) => Promise<unknown>,
): Promise<void> {
  await ctx.db.sql.transaction(async (tx) => {
    const admins = await tx.query<{ id: string }>(`SELECT "id" FROM "User" WHERE "role" = 'admin' ORDER BY "id" FOR UPDATE`);
    const [user] = await tx.query<{ role: string }>(`SELECT "role" FROM "User" WHERE "id" = $1`, [id]);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    if (takesAdmin(user.role) && admins.length <= 1) throw new AppError('CONFLICT', lastAdmin);
    await change(tx);
  });
}

/** Changes a role; an admin cannot demote the last admin (nobody could manage the server). */
export async function setUserRole(ctx: ServiceContext, id: string, role: unknown): Promise<void> {
  requireScope(ctx, 'admin');
  if (!isRole(role)) throw new AppError('VALIDATION', 'role must be admin or viewer');
  await changeKeepingAnAdmin(
    ctx,
    id,
    (current) => current === 'admin' && role !== 'admin',
    'The last admin cannot be made a viewer',
    (tx) => tx.query(`UPDATE "User" SET "role" = $2, "updatedAt" = now() WHERE "id" = $1`, [id, role]),
  );
}

/** Removes a person and their sessions; not oneself, not the last admin. */
export async function deleteUser(ctx: ServiceContext, id: string): Promise<void> {
  const actor = requireScope(ctx, 'admin');
  if (actor.kind === 'user' && id === actor.userId) throw new AppError('CONFLICT', 'You cannot remove your own account');
  await changeKeepingAnAdmin(
    ctx,
    id,
    (current) => current === 'admin',
    'The last admin cannot be removed',
    (tx) => tx.query(`DELETE FROM "User" WHERE "id" = $1`, [id]),
  );
}
