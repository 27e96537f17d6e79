// Open mode only while nothing is configured: no API_KEYS, no ADMIN_EMAIL, no OIDC, and
// no user or API key in the database. The moment any credential exists, every read and
// write needs one (protected mode), and it never goes back while the process lives.
import 'server-only';
import { getDatabase, type Database } from '@/lib/db';
import { sql } from '@/lib/db/sql';
import { configuredProtected } from '@/lib/core/access/configured';
import type { AccessMode } from '@/lib/core/access/decide';

export type { AccessMode };

// "open" is re-checked every OPEN_RECHECK_MS (an admin may have created the first user in
// another instance); "protected" is final per database.
const OPEN_RECHECK_MS = 2_000;
const cache = globalThis as unknown as {
  __crossroadsAccessMode?: { database: Database; mode: AccessMode; at: number };
};

export async function accessMode(): Promise<AccessMode> {
  if (configuredProtected()) return 'protected';
  const database = await getDatabase();
  const cached = cache.__crossroadsAccessMode;
  if (cached?.database === database && (cached.mode === 'protected' || Date.now() - cached.at < OPEN_RECHECK_MS)) {
    return cached.mode;
  }
  const [row] = await database.sql.query<{ any: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM "User") OR EXISTS (SELECT 1 FROM "Apikey") AS any`,
  );
  const mode: AccessMode = row.any ? 'protected' : 'open';
  cache.__crossroadsAccessMode = { database, mode, at: Date.now() };
  return mode;
}

/** Forgets the cached mode (tests). */
export function resetAccessMode(): void {
  cache.__crossroadsAccessMode = undefined;
}
