import { createHash } from 'node:crypto';
import { vi, describe, expect, it } from 'vitest';
import { testDatabases } from '@/test/support/databases';
import { openDatabase } from './open';
import { migrate, readMigrations, type MigrationFile } from './migrate';

// These tests build fresh embedded databases, each running every migration (a few seconds
// idle, up to ~40 s measured on this 2-core machine under a parallel suite and benches):
// the suite's 30 s default would fail them for load, not for a fault.
vi.setConfig({ testTimeout: 120_000 });

const file = (name: string, sql: string): MigrationFile => ({
  name,
  sql,
  checksum: createHash('sha256').update(sql).digest('hex'),
});

describe('readMigrations', () => {
  it('reads prisma/migrations in name order with sha256 checksums of the files', async () => {
    const migrations = await readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.map((m) => m.name)).toEqual([...migrations.map((m) => m.name)].sort());
    for (const m of migrations) expect(m.checksum).toBe(createHash('sha256').update(m.sql).digest('hex'));
  });
});

describe.each(testDatabases())('migrate on $name', ({ name, open }) => {
  // A fresh, unmigrated database of this kind.
  const fresh = async () => {
    if (name === 'pglite') return openDatabase('memory://');
    const db = await open();
    await db.sql.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    return db;
  };

  it('applies every migration to a fresh database and records it as Prisma does', async () => {
    const db = await fresh();
    const migrations = await readMigrations();
    const result = await migrate(db.sql, migrations);
    expect(result).toEqual({ applied: migrations.map((m) => m.name), skipped: [] });
    const rows = await db.sql.query<Record<string, unknown>>(
      'SELECT id, checksum, migration_name, finished_at, rolled_back_at, started_at, applied_steps_count, logs FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows).toHaveLength(migrations.length);
    rows.forEach((row, i) => {
      expect(row.migration_name).toBe(migrations[i].name);
      expect(row.checksum).toBe(migrations[i].checksum);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    });
    await db.close();
  });

  it('is idempotent on an already-migrated database', async () => {
    const db = await fresh();
    const migrations = await readMigrations();
    await migrate(db.sql, migrations);
    expect(await migrate(db.sql, migrations)).toEqual({ applied: [], skipped: migrations.map((m) => m.name) });
    const [{ n }] = await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM "_prisma_migrations"');
    expect(n).toBe(migrations.length);
    await db.close();
  });

  it('rolls a failing migration back completely and records nothing for it', async () => {
    const db = await fresh();
    const good = file('001_good', 'CREATE TABLE good_table (id int);');
    const bad = file('002_bad', 'CREATE TABLE half_done (id int);\nSELECT 1/0;');
    await expect(migrate(db.sql, [good, bad])).rejects.toThrow(/division by zero/);
    const tables = await db.sql.query<{ t: string }>(
      "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    expect(tables.map((r) => r.t)).toEqual(['_prisma_migrations', 'good_table']);
    const names = await db.sql.query<{ m: string }>('SELECT migration_name AS m FROM "_prisma_migrations"');
    expect(names.map((r) => r.m)).toEqual(['001_good']);
    // Fixed, it applies on the next run.
    const fixed = file('002_bad', 'CREATE TABLE half_done (id int);');
    expect(await migrate(db.sql, [good, fixed])).toEqual({ applied: ['002_bad'], skipped: ['001_good'] });
    await db.close();
  });

  it('backfills child counts for traces stored before the counts migration', async () => {
    const db = await fresh();
    const [init, counts, ...rest] = await readMigrations();
    expect(counts.name).toMatch(/trace_child_counts$/);
    await migrate(db.sql, [init]);
    await db.sql.exec(`
      INSERT INTO "Trace" (id, name, status, tags, "startedAt") VALUES ('old', 'n', 'COMPLETED', '{}', now()), ('bare', 'n', 'RUNNING', '{}', now());
      INSERT INTO "Span" ("traceId", id, name, type, status, "startedAt") VALUES ('old', 's1', 'n', 'CHAIN', 'COMPLETED', now()), ('old', 's2', 'n', 'CHAIN', 'COMPLETED', now());
      INSERT INTO "Event" ("traceId", id, name, type, timestamp) VALUES ('old', 'e1', 'n', 'ERROR', now());`);
    await migrate(db.sql, [init, counts, ...rest]);
    const rows = await db.sql.query('SELECT id, "decisionPointCount" AS d, "spanCount" AS s, "eventCount" AS e FROM "Trace" ORDER BY id');
    expect(rows).toEqual([
      { id: 'bare', d: 0, s: 0, e: 0 },
      { id: 'old', d: 0, s: 2, e: 1 },
    ]);
    await db.close();
  });

  it('refuses a migration edited after it was applied', async () => {
    const db = await fresh();
    await migrate(db.sql, [file('001_a', 'CREATE TABLE a (id int);')]);
    await expect(migrate(db.sql, [file('001_a', 'CREATE TABLE a (id bigint);')])).rejects.toThrow(/checksum mismatch/);
    await db.close();
  });
});
