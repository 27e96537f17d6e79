// queryWithoutJit on every test database: the statement sees jit off, the setting does
// not outlive it, and it is bounded neither by Prisma's transaction defaults (5 s) nor by
// a concurrent call holding PGlite's one connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { INSIGHTS_WORK_MEM, queryWithoutJit } from './no-jit';

describe.each(testDatabases())('queryWithoutJit on $name', ({ open }) => {
  let db: Database;

  beforeAll(async () => {
    db = await open();
  });

  afterAll(async () => {
    await db.close();
  });

  it('runs the statement with jit off and more work_mem, and leaves the settings as they were afterwards', async () => {
    const read = () => db.prisma.$queryRaw<{ jit: string; mem: string }[]>`SELECT current_setting('jit') AS jit, current_setting('work_mem') AS mem`;
    const [before] = await read();
    const [inside] = await queryWithoutJit(db.prisma, read());
    const [after] = await read();
    expect(inside).toEqual({ jit: 'off', mem: INSIGHTS_WORK_MEM });
    expect(after).toEqual(before);
    expect(before.mem).not.toBe(INSIGHTS_WORK_MEM);
  });

  it('lets a statement run past Prisma default 5 s, while a second call waits for it', { timeout: 60_000 }, async () => {
    const slow = queryWithoutJit(db.prisma, db.prisma.$queryRaw<{ ok: number }[]>`SELECT 1 AS ok FROM pg_sleep(6)`);
    const second = queryWithoutJit(db.prisma, db.prisma.$queryRaw<{ ok: number }[]>`SELECT 2 AS ok FROM pg_sleep(0.1)`);
    expect(await Promise.all([slow, second])).toEqual([[{ ok: 1 }], [{ ok: 2 }]]);
  });
});
