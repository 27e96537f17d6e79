// queryWithoutJit on every test database: the statement sees jit off, the setting does
// not outlive it, and it is bounded neither by Prisma's transaction defaults (5 s) nor by
// a concurrent call holding PGlite's one connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { sql } from '@/lib/db/sql';
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
    const read = sql`SELECT current_setting('jit') AS jit, current_setting('work_mem') AS mem`;
    const [before] = await db.sql.query<{ jit: string; mem: string }>(read);
    const [inside] = await queryWithoutJit<{ jit: string; mem: string }>(db.sql, read);
    const [after] = await db.sql.query<{ jit: string; mem: string }>(read);
    expect(inside).toEqual({ jit: 'off', mem: INSIGHTS_WORK_MEM });
    expect(after).toEqual(before);
    expect(before.mem).not.toBe(INSIGHTS_WORK_MEM);
  });

  it('lets a statement run past 5 s (the old bound of Prisma transactions), while a second call waits for it', { timeout: 60_000 }, async () => {
    const slow = queryWithoutJit<{ ok: number }>(db.sql, sql`SELECT 1 AS ok FROM pg_sleep(6)`);
    const second = queryWithoutJit<{ ok: number }>(db.sql, sql`SELECT 2 AS ok FROM pg_sleep(0.1)`);
    expect(await Promise.all([slow, second])).toEqual([[{ ok: 1 }], [{ ok: 2 }]]);
  });
});
