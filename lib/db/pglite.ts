// Opens the embedded PGlite database. PGlite is one process's database: a second
// instance on the same data directory corrupts it, so the directory is guarded by a
// lock file holding the owner's pid, and a second process fails loudly instead.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export class DatabaseLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database at ${dataDir} is in use by process ${pid}. ` +
        'PGlite allows one process per data directory: stop that process first, ' +
        'or point PGLITE_DATA_DIR (or DATABASE_URL) elsewhere.',
    );
    this.name = 'DatabaseLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock for dataDir or throws DatabaseLockedError; a stale lock (dead pid) is replaced. */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockPath = `${dataDir}.lock`;
  mkdirSync(path.dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      const release = () => rmSync(lockPath, { force: true });
      process.once('exit', release);
      return () => {
        process.off('exit', release);
        release();
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(lockPath, 'utf8').trim());
      if (owner && owner !== process.pid && isAlive(owner)) throw new DatabaseLockedError(dataDir, owner);
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

// PGlite's shared buffers live in its WASM memory, which is resident in full once touched
// and never given back: at PostgreSQL's 128 MB default a server opens at ~300 MB and
// holds more after its first large scans. At 32 MB it opens ~125 MB smaller; data files
// past the buffers are read from the operating system's page cache (not this process's
// memory). docs/benchmarks.md has the figures.
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

export interface OpenPglite {
  pglite: PGlite;
  close(): Promise<void>;
}

/** dataDir undefined means an in-memory database (tests, demos). */
export async function openPglite(dataDir: string | undefined): Promise<OpenPglite> {
  const release = dataDir ? acquireDataDirLock(dataDir) : () => undefined;
  try {
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    const pglite = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm }, startParams: START_PARAMS });
    return {
      pglite,
      async close() {
        await pglite.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
