import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { vi, afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './open';
import { acquireDataDirLock, DatabaseLockedError } from './pglite';

// These tests build fresh embedded databases, each running every migration (a few seconds
// idle, up to ~40 s measured on this 2-core machine under a parallel suite and benches):
// the suite's 30 s default would fail them for load, not for a fault.
vi.setConfig({ testTimeout: 120_000 });

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'crossroads-open-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('openDatabase', () => {
  it('memory:// opens an in-memory PGlite, migrated when asked', async () => {
    const db = await openDatabase('memory://', { migrateEmbedded: true });
    expect(db.kind).toBe('pglite');
    expect(await db.prisma.trace.count()).toBe(0);
    await db.close();
  });

  it('no URL creates and migrates the embedded database in its data directory, and reopens it', async () => {
    const dataDir = path.join(tempDir(), 'pglite');
    const db = await openDatabase(undefined, { dataDir, migrateEmbedded: true });
    await db.prisma.trace.create({ data: { id: 'kept', name: 'n', status: 'RUNNING', tags: [], startedAt: new Date() } });
    await db.close();
    const again = await openDatabase(undefined, { dataDir, migrateEmbedded: true });
    expect((await again.prisma.trace.findMany()).map((t) => t.id)).toEqual(['kept']);
    // Its shared buffers are held in the process's memory: kept small (lib/db/pglite.ts).
    expect(await again.sql.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '32MB' }]);
    await again.close();
  });

  it.runIf(process.env.PG_TEST_URL)('postgres:// opens PostgreSQL through the pg adapter', async () => {
    const db = await openDatabase(process.env.PG_TEST_URL);
    expect(db.kind).toBe('postgres');
    expect(await db.sql.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await db.close();
  });

  it.runIf(process.env.PG_TEST_URL).each([
    ['unset', ['crossroads_check'], undefined],
    ['false', [], 'false'],
  ])('DATABASE_PREPARED_STATEMENTS %s: the session prepared %j', async (_, expected, value) => {
    const saved = process.env.DATABASE_PREPARED_STATEMENTS;
    if (value === undefined) delete process.env.DATABASE_PREPARED_STATEMENTS;
    else process.env.DATABASE_PREPARED_STATEMENTS = value;
    const db = await openDatabase(process.env.PG_TEST_URL);
    try {
      const names = await db.sql.transaction(async (tx) => {
        expect(await tx.query('SELECT $1::int AS n', [7], { prepared: 'crossroads_check' })).toEqual([{ n: 7 }]);
        // On the same connection: the session's prepared statements.
        const rows = await tx.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE name = 'crossroads_check'`);
        return rows.map((r) => r.name);
      });
      expect(names).toEqual(expected);
    } finally {
      await db.close();
      if (saved === undefined) delete process.env.DATABASE_PREPARED_STATEMENTS;
      else process.env.DATABASE_PREPARED_STATEMENTS = saved;
    }
  });

  it('refuses a DATABASE_PREPARED_STATEMENTS that is not true or false', async () => {
    process.env.DATABASE_PREPARED_STATEMENTS = 'sometimes';
    try {
      await expect(openDatabase('postgresql://user@127.0.0.1:1/db')).rejects.toThrow(
        'DATABASE_PREPARED_STATEMENTS must be true or false, got "sometimes"',
      );
    } finally {
      delete process.env.DATABASE_PREPARED_STATEMENTS;
    }
  });

  it('fails clearly for an unreachable PostgreSQL, naming host and port but not the password', async () => {
    const attempt = openDatabase('postgresql://user:hunter2@127.0.0.1:1/db');
    await expect(attempt).rejects.toThrow(/Cannot reach PostgreSQL at 127\.0\.0\.1:1/);
    await expect(attempt).rejects.not.toThrow(/hunter2/);
  });

  it('fails clearly for an unknown scheme', async () => {
    await expect(openDatabase('sqlite://file.db')).rejects.toThrow(/Unsupported DATABASE_URL scheme "sqlite:"/);
  });
});

describe('the embedded data directory lock', () => {
  it('a second process cannot open a data directory this process has open', async () => {
    const dataDir = path.join(tempDir(), 'pglite');
    const db = await openDatabase(undefined, { dataDir, migrateEmbedded: true });
    const child = spawnSync('npx', ['tsx', 'test/support/open-embedded.ts', dataDir], { encoding: 'utf8' });
    expect(child.status).not.toBe(0);
    expect(child.stderr).toMatch(new RegExp(`in use by process ${process.pid}`));
    await db.close();
  });

  it('replaces a stale lock left by a dead process and refuses a live owner', () => {
    const dataDir = path.join(tempDir(), 'pglite');
    const dead = spawnSync('true').pid!;
    writeFileSync(`${dataDir}.lock`, String(dead));
    const release = acquireDataDirLock(dataDir);
    release();
    writeFileSync(`${dataDir}.lock`, String(process.ppid));
    expect(() => acquireDataDirLock(dataDir)).toThrow(DatabaseLockedError);
  });
});
