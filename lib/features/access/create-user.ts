// Creating a person with a password, for an admin's form (users.ts addUser) and for the
// ADMIN_EMAIL account the auth instance makes when it is built (auth.ts).
import 'server-only';
import { runWithEndpointContext, type AuthEndpointContext } from '@better-auth/core/context';
import { AppError } from '@/lib/core/errors';
import { getDatabase } from '@/lib/db';
import { sql } from '@/lib/db/sql';
import type { Auth } from './auth';
import type { NewUser } from './users';

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
  const restored = await (await getDatabase()).sql.query(
    sql`UPDATE "User" SET "role" = 'admin', "updatedAt" = now()
      WHERE "email" = ${email} AND NOT EXISTS (SELECT 1 FROM "User" WHERE "role" = 'admin') RETURNING "id"`,
  );
  if (restored.length > 0) console.warn(`[crossroads] no admin was left: ${email} (ADMIN_EMAIL) is an admin again`);
}

