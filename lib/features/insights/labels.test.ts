// Option labels: the rule by hand for every JSON shape, and the TypeScript function
// (labels.ts) equal to the SQL expression (label-sql.ts) on values stored through ingest,
// on every test database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/open';
import { testDatabases } from '@/test/support/databases';
import { makeTrace } from '@/test/support/fixtures';
import { ingestTraces } from '@/lib/features/ingest/ingest';
import type { JsonValue } from '@/lib/features/traces/types';
import { parseIngestBody } from '@/lib/features/ingest/validate';
import { offeredLabelsSql, optionLabelSql } from '@/lib/features/query/label-sql';
import { optionLabel, plainNumber } from './labels';
import { testContext } from '@/test/support/context';
import { raw, sql } from '@/lib/db/sql';

const LIMITS = { maxBatchTraces: 1000, maxChildrenPerTrace: 10_000 } as Parameters<typeof parseIngestBody>[1];

const a250 = 'a'.repeat(250);
const globes = '🌍'.repeat(250);
const spaced = 'word, next: '.repeat(30); // 360 characters with spaces, commas and colons

/** [what, the option as JSON text (stored as written), its label worked out by hand]. */
const CASES: Array<[string, string, string]> = [
  ['a string', '"weather"', 'weather'],
  ['an empty string', '""', ''],
  ['a string with spaces and JSON punctuation', '"a, b: {c}"', 'a, b: {c}'],
  ['an object with tool', '{"name": "n", "tool": "search"}', 'search'],
  ['an object with name', '{"id": "i", "name": "planner"}', 'planner'],
  ['an object with id', '{"action": "x", "id": "doc-42"}', 'doc-42'],
  ['an object with action', '{"route": "r", "action": "refund"}', 'refund'],
  ['an object with route', '{"agent": "g", "route": "billing"}', 'billing'],
  ['an object with agent', '{"model": "m", "agent": "triage"}', 'triage'],
  ['an object with model', '{"model": "gpt-x", "temperature": 0.5}', 'gpt-x'],
  ['the keys in priority order, not the object\'s order', '{"model": "m", "agent": "a", "tool": "t"}', 't'],
  ['a key holding a number is skipped', '{"tool": 5, "name": "fallback"}', 'fallback'],
  ['a key holding an object is skipped', '{"tool": {"name": "inner"}, "model": "outer"}', 'outer'],
  ['keys holding only non-strings: compact text, keys by length', '{"tool": {"name": "inner"}, "id": null}', '{"id":null,"tool":{"name":"inner"}}'],
  ['keys holding arrays and booleans', '{"model": true, "tool": ["a"]}', '{"tool":["a"],"model":true}'],
  ['an empty string under a key is a string', '{"tool": "", "name": "n"}', ''],
  [
    'a nested object without a label key',
    '{"query": "weather in Paris", "k": 5, "filters": {"b": 1.50, "a": [1.0, "x, y: z"]}}',
    '{"k":5,"query":"weather in Paris","filters":{"a":[1,"x, y: z"],"b":1.5}}',
  ],
  ['an array', '["a", 1, null, true, {"tool": "t"}]', '["a",1,null,true,{"tool":"t"}]'],
  ['an array of a string is not a string', '["weather"]', '["weather"]'],
  ['an empty array', '[]', '[]'],
  ['an empty object', '{}', '{}'],
  ['an integer', '42', '42'],
  ['a negative fraction', '-3.25', '-3.25'],
  ['a float written with .0 (Python)', '1.0', '1'],
  ['trailing fraction zeros', '2.500', '2.5'],
  ['an exponent', '1E2', '100'],
  ['a large exponent', '1e21', '1000000000000000000000'],
  ['a small exponent', '1.5e-7', '0.00000015'],
  ['an exponent into the fraction', '123.0e-2', '1.23'],
  ['minus zero', '-0', '0'],
  ['minus zero with a fraction', '-0.0', '0'],
  ['a binary fraction', '0.30000000000000004', '0.30000000000000004'],
  ['true', 'true', 'true'],
  ['false', 'false', 'false'],
  ['null', 'null', 'null'],
  ['unicode strings', '"héllo 🌍 日本語"', 'héllo 🌍 日本語'],
  ['a unicode value under a key', '{"tool": "日本語"}', '日本語'],
  ['unicode keys in jsonb order (length in bytes, then bytes)', '{"é": 1, "z": 2, "ab": 3}', '{"z":2,"ab":3,"é":1}'],
  ['integer-like keys in jsonb order, not JavaScript\'s', '{"10": 1, "9": 2, "b": 3}', '{"9":2,"b":3,"10":1}'],
  ['a key given twice: the last wins', '{"k": 1, "k": 2}', '{"k":2}'],
  ['escapes kept as JSON writes them', '{"text": "line\\nbreak \\"q\\" \\\\ tab\\t \\u0001 \\u00e9 /"}', '{"text":"line\\nbreak \\"q\\" \\\\ tab\\t \\u0001 é /"}'],
  ['a long string, cut at 200', JSON.stringify(a250), 'a'.repeat(200)],
  ['a long string of astral characters, cut at 200 characters', JSON.stringify(globes), '🌍'.repeat(200)],
  ['a long value under a key, cut at 200', JSON.stringify({ tool: a250 }), 'a'.repeat(200)],
  ['a long object without a label key, compacted then cut', JSON.stringify({ text: spaced }), `{"text":"${spaced}`.slice(0, 200)],
  ['a long array of 1.0, compacted beyond its first 400 characters', `[${Array(150).fill('1.0').join(', ')}]`, `[${Array(150).fill('1').join(',')}]`.slice(0, 200)],
  [
    // 400 characters of jsonb text end in "1." of 1.0: that point must not reach the label.
    'a prefix cut between a number and its zero fraction',
    `[${'1.0, '.repeat(51)}${'0, '.repeat(46)}10, 1.0]`,
    `[${'1,'.repeat(51)}${'0,'.repeat(46)}10,1]`,
  ],
  [
    // 400 characters of jsonb text end inside a string: its spaces are text, not layout.
    'a prefix cut inside a string',
    `[${'0, '.repeat(60)}"${'a b '.repeat(100)}"]`,
    `[${'0,'.repeat(60)}"${'a b '.repeat(100)}`.slice(0, 200),
  ],
  ['a number with 500 zeros in its fraction', `[1.${'0'.repeat(500)}, 2]`, '[1,2]'],
];

// Long values (jsonb text of ~50 to ~1,500 characters) mixing numbers with fraction zeros,
// strings holding spaces, punctuation and escapes, and nesting, from a seeded generator:
// where the SQL compacts only a prefix, its first 400 characters end at every kind of
// position. Compared between SQL and TypeScript.
function generated(count: number): string[] {
  let seed = 12;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const numbers = ['0', '1.0', '2.50', '-3.000', '1.500001', '10', '1e3', '0.000100', '7.25e-3', '-0.0'];
  const strings = ['"a b"', '"x, y: z"', '"\\\\"', '"\\""', '"é 🌍"', '"1.0 2.50"', '""', '"tool"'];
  const keys = ['"k"', '"key"', '"a b"', '"é"', '"10"', '"q"'];
  const value = (depth: number): string => {
    const kind = random();
    if (depth > 2 || kind < 0.45) return pick(numbers);
    if (kind < 0.75) return pick(strings);
    if (kind < 0.8) return pick(['true', 'false', 'null']);
    const n = 1 + Math.floor(random() * 4);
    if (kind < 0.9) return `[${Array.from({ length: n }, () => value(depth + 1)).join(', ')}]`;
    return `{${Array.from({ length: n }, () => `${pick(keys)}: ${value(depth + 1)}`).join(', ')}}`;
  };
  return Array.from({ length: count }, () => `[${Array.from({ length: 10 + Math.floor(random() * 150) }, () => value(1)).join(', ')}]`);
}
const LONG = generated(300);

function traceWith(options: string[], prefix: string): string {
  const decisionPoints = options
    .map(
      (text, k) =>
        `{"id": "${prefix}${k}", "type": "CUSTOM", "timestamp": "2026-01-02T03:04:05Z", "chosen": ${text}, "alternatives": [${text}, ${text}, "other"]}`,
    )
    .join(',');
  const trace = JSON.stringify(makeTrace({ decisionPoints: 'MARK' }));
  return trace.replace('"MARK"', `[${decisionPoints}]`);
}

describe('optionLabel', () => {
  it('labels every shape by the rule', () => {
    for (const [what, text, label] of CASES) {
      expect(optionLabel(JSON.parse(text) as JsonValue), what).toBe(label);
    }
  });
  it('labels an absent option "null", like a JSON null', () => {
    expect(optionLabel(undefined)).toBe('null');
    expect(optionLabel(null)).toBe('null');
  });
  it('never splits a surrogate pair at the cut', () => {
    const label = optionLabel('a' + '🌍'.repeat(300));
    expect(Array.from(label)).toHaveLength(200);
    expect(label.endsWith('🌍')).toBe(true);
  });
  it('writes numbers as PostgreSQL numeric prints them', () => {
    const cases: Array<[number, string]> = [
      [0, '0'],
      [-0, '0'],
      [1e21, '1000000000000000000000'],
      [-1.2345e25, '-12345000000000000000000000'],
      [1e-7, '0.0000001'],
      [-2.5e-10, '-0.00000000025'],
      [1.7976931348623157e308, '17976931348623157' + '0'.repeat(292)],
      [5e-324, `0.${'0'.repeat(323)}5`],
      [123.456, '123.456'],
    ];
    for (const [n, text] of cases) expect(plainNumber(n), String(n)).toBe(text);
  });
  it('handles nesting deeper than the call stack would', () => {
    const deep = JSON.parse('['.repeat(20_000) + ']'.repeat(20_000)) as JsonValue;
    expect(optionLabel(deep)).toBe('['.repeat(200));
  });
});

describe.each(testDatabases())('option labels in SQL on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    const traces = [traceWith(CASES.map(([, text]) => text), 'c'), traceWith(LONG, 'x')];
    // And a decision point without `chosen`: stored as SQL NULL.
    traces.push(
      JSON.stringify(
        makeTrace({ decisionPoints: [{ id: 'absent', type: 'CUSTOM', timestamp: '2026-01-02T03:04:05Z', alternatives: [null] }] }),
      ),
    );
    await ingestTraces(testContext(db), parseIngestBody(`{"traces": [${traces.join(',')}]}`, LIMITS));
  });
  afterAll(async () => {
    await db.close();
  });

  interface Row {
    id: string;
    chosen: JsonValue;
    alternatives: JsonValue[];
    chosenLabel: string;
    rollupLabel: string;
    alternativeLabels: string[];
    offered: string[];
  }
  async function labelled(): Promise<Map<string, Row>> {
    const rows = await db.sql.query<Row>(sql`
      SELECT d.id, d.chosen, d.alternatives,
        ${optionLabelSql(raw('d.chosen'))} AS "chosenLabel",
        "insights_option_label"(d.chosen) AS "rollupLabel",
        (SELECT array_agg(${optionLabelSql(raw('a.value'))} ORDER BY a.n)
           FROM jsonb_array_elements(d.alternatives) WITH ORDINALITY AS a(value, n)) AS "alternativeLabels",
        (SELECT array_agg(o.label ORDER BY o.label COLLATE "C")
           FROM ${offeredLabelsSql(optionLabelSql(raw('d.chosen')), raw('d.alternatives'))} AS o) AS offered
      FROM "DecisionPoint" d`);
    return new Map(rows.map((r) => [r.id, r]));
  }

  it('gives the label worked out by hand for every shape, as TypeScript does from the stored value', async () => {
    const rows = await labelled();
    CASES.forEach(([what, , label], k) => {
      const row = rows.get(`c${k}`)!;
      expect(row.chosenLabel, `SQL: ${what}`).toBe(label);
      expect(row.rollupLabel, `SQL function: ${what}`).toBe(label);
      expect(row.alternativeLabels, `SQL alternatives: ${what}`).toEqual([label, label, 'other']);
      expect(optionLabel(row.chosen), `TypeScript: ${what}`).toBe(label);
      expect(row.alternatives.map(optionLabel), `TypeScript alternatives: ${what}`).toEqual([label, label, 'other']);
    });
  });

  it('agrees with TypeScript where a long value is compacted from a prefix', async () => {
    const rows = await labelled();
    let cut = 0;
    LONG.forEach((text, k) => {
      const row = rows.get(`x${k}`)!;
      expect(row.chosenLabel, text).toBe(optionLabel(row.chosen));
      expect(row.rollupLabel, text).toBe(row.chosenLabel);
      expect(row.chosenLabel, text).toBe(optionLabel(JSON.parse(text) as JsonValue));
      if (Array.from(row.chosenLabel).length === 200) cut += 1;
    });
    // Most are cut, some not: both sides of the limit are covered.
    expect(cut).toBeGreaterThan(200);
    expect(cut).toBeLessThan(300);
  });

  it('labels an absent chosen "null" and counts each offered label once per decision point', async () => {
    const rows = await labelled();
    const absent = rows.get('absent')!;
    expect(absent).toMatchObject({ chosen: null, chosenLabel: 'null', alternativeLabels: ['null'], offered: ['null'] });
    expect(optionLabel(absent.chosen)).toBe('null');
    // The chosen option repeated twice among the alternatives, plus "other".
    expect(rows.get('c0')!.offered).toEqual(['other', 'weather']);
    expect(rows.get('c1')!.offered).toEqual(['', 'other']);
  });

  it('labels jsonb values of every type the same as TypeScript, in bulk', async () => {
    // Values made by PostgreSQL itself (not through ingest), read back by the driver.
    // And the migration's "insights_option_label" (the rollup triggers' copy of the rule).
    const rows = await db.sql.query<{ v: JsonValue; label: string; rollupLabel: string }>(sql`
      SELECT v, ${optionLabelSql(raw('v'))} AS label, "insights_option_label"(v) AS "rollupLabel" FROM (VALUES
        ('{"tool": 1, "name": 2, "id": 3, "action": 4, "route": 5, "agent": 6, "model": 7}'::jsonb),
        ('{"tool": null, "name": [], "id": {}, "action": false, "route": 0.10, "agent": "a"}'),
        ('[[[[{"a": [{"b": "c d"}]}]]]]'),
        ('"\\u00e9\\ud83c\\udf0d"'),
        (to_jsonb(repeat('ab ', 100))),
        (jsonb_build_object('k', repeat('é', 300))),
        (to_jsonb(0.1::float8 + 0.2::float8)),
        (to_jsonb(1e-5::float8)),
        (to_jsonb(12345.6789::numeric)),
        (to_jsonb(ARRAY[1.10, 2.00, -3.0])),
        (NULL)
      ) AS t(v)`);
    expect(rows).toHaveLength(11);
    for (const { v, label, rollupLabel } of rows) {
      expect(label, JSON.stringify(v)).toBe(optionLabel(v));
      expect(rollupLabel, JSON.stringify(v)).toBe(label);
    }
    expect(rows.map((r) => r.label)).toEqual([
      '{"id":3,"name":2,"tool":1,"agent":6,"model":7,"route":5,"action":4}',
      'a',
      '[[[[{"a":[{"b":"c d"}]}]]]]',
      'é🌍',
      'ab '.repeat(100).slice(0, 200),
      '{"k":"' + 'é'.repeat(194),
      '0.30000000000000004',
      '0.00001',
      '12345.6789',
      '[1.1,2,-3]',
      'null',
    ]);
  });
});
