// The tag's compiled text and parameters, and its fragments read by another copy of the
// module (Next bundles lib/db/sql.ts into several module graphs; the database handle is one).
import { describe, expect, it, vi } from 'vitest';
import { empty, ident, isSql, join, param, raw, sql } from './sql';

describe('sql', () => {
  it('numbers each value as a parameter and splices fragments in', () => {
    const where = join([sql`a = ${1}`, sql`b = ${'x'}`, empty].filter((f) => f !== empty), ' AND ');
    const q = sql`SELECT ${raw('"id"')} FROM ${ident('Tra"ce')} WHERE ${where} LIMIT ${10}`;
    expect(q.text).toBe('SELECT "id" FROM "Tra""ce" WHERE a = $1 AND b = $2 LIMIT $3');
    expect(q.values).toEqual([1, 'x', 10]);
  });

  it('sends a shared parameter once, however often it is read', () => {
    const text = param('{"big": true}');
    const q = sql`SELECT ${text}::jsonb, ${2}, ${text}::jsonb #> '{big}'`;
    expect(q.text).toBe(`SELECT $1::jsonb, $2, $1::jsonb #> '{big}'`);
    expect(q.values).toEqual(['{"big": true}', 2]);
  });

  it('never puts a value into the text', () => {
    const hostile = "'; DROP TABLE \"Trace\"; --";
    const q = sql`SELECT * FROM "Trace" WHERE "id" = ${hostile}`;
    expect(q.text).toBe('SELECT * FROM "Trace" WHERE "id" = $1');
    expect(q.values).toEqual([hostile]);
  });

  it('compiles fragments and parameters made by another copy of the module', async () => {
    vi.resetModules();
    const other = await import('./sql');
    expect(other.sql).not.toBe(sql);
    const shared = other.param('p');
    const inner = other.sql`x = ${shared} OR y = ${shared}`;
    const q = sql`SELECT 1 WHERE ${inner} AND z = ${3}`;
    expect(isSql(inner)).toBe(true);
    expect(q.text).toBe('SELECT 1 WHERE x = $1 OR y = $1 AND z = $2');
    expect(q.values).toEqual(['p', 3]);
  });
});
