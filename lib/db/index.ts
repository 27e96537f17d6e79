// The one database of this process, embedded PGlite or PostgreSQL depending on
// DATABASE_URL (see lib/db/url.ts): its SqlExecutor for every statement, and a Prisma
// client for Better Auth's adapter and the drift test. It is cached on globalThis, in
// production too: Next bundles pages and route handlers into separate module graphs,
// and two PGlite instances on one data directory would corrupt it.
import 'server-only';
import { openDatabase, type Database } from './open';
import { getDatabaseUrl } from '@/lib/core/config';

export type { Database } from './open';

const globalForDb = globalThis as unknown as { crossroadsDb?: Promise<Database> };

/** The process-wide database; opened (and, when embedded, migrated) on first use. */
export function getDatabase(): Promise<Database> {
  if (!globalForDb.crossroadsDb) {
    const opening = openDatabase(getDatabaseUrl(), { migrateEmbedded: true });
    globalForDb.crossroadsDb = opening;
    // A failed open (database down) must not be cached: the next request retries.
    opening.catch(() => {
      if (globalForDb.crossroadsDb === opening) globalForDb.crossroadsDb = undefined;
    });
  }
  return globalForDb.crossroadsDb;
}

/** Installs an already opened database as this process's database (tests, scripts). */
export function useDatabase(db: Database): void {
  globalForDb.crossroadsDb = Promise.resolve(db);
}
