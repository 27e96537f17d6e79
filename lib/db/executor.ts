// The one database handle every verb uses, over either driver (PGlite or node-postgres):
// statements built with lib/db/sql's tag, one transaction API, multi-statement scripts
// (migrations) and large text handed over as bytes.
import { protocol, type PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { isSql, type Sql } from './sql';

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
  /**
   * A statement built with lib/db/sql's tag, then its options; or (migration scripts, the
   * drift check) a text and its parameters.
   */
  query<T = Record<string, unknown>>(statement: Sql | string, paramsOrOptions?: unknown[] | QueryOptions, options?: QueryOptions): Promise<T[]>;
  /**
   * Like query, each row's values as the UTF-8 bytes of their text form (null for NULL):
   * for large text sent on as it is, skipping the string a driver decodes and the copy
   * an encoder makes of it. A Uint8Array parameter is sent as the text's UTF-8 bytes.
   */
  queryBytes(statement: Sql | string, params?: unknown[]): Promise<Array<Array<Uint8Array | null>>>;
  /** Runs fn inside BEGIN/COMMIT on one connection; ROLLBACK when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

export function pgliteExecutor(db: PGlite): SqlExecutor {
  return statements({
    async exec(sql) {
      await db.exec(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query(sql, params)).rows as T[];
    },
    // PGlite's query lock is taken by a transaction; inside one, the raw protocol call below runs on its session.
    queryBytes: (sql, params = []) => db.transaction(() => pgliteQueryBytes(db, sql, params)),
    transaction(fn) {
      return db.transaction((tx) =>
        fn(
          statements({
            async exec(sql) {
              await tx.exec(sql);
            },
            async query<T>(sql: string, params: unknown[] = []) {
              return (await tx.query(sql, params)).rows as T[];
            },
            queryBytes: (sql, params = []) => pgliteQueryBytes(db, sql, params),
            transaction: () => Promise.reject(new Error('nested transactions are not supported')),
          }),
        ),
      );
    },
  });
}

/**
 * One extended-protocol round on PGlite's session, the values taken out of its DataRow
 * messages as bytes: PGlite's query decodes each into a string (no option skips it).
 * The caller holds PGlite's lock (a transaction).
 */
async function pgliteQueryBytes(db: PGlite, sql: string, params: unknown[]): Promise<Array<Array<Uint8Array | null>>> {
  const values = params.map((value) =>
    value === null || value === undefined || value instanceof Uint8Array ? (value ?? null) : value instanceof Date ? value.toISOString() : String(value),
  );
  // PGlite runs a statement synchronously on this thread: let sockets and timers run
  // first, or a series of large statements holds up every response in between.
  await new Promise((resolve) => setImmediate(resolve));
  const rows: Array<Array<Uint8Array | null>> = [];
  let error: Error | undefined;
  const take = (message: Uint8Array) => {
    if (message[0] === 0x45 /* 'E' ErrorResponse */) error ??= protocolError(message);
    if (message[0] !== 0x44 /* 'D' DataRow: int16 count, then each value as int32 length (-1: NULL) and bytes */) return;
    const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
    const row: Array<Uint8Array | null> = [];
    let at = 7;
    for (let n = view.getInt16(5); n > 0; n--) {
      const length = view.getInt32(at);
      row.push(length < 0 ? null : message.subarray(at + 4, at + 4 + length));
      at += 4 + Math.max(length, 0);
    }
    rows.push(row);
  };
  // The stream form: execProtocolRaw would also parse the reply into strings. Each piece
  // is a view of WASM memory, valid during the call only: copied once, and the values are
  // views of the copy; a message cut across pieces is joined once it is whole.
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let needed = 0;
  const onRawData = (piece: Uint8Array) => {
    pending.push(piece.slice());
    pendingBytes += piece.byteLength;
    if (pendingBytes < needed) return;
    const data = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    // Each backend message: a type byte, then its length (counting itself) as an int32.
    let at = 0;
    for (; data.byteLength - at >= 5 && data.byteLength - at >= 1 + view.getInt32(at + 1); at += 1 + view.getInt32(at + 1)) {
      take(data.subarray(at, at + 1 + view.getInt32(at + 1)));
    }
    const rest = data.subarray(at);
    pending = rest.byteLength > 0 ? [rest] : [];
    pendingBytes = rest.byteLength;
    needed = rest.byteLength >= 5 ? 1 + view.getInt32(at + 1) : 5;
  };
  // Message by message, as PGlite's query sends them (no copy joining them). The
  // transaction's COMMIT syncs the file system; these need not.
  const { serialize } = protocol;
  for (const message of [serialize.parse({ text: sql }), serialize.bind({ values }), serialize.execute(), serialize.sync()]) {
    await db.execProtocolRawStream(message, { syncToFs: false, onRawData });
  }
  if (error) throw error;
  return rows;
}

/** The DatabaseError an ErrorResponse message carries, as PGlite's query would throw it. */
function protocolError(message: Uint8Array): Error {
  let error: Error = new Error('PostgreSQL error');
  new protocol.Parser().parse(message, (parsed) => {
    if (parsed instanceof Error) error = parsed;
  });
  return error;
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
  return statements({
    async exec(sql) {
      await client.query(sql);
    },
    async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions) {
      return (await client.query(pgQuery(sql, params, options, pgOptions))).rows as T[];
    },
    queryBytes: async (sql, params = []) => bytesOfRows(await client.query<unknown[]>({ text: sql, values: params, rowMode: 'array' })),
    transaction: () => Promise.reject(new Error('nested transactions are not supported')),
  });
}

// pg decodes every text value into a string (pg-protocol has no raw mode): encoded here once.
function bytesOfRows(result: pg.QueryResult<unknown[]>): Array<Array<Uint8Array | null>> {
  return result.rows.map((row) => row.map((value) => (value === null ? null : Buffer.from(String(value), 'utf8'))));
}

export function pgPoolExecutor(pool: pg.Pool, pgOptions: PgExecutorOptions = { preparedStatements: true }): SqlExecutor {
  return statements({
    async exec(sql) {
      await pool.query(sql);
    },
    async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions) {
      return (await pool.query(pgQuery(sql, params, options, pgOptions))).rows as T[];
    },
    queryBytes: async (sql, params = []) => bytesOfRows(await pool.query<unknown[]>({ text: sql, values: params, rowMode: 'array' })),
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
  });
}

/**
 * The executor of work already inside `tx`: the transactions it opens run as part of the
 * enclosing one, so several verbs commit or roll back together.
 */
export function withinTransaction(tx: SqlExecutor): SqlExecutor {
  return {
    exec: (sql) => tx.exec(sql),
    query: tx.query.bind(tx),
    queryBytes: tx.queryBytes.bind(tx),
    transaction: (fn) => fn(tx),
  };
}

/** A driver's executor in text-and-parameters form. */
interface DriverExecutor {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  queryBytes(sql: string, params?: unknown[]): Promise<Array<Array<Uint8Array | null>>>;
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

/** The executor a driver's one form gives: a statement built by sql`...` is compiled to its text and parameters once. */
function statements(driver: DriverExecutor): SqlExecutor {
  function query<T>(statement: Sql | string, paramsOrOptions?: unknown[] | QueryOptions, options?: QueryOptions): Promise<T[]> {
    if (isSql(statement)) return driver.query<T>(statement.text, statement.values, paramsOrOptions as QueryOptions | undefined);
    return driver.query<T>(statement, paramsOrOptions as unknown[] | undefined, options);
  }
  function queryBytes(statement: Sql | string, params?: unknown[]): Promise<Array<Array<Uint8Array | null>>> {
    return isSql(statement) ? driver.queryBytes(statement.text, statement.values) : driver.queryBytes(statement, params);
  }
  return { exec: (sql) => driver.exec(sql), query, queryBytes, transaction: (fn) => driver.transaction(fn) };
}
