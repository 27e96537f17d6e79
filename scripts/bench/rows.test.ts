import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '@/lib/db/migrate';
import { openPglite, type OpenPglite } from '@/lib/db/pglite';
import { pgliteExecutor } from '@/lib/db/executor';
import { FULL_SHAPE, generateTrace } from './generate';
import { IdSource, Spliced, TABLES, buildTemplate, columnsOf, copySql, copyText, placeholder, setChildCountColumns, traceRows } from './rows';

describe('copyText', () => {
  it('escapes backslash, tab and newlines and writes NULL as \\N', () => {
    expect(copyText([['a\tb', null, 'c\\d\ne\r']])).toBe('a\\tb\t\\N\tc\\\\d\\ne\\r\n');
  });
});

describe('Spliced', () => {
  it('replaces each placeholder with the id of its trace', () => {
    const s = new Spliced(`x${placeholder(1)}y${placeholder(0)}z${placeholder(1)}`);
    const ids = ['a'.repeat(32), 'b'.repeat(32)];
    expect(s.render(ids).toString()).toBe(`x${ids[1]}y${ids[0]}z${ids[1]}`);
    expect(s.render(ids).length).toBe(s.bytes);
  });

  it('gives every trace of a rendered body a fresh id and keeps the JSON valid', () => {
    const traces = [0, 1, 2].map((index) => generateTrace({ seed: 1, index }));
    const tpl = buildTemplate(traces);
    const ids = new IdSource(3).next(3);
    const body = JSON.parse(tpl.body.render(ids).toString()) as { traces: { id: string; spans: unknown[] }[] };
    expect(body.traces.map((t) => t.id)).toEqual(ids);
    expect(body.traces[0].spans).toHaveLength(50);
    expect(tpl.records).toBe(3 * 71);
  });
});

describe('IdSource', () => {
  it('never repeats an id', () => {
    const src = new IdSource(1);
    const ids = [...src.next(500), ...src.next(500)];
    expect(new Set(ids).size).toBe(1000);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('rows in a real database', () => {
  let db: OpenPglite;
  beforeAll(async () => {
    db = await openPglite(undefined);
    await migrate(pgliteExecutor(db.pglite), await readMigrations());
    const [probe] = (
      await db.pglite.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'Trace' AND column_name = 'spanCount'`,
      )
    ).rows;
    setChildCountColumns(probe.n === 1);
  });
  afterAll(async () => {
    await db.close();
  });

  it('loads by COPY, INSERT and jsonb_to_recordset with the same content', async () => {
    const traces = [0, 1].map((index) => generateTrace({ seed: 4, index, shape: { ...FULL_SHAPE, spans: 12 } }));
    const tpl = buildTemplate(traces);
    const source = new IdSource(9);
    const idsFor = { copy: source.next(2), insert: source.next(2), jsonb: source.next(2) };
    for (const table of TABLES) {
      await db.pglite.query(copySql(table).replace('FROM STDIN', "FROM '/dev/blob'"), [], {
        blob: new Blob([new Uint8Array(tpl.copy[table].render(idsFor.copy))]),
      });
      for (const s of tpl.inserts[table]) await db.pglite.query(s.text, s.params.render(idsFor.insert));
      await db.pglite.query(tpl.jsonb[table].text, [tpl.jsonb[table].param.render(idsFor.jsonb).toString()]);
    }
    const dump = async (ids: string[]) =>
      (
        await db.pglite.query<{ j: unknown }>(
          `SELECT json_build_object(
             'trace', (SELECT json_agg(t ORDER BY t."startedAt") FROM (SELECT name, "sessionId", status, tags, metadata, "totalCost", "startedAt", "endedAt" FROM "Trace" WHERE id = ANY($1)) t),
             'spans', (SELECT json_agg(s ORDER BY s.id) FROM (SELECT id, "parentSpanId", type, input, output, "costUsd", status, "endedAt" FROM "Span" WHERE "traceId" = ANY($1)) s),
             'dps', (SELECT json_agg(d ORDER BY d.id) FROM (SELECT id, type, chosen, alternatives, "timestamp" FROM "DecisionPoint" WHERE "traceId" = ANY($1)) d),
             'events', (SELECT json_agg(e ORDER BY e.id) FROM (SELECT id, type, metadata FROM "Event" WHERE "traceId" = ANY($1)) e)
           ) AS j`,
          [ids],
        )
      ).rows[0].j;
    const viaCopy = await dump(idsFor.copy);
    expect(viaCopy).toEqual(await dump(idsFor.insert));
    expect(viaCopy).toEqual(await dump(idsFor.jsonb));
    const [count] = (await db.pglite.query<{ n: number }>('SELECT count(*)::int AS n FROM "Span"')).rows;
    expect(count.n).toBe(3 * 2 * 12);
    if (columnsOf('Trace').includes('spanCount')) {
      const counts = await db.pglite.query<{ n: number }>('SELECT DISTINCT "spanCount" AS n FROM "Trace"');
      expect(counts.rows).toEqual([{ n: 12 }]);
    }
    const stored = viaCopy as { trace: { tags: string[]; name: string }[] };
    expect(stored.trace.map((t) => t.name).sort()).toEqual(traces.map((t) => t.name).sort());
  }, 60_000);

  it('writes tags as a text[] whatever they hold', () => {
    const rows = traceRows([{ ...generateTrace({ seed: 1, index: 0 }), tags: ['a"b', 'c\\d', 'e,f'] }]);
    expect(rows.Trace[0][4]).toBe('{"a\\"b","c\\\\d","e,f"}');
  });
});
