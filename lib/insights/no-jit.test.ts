// queryWithoutJit on every test database: the statement sees jit off, the setting does
// not outlive it, and it is bounded neither by Prisma's transaction defaults (5 s) nor by
// a concurrent call holding PGlite's one connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/storage/open';
import { testDatabases } from '@/lib/testing/databases';
import { queryWithoutJit } from './no-jit';

describe.each(testDatabases())('queryWithoutJit on $name', ({ open }) => {
  let db: Database;

  beforeAll(async () => {
    db = await open();
  });

  afterAll(async () => {
    await db.close();
  });

  it('runs the statement with jit off, and leaves the setting as it was afterwards', async () => {
    const [before] = await db.prisma.$queryRaw<{ jit: string }[]>`SELECT current_setting('jit') AS jit`;
    const [inside] = await queryWithoutJit(db.prisma, db.prisma.$queryRaw<{ jit: string }[]>`SELECT current_setting('jit') AS jit`);
    const [after] = await db.prisma.$queryRaw<{ jit: string }[]>`SELECT current_setting('jit') AS jit`;
    expect(inside.jit).toBe('off');
    expect(after.jit).toBe(before.jit);
  });

  it('lets a statement run past Prisma default 5 s, while a second call waits for it', { timeout: 60_000 }, async () => {
    const slow = queryWithoutJit(db.prisma, db.prisma.$queryRaw<{ ok: number }[]>`SELECT 1 AS ok FROM pg_sleep(6)`);
    const second = queryWithoutJit(db.prisma, db.prisma.$queryRaw<{ ok: number }[]>`SELECT 2 AS ok FROM pg_sleep(0.1)`);
    expect(await Promise.all([slow, second])).toEqual([[{ ok: 1 }], [{ ok: 2 }]]);
  });
});
