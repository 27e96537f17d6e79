// Applies prisma/migrations/<name>/migration.sql in name order and records each in
// _prisma_migrations exactly as `prisma migrate deploy` does (id, sha256 checksum of
// the file, timestamps, applied_steps_count), so a connected machine running the
// Prisma CLI later sees them as applied. Each migration runs in its own transaction.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqlExecutor } from './executor';
import { sql } from './sql';

export const DEFAULT_MIGRATIONS_DIR = path.join(process.cwd(), 'prisma', 'migrations');

// Prisma's own table definition (postgres flavour).
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// The advisory lock key Prisma Migrate uses, so our runner and the CLI never race.
const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  skipped: string[];
}

export async function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export async function migrate(db: SqlExecutor, migrations: MigrationFile[]): Promise<MigrateResult> {
  await db.exec(CREATE_MIGRATIONS_TABLE);
  const result: MigrateResult = { applied: [], skipped: [] };

  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const rows = await tx.query<{ checksum: string }>(
        sql`SELECT checksum FROM "_prisma_migrations"
          WHERE migration_name = ${migration.name} AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
      if (rows.length > 0) {
        if (rows[0].checksum !== migration.checksum) {
          throw new Error(
            `Migration ${migration.name} was modified after it was applied (checksum mismatch). ` +
              'Add a new migration instead of editing an applied one.',
          );
        }
        return false;
      }
      const startedAt = new Date();
      await tx.exec(migration.sql);
      await tx.query(
        sql`INSERT INTO "_prisma_migrations"
           (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
         VALUES (${randomUUID()}, ${migration.checksum}, now(), ${migration.name}, NULL, NULL, ${startedAt}, 1)`,
      );
      return true;
    });
    (done ? result.applied : result.skipped).push(migration.name);
  }
  return result;
}
