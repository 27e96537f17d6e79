// People: listed, added and changed by admins (/settings/users), and the first admin from
// ADMIN_EMAIL/ADMIN_PASSWORD. Passwords are hashed by Better Auth (scrypt) and stored on
// its credential account; nothing here sees a hash.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import type { SqlExecutor } from '@/lib/db/executor';
import { sql } from '@/lib/db/sql';
import { getAuth } from './auth';
import { createUser } from './create-user';
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

export async function listUsers(ctx: ServiceContext): Promise<UserRecord[]> {
  requireScope(ctx, 'admin');
  const rows = await ctx.db.sql.query<{ id: string; name: string; email: string; role: string; createdAt: Date; providers: string[] }>(sql`
    SELECT u."id", u."name", u."email", u."role", u."createdAt",
      coalesce((SELECT array_agg(a."providerId" ORDER BY a."createdAt", a."id") FROM "Account" a WHERE a."userId" = u."id"), '{}') AS "providers"
    FROM "User" u ORDER BY u."createdAt" ASC`);
  return rows.map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    role: isRole(u.role) ? u.role : 'viewer',
    signIn: [...new Set(u.providers.map((providerId) => (providerId === 'credential' ? 'password' : 'sso')))],
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
    const admins = await tx.query<{ id: string }>(sql`SELECT "id" FROM "User" WHERE "role" = 'admin' ORDER BY "id" FOR UPDATE`);
    const [user] = await tx.query<{ role: string }>(sql`SELECT "role" FROM "User" WHERE "id" = ${id}`);
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
    (tx) => tx.query(sql`UPDATE "User" SET "role" = ${role}, "updatedAt" = now() WHERE "id" = ${id}`),
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
    (tx) => tx.query(sql`DELETE FROM "User" WHERE "id" = ${id}`),
  );
}
