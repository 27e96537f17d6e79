// Seeds the e2e server that is protected only by people in its database (no API_KEYS,
// ADMIN_EMAIL or OIDC variable): `npx tsx e2e/seed-db-user.ts <email> <password>` opens
// (and migrates) the embedded database at PGLITE_DATA_DIR, creates an admin with that
// password through the app's own code, and closes the database so its lock is released
// before `next start` opens it.
import { getAuth } from '@/lib/features/access/auth';
import { ensureBootstrapAdmin } from '@/lib/features/access/create-user';
import { getDatabase } from '@/lib/db';

const [email, password] = process.argv.slice(2);
if (!email || !password) {
  console.error('usage: npx tsx e2e/seed-db-user.ts <email> <password>');
  process.exit(2);
}

const database = await getDatabase();
try {
  await ensureBootstrapAdmin(await getAuth(), email, password);
  const admins = await database.prisma.user.count({ where: { email, role: 'admin' } });
  if (admins !== 1) throw new Error(`expected one admin ${email}, found ${admins}`);
  console.info(`[seed-db-user] admin ${email} in ${process.env.PGLITE_DATA_DIR ?? 'the default database'}`);
} finally {
  await database.close();
}
