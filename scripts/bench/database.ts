// Raw database access for the bench (seeding, the raw-insert baseline, EXPLAIN), on
// PostgreSQL through `pg` or on a PGlite data directory, bypassing the app entirely.
// COPY goes over the wire protocol directly (pg has no COPY API without an extra
// package; its Connection can send CopyData itself) or through PGlite's /dev/blob.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrate, readMigrations } from '@/lib/db/migrate';
import { openPglite } from '@/lib/db/pglite';
import { pgliteExecutor, pgPoolExecutor } from '@/lib/db/executor';
import { copySql, setChildCountColumns, type Table } from './rows';
import { isSql, type Sql } from '@/lib/db/sql';

const CHILD_COUNTS_PROBE = `SELECT count(*)::int AS n FROM information_schema.columns
  WHERE table_name = 'Trace' AND column_name IN ('decisionPointCount', 'spanCount', 'eventCount')`;

export interface RawConn {
  /** A statement built with lib/db/sql's tag, or a text and its parameters. */
  query<T = Record<string, unknown>>(sql: Sql | string, params?: unknown[]): Promise<T[]>;
  copy(table: Table, data: Buffer): Promise<void>;
}

export interface RawDb {
  kind: 'pglite' | 'postgres';
  /** A connection for one concurrent writer; PGlite has one, shared. */
  connect(): Promise<RawConn & { release(): Promise<void> }>;
  close(): Promise<void>;
}

// A pg Query whose COPY FROM STDIN is fed from memory.
const PgQuery = pg.Query as unknown as new (text: string, values: unknown[], cb: (err: Error | null) => void) => object;
class CopyFromMemory extends PgQuery {
  constructor(
    text: string,
    private readonly data: Buffer,
    cb: (err: Error | null) => void,
  ) {
    super(text, [], cb);
  }
  handleCopyInResponse(connection: { sendCopyFromChunk(b: Buffer): void; endCopyFrom(): void }) {
    const CHUNK = 256 * 1024;
    for (let i = 0; i < this.data.length; i += CHUNK) connection.sendCopyFromChunk(this.data.subarray(i, i + CHUNK));
    connection.endCopyFrom();
  }
}

function pgConn(client: pg.Client): RawConn {
  return {
    async query<T>(sql: Sql | string, params: unknown[] = []) {
      return (isSql(sql) ? await client.query(sql.text, sql.values) : await client.query(sql, params)).rows as T[];
    },
    copy(table, data) {
      return new Promise<void>((resolve, reject) => {
        client.query(new CopyFromMemory(copySql(table), data, (err) => (err ? reject(err) : resolve())) as never);
      });
    },
  };
}

export async function openPostgresRaw(url: string, options: { migrate?: boolean } = {}): Promise<RawDb> {
  if (options.migrate) {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await migrate(pgPoolExecutor(pool), await readMigrations());
    } finally {
      await pool.end();
    }
  }
  {
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    try {
      setChildCountColumns((await probe.query(CHILD_COUNTS_PROBE)).rows[0].n === 3);
    } finally {
      await probe.end();
    }
  }
  const open: pg.Client[] = [];
  return {
    kind: 'postgres',
    async connect() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      open.push(client);
      return {
        ...pgConn(client),
        async release() {
          open.splice(open.indexOf(client), 1);
          await client.end();
        },
      };
    },
    async close() {
      await Promise.all(open.splice(0).map((c) => c.end()));
    },
  };
}

function pgliteConn(db: PGlite): RawConn {
  return {
    async query<T>(sql: Sql | string, params: unknown[] = []) {
      return (isSql(sql) ? await db.query(sql.text, sql.values) : await db.query(sql, params)).rows as T[];
    },
    async copy(table, data) {
      await db.query(`${copySql(table).replace('FROM STDIN', "FROM '/dev/blob'")}`, [], {
        blob: new Blob([new Uint8Array(data)]),
      });
    },
  };
}

/** Opens (creating and migrating when new) a PGlite data directory; takes its lock. */
export async function openPgliteRaw(dataDir: string): Promise<RawDb> {
  const opened = await openPglite(dataDir);
  try {
    await migrate(pgliteExecutor(opened.pglite), await readMigrations());
  } catch (err) {
    await opened.close();
    throw err;
  }
  const conn = pgliteConn(opened.pglite);
  setChildCountColumns((await conn.query<{ n: number }>(CHILD_COUNTS_PROBE))[0].n === 3);
  return {
    kind: 'pglite',
    async connect() {
      return { ...conn, release: async () => undefined };
    },
    close: () => opened.close(),
  };
}
