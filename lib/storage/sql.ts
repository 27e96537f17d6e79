// A minimal raw-SQL handle over either driver, for the work Prisma cannot do:
// multi-statement migration scripts, advisory locks, and the drift check.
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

export interface SqlExecutor {
  /** Runs a script that may hold several statements (no parameters). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn inside BEGIN/COMMIT on one connection; ROLLBACK when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

export function pgliteExecutor(db: PGlite): SqlExecutor {
  return {
    async exec(sql) {
      await db.exec(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query(sql, params)).rows as T[];
    },
    transaction(fn) {
      return db.transaction((tx) =>
        fn({
          async exec(sql) {
            await tx.exec(sql);
          },
          async query<T>(sql: string, params: unknown[] = []) {
            return (await tx.query(sql, params)).rows as T[];
          },
          transaction: () => Promise.reject(new Error('nested transactions are not supported')),
        }),
      );
    },
  };
}

function clientExecutor(client: pg.PoolClient | pg.Client): SqlExecutor {
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[];
    },
    transaction: () => Promise.reject(new Error('nested transactions are not supported')),
  };
}

export function pgPoolExecutor(pool: pg.Pool): SqlExecutor {
  return {
    async exec(sql) {
      await pool.query(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(clientExecutor(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
  };
}
