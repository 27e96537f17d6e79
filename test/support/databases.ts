// The databases every integration test runs against: embedded PGlite always, and
// PostgreSQL when PG_TEST_ADMIN_URL is set (scripts/with-postgres.sh sets it). Each
// call gets a fresh, migrated, empty database of its own.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '@/lib/db/open';
import { migrate, readMigrations } from '@/lib/db/migrate';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<Database>;
}

async function freshPostgres(adminUrl: string): Promise<Database> {
  const dbName = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const db = await openDatabase(url.toString());
  await migrate(db.sql, await readMigrations());
  const close = db.close;
  return {
    ...db,
    async close() {
      await close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await a.end();
    },
  };
}

export function testDatabases(): TestDatabase[] {
  const list: TestDatabase[] = [
    { name: 'pglite', open: () => openDatabase('memory://', { migrateEmbedded: true }) },
  ];
  const adminUrl = process.env.PG_TEST_ADMIN_URL;
  if (adminUrl) list.push({ name: 'postgres', open: () => freshPostgres(adminUrl) });
  else if (process.env.CI) throw new Error('PG_TEST_ADMIN_URL must be set in CI: run through scripts/with-postgres.sh');
  return list;
}

/** Deletes every trace (children cascade) and the search queue. */
export async function truncateAll(db: Database): Promise<void> {
  await db.sql.exec('TRUNCATE "Trace", "SearchQueue" CASCADE');
}
