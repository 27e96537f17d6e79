// A throwaway PostgreSQL 15 cluster for one bench run, started like
// scripts/with-postgres.sh but with realistic durability (fsync, synchronous_commit
// and full_page_writes on): ingest figures on an fsync-off cluster would flatter us.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface PgCluster {
  adminUrl: string;
  url: string;
  port: number;
  dir: string;
  /** Durability settings the cluster runs with, for the report. */
  settings: Record<string, string>;
  stop(): void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export interface ClusterOptions {
  pgBin?: string;
  sharedBuffers?: string;
  fsync?: boolean;
  /** More server settings (diagnostics: pg_stat_statements, auto_explain). */
  extra?: Record<string, string>;
  log?: (msg: string) => void;
}

export async function startPostgres(options: ClusterOptions = {}): Promise<PgCluster> {
  const pgBin = options.pgBin ?? process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  if (!existsSync(path.join(pgBin, 'initdb'))) {
    throw new Error(`PostgreSQL 15 not found in ${pgBin}: apt-get install postgresql-15, or set PG_BIN`);
  }
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crossroads-bench-pg.'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (bin: string, args: string[]) => {
    const cmd = asRoot ? 'runuser' : path.join(pgBin, bin);
    const argv = asRoot ? ['-u', 'postgres', '--', path.join(pgBin, bin), ...args] : args;
    const res = spawnSync(cmd, argv, { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${bin} failed: ${res.stderr || res.stdout}`);
  };
  const fsync = options.fsync ?? true;
  const settings: Record<string, string> = {
    fsync: fsync ? 'on' : 'off',
    synchronous_commit: fsync ? 'on' : 'off',
    full_page_writes: fsync ? 'on' : 'off',
    shared_buffers: options.sharedBuffers ?? '256MB',
    max_connections: '200',
    // PostgreSQL defaults besides these; a small machine would not tune them either.
    ...options.extra,
  };
  const stop = () => {
    spawnSync(asRoot ? 'runuser' : path.join(pgBin, 'pg_ctl'), [
      ...(asRoot ? ['-u', 'postgres', '--', path.join(pgBin, 'pg_ctl')] : []),
      '-D',
      path.join(dir, 'data'),
      '-m',
      'fast',
      'stop',
    ]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', path.join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
    const opts = [
      '-c listen_addresses=127.0.0.1',
      `-p ${port}`,
      `-k ${dir}`,
      ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`),
    ].join(' ');
    run('pg_ctl', ['-D', path.join(dir, 'data'), '-l', path.join(dir, 'log'), '-w', '-o', opts, 'start']);
    const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE crossroads');
    await admin.end();
    options.log?.(`PostgreSQL 15 on 127.0.0.1:${port} (fsync=${settings.fsync}, shared_buffers=${settings.shared_buffers})`);
    return { adminUrl, url: `postgresql://postgres@127.0.0.1:${port}/crossroads`, port, dir, settings, stop };
  } catch (err) {
    stop();
    throw err;
  }
}
