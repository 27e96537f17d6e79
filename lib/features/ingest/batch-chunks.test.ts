import { describe, expect, it } from 'vitest';
import { runText, traceRanges, traceRuns } from './batch-chunks';

const tracesOf = (text: string) => (JSON.parse(text) as { traces: unknown[] }).traces;

describe('traceRanges', () => {
  it('finds each trace of the body as written, whatever the strings and nesting hold', () => {
    const text = JSON.stringify({
      before: { traces: [{ not: 'these' }] },
      traces: [
        { id: 'a', metadata: { s: 'brackets ] } [ { and "quotes" \\ and \\" escapes' } },
        { id: 'b', spans: [{ input: [[1, [2]], { x: null }] }], tags: ['}', ']'] },
        { id: 'c' },
      ],
      after: [1, 2],
    });
    const ranges = traceRanges(text);
    expect(ranges.map(([a, b]) => JSON.parse(text.slice(a, b)))).toEqual(tracesOf(text));
  });

  it('takes the last "traces" key, as JSON.parse does, escaped keys and spacing included', () => {
    const text = ' { "traces" : [ {"id":"old"} ] ,\n "tr\\u0061ces"\t:\n[ {"id" : "x"} ,\r\n {"id":"y"}\n ] } ';
    const ranges = traceRanges(text);
    expect(ranges.map(([a, b]) => text.slice(a, b))).toEqual(['{"id" : "x"}', '{"id":"y"}']);
    expect(ranges.map(([a, b]) => JSON.parse(text.slice(a, b)))).toEqual(tracesOf(text));
  });
});

describe('traceRuns', () => {
  const ranges = [10, 30, 25, 100, 5, 5].reduce<Array<[number, number]>>((all, size) => {
    const start = all.length ? all[all.length - 1][1] + 1 : 0;
    return [...all, [start, start + size]];
  }, []);

  it('groups consecutive traces up to the limit; a longer trace is a run of its own', () => {
    expect(traceRuns(ranges, 70)).toEqual([
      { from: 0, to: 3 },
      { from: 3, to: 4 },
      { from: 4, to: 6 },
    ]);
    expect(traceRuns(ranges, 1)).toEqual(ranges.map((_, i) => ({ from: i, to: i + 1 })));
    expect(traceRuns(ranges, 1e9)).toEqual([{ from: 0, to: 6 }]);
  });

  it('gives each run a body of its own traces, as written', () => {
    const text = JSON.stringify({ traces: [{ id: 'a' }, { id: 'b', x: [1] }, { id: 'c' }] });
    const found = traceRanges(text);
    expect(traceRuns(found, 30).map((run) => runText(text, found, run))).toEqual([
      '{"traces":[{"id":"a"},{"id":"b","x":[1]}]}',
      '{"traces":[{"id":"c"}]}',
    ]);
  });
});
