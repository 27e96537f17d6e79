import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { getDbPoolSize, getDbPreparedStatements, getPgliteDataDir } from '@/lib/core/config';
import { migrate, readMigrations } from './migrate';
import { openPglite } from './pglite';
import { pgliteExecutor, pgPoolExecutor, type SqlExecutor } from './executor';
import { parseDatabaseUrl } from './url';
import { raw } from './sql';

export interface Database {
  kind: 'pglite' | 'postgres';
  /** Better Auth's adapter (lib/features/access/auth.ts) and tests of the schema; the app's own SQL goes through `sql`. */
  prisma: PrismaClient;
  /** Every statement of the app, built with lib/db/sql's tag (lib/db/executor.ts). */
  sql: SqlExecutor;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Apply pending migrations when the database is embedded (PGlite). */
  migrateEmbedded?: boolean;
  dataDir?: string;
}

export async function openDatabase(url: string | undefined, options: OpenOptions = {}): Promise<Database> {
  const target = parseDatabaseUrl(url, options.dataDir ?? getPgliteDataDir());

  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: getDbPoolSize(),
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle pooled connection that PostgreSQL ends (a restart, a failover, an admin's
    // pg_terminate_backend) is dropped by the pool; without a listener the error would
    // crash the server process.
    pool.on('error', (err) => console.error(`[db] idle PostgreSQL connection lost: ${err.message}`));
    const sql = pgPoolExecutor(pool, { preparedStatements: getDbPreparedStatements() });
    try {
      await sql.query(raw('SELECT 1'));
    } catch (err) {
      await pool.end().catch(() => undefined);
      const where = safeHost(target.url);
      throw new Error(`Cannot reach PostgreSQL at ${where}: ${(err as Error).message}`, { cause: err });
    }
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      kind: 'postgres',
      prisma,
      sql,
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }

  const opened = await openPglite(target.kind === 'pglite' ? target.dataDir : undefined);
  const sql = pgliteExecutor(opened.pglite);
  try {
    if (options.migrateEmbedded) await migrate(sql, await readMigrations());
  } catch (err) {
    await opened.close();
    throw err;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(opened.pglite) });
  return {
    kind: 'pglite',
    prisma,
    sql,
    async close() {
      await prisma.$disconnect();
      await opened.close();
    },
  };
}

function safeHost(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}`;
  } catch {
    return '(unparsable URL)';
  }
}
