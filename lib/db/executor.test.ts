// queryBytes hands values over as the UTF-8 bytes of their text, on either driver: the same
// bytes the driver's strings encode to, NULL as null, a Uint8Array parameter taken as text,
// values of several megabytes whole, and a failed statement thrown as the driver's error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './open';
import { testDatabases } from '@/test/support/databases';

const text = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString('utf8'));

describe.each(testDatabases())('queryBytes on $name', (target) => {
  let db: Database;

  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('answers each row\'s values as their text\'s bytes, NULL as null', async () => {
    const sql = `SELECT v, n, $1::text AS p, $2::int + 1 AS i, $3::timestamptz AS t FROM (VALUES ('é 日本 🙂 "q" \\'), ('plain')) AS x(v), (VALUES (NULL::text)) AS y(n)`;
    const params = ['🙂 param', 41, new Date('2026-01-02T03:04:05.678Z')];
    const strings = await db.sql.query<Record<string, unknown>>(`SELECT v, n, p, i::text, t::text FROM (${sql}) s`, params);
    const rows = await db.sql.transaction((tx) => tx.queryBytes(`SELECT v, n, p, i::text, t::text FROM (${sql}) s`, params));
    expect(rows.map((row) => row.map(text))).toEqual(strings.map((row) => Object.values(row)));
    expect(rows[0].map(text).slice(0, 4)).toEqual(['é 日本 🙂 "q" \\', null, '🙂 param', '42']);
    expect(await db.sql.queryBytes(`SELECT 1 WHERE false`)).toEqual([]);
  });

  it('stores a Uint8Array parameter as its text and reads megabytes back whole', async () => {
    const big = `${'é🙂x'.repeat(400_000)}end`;
    const rows = await db.sql.transaction(async (tx) => {
      await tx.exec(`CREATE TEMP TABLE big (t text) ON COMMIT DROP`);
      await tx.queryBytes(`INSERT INTO big VALUES ($1)`, [Buffer.from(big)]);
      return tx.queryBytes(`SELECT t, length(t)::text FROM big`);
    });
    expect(text(rows[0][0])).toBe(big);
    expect(text(rows[0][1])).toBe(String([...big].length));
  });

  it('throws the database\'s error, and the transaction rolls back', async () => {
    const failing = db.sql.transaction(async (tx) => {
      await tx.exec(`CREATE TABLE gone (t text)`);
      await tx.queryBytes(`SELECT $1::int`, ['not a number']);
    });
    await expect(failing).rejects.toMatchObject({ code: '22P02' });
    expect(await db.sql.query(`SELECT to_regclass('gone') AS t`)).toEqual([{ t: null }]);
  });
});
