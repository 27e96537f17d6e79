// npm run db:migrate - applies pending SQL migrations to DATABASE_URL (or the embedded
// database). The release step of a deployment; the embedded database also migrates itself.
import { openDatabase } from '@/lib/db/open';
import { migrate, readMigrations } from '@/lib/db/migrate';

const db = await openDatabase(process.env.DATABASE_URL);
try {
  const result = await migrate(db.sql, await readMigrations());
  for (const name of result.applied) console.log(`applied  ${name}`);
  console.log(`${result.applied.length} applied, ${result.skipped.length} already applied (${db.kind})`);
} finally {
  await db.close();
}
