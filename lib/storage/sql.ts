// A minimal raw-SQL handle over either driver, for the work Prisma cannot do:
// multi-statement migration scripts, advisory locks, and the drift check.
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

export interface QueryOptions {
  /**
   * Prepares the statement under this name on each PostgreSQL connection, so that it is
   * planned once per connection instead of at every call (a plan PostgreSQL keeps when it
   * does not depend on the parameters). For statements run at every request with the
   * same text; ignored by PGlite.
   */
  prepared?: string;
}

export interface SqlExecutor {
  /** Runs a script that may hold several statements (no parameters). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
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

export interface PgExecutorOptions {
  /** Honour QueryOptions.prepared (DATABASE_PREPARED_STATEMENTS); false sends every statement unnamed. */
  preparedStatements: boolean;
}

/** node-pg's query config: a named statement is prepared once per connection. */
function pgQuery(text: string, values: unknown[], options: QueryOptions | undefined, pgOptions: PgExecutorOptions): pg.QueryConfig {
  return options?.prepared && pgOptions.preparedStatements ? { name: options.prepared, text, values } : { text, values };
}

function clientExecutor(client: pg.PoolClient | pg.Client, pgOptions: PgExecutorOptions): SqlExecutor {
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions) {
      return (await client.query(pgQuery(sql, params, options, pgOptions))).rows as T[];
    },
    transaction: () => Promise.reject(new Error('nested transactions are not supported')),
  };
}

export function pgPoolExecutor(pool: pg.Pool, pgOptions: PgExecutorOptions = { preparedStatements: true }): SqlExecutor {
  return {
    async exec(sql) {
      await pool.query(sql);
    },
    async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions) {
      return (await pool.query(pgQuery(sql, params, options, pgOptions))).rows as T[];
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(clientExecutor(client, pgOptions));
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

/**
 * The executor of work already inside `tx`: the transactions it opens run as part of the
 * enclosing one, so several verbs commit or roll back together.
 */
export function withinTransaction(tx: SqlExecutor): SqlExecutor {
  return {
    exec: (sql) => tx.exec(sql),
    query: (sql, params, options) => tx.query(sql, params, options),
    transaction: (fn) => fn(tx),
  };
}
