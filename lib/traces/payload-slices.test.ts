import { describe, expect, it } from 'vitest';
import { payloadSlices, type PayloadFields, type TraceSlices } from './payload-slices';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What each slice holds, parsed: the scan must agree with JSON.parse on every field. */
function parsedSlices(text: string) {
  const fields = (found: PayloadFields) =>
    Object.fromEntries([...found].map(([key, [start, end]]) => [key, JSON.parse(text.slice(start, end)) as Json]));
  return payloadSlices(text).map((t: TraceSlices) => ({
    fields: fields(t.fields),
    spans: t.spans.map(fields),
    decisionPoints: t.decisionPoints.map(fields),
    events: t.events.map(fields),
  }));
}

/** The same, read from JSON.parse: the payload fields present in each object. */
function expected(text: string) {
  const PAYLOADS = ['input', 'output', 'metadata', 'chosen', 'alternatives', 'contextSnapshot'];
  const pick = (o: unknown, names: string[]) =>
    o && typeof o === 'object' && !Array.isArray(o)
      ? Object.fromEntries(names.filter((n) => n in (o as object)).map((n) => [n, (o as Record<string, Json>)[n]]))
      : {};
  const body = JSON.parse(text) as { traces?: unknown };
  if (!Array.isArray(body.traces)) return [];
  return body.traces.map((t: Record<string, unknown>) => {
    const children = (name: string) => (Array.isArray(t?.[name]) ? (t[name] as unknown[]).map((c) => pick(c, PAYLOADS)) : []);
    return { fields: pick(t, ['metadata']), spans: children('spans'), decisionPoints: children('decisionPoints'), events: children('events') };
  });
}

const TRACE = {
  id: 't1',
  name: 'run "quoted" [not an array] {nor an object}',
  metadata: { user: 'a\\"b', nested: [1, [2, { x: '}' }]], price: 1.5 },
  spans: [
    { id: 's1', input: { messages: [{ role: 'user', content: 'hi, "there" \\ \n\t ]' }] }, output: 'plain', metadata: null },
    { id: 's2', input: [], output: {}, metadata: { k: -0.25e-3 } },
    { id: 's3' },
    { id: 's4', input: 12, output: true, metadata: false },
  ],
  decisionPoints: [{ id: 'd1', chosen: { tool: 'search' }, alternatives: [{ tool: 'a' }, { tool: 'b' }], contextSnapshot: { deep: { er: [[[]]] } } }],
  events: [{ id: 'e1', metadata: { note: 'é ✓ 😀' } }, { id: 'e2' }],
};

describe('payloadSlices', () => {
  it('finds every payload as JSON.parse reads it, compact and pretty-printed', () => {
    for (const text of [JSON.stringify({ traces: [TRACE, { ...TRACE, id: 't2' }] }), JSON.stringify({ traces: [TRACE] }, null, 2)]) {
      expect(parsedSlices(text)).toEqual(expected(text));
      expect(parsedSlices(text)[0].spans[0].input).toEqual(TRACE.spans[0].input);
    }
  });

  it('keeps the digits of numbers as written', () => {
    const text = '{"traces":[{"id":"t","spans":[{"id":"s","output":{"price":1.50,"big":1e400}}]}]}';
    const [start, end] = payloadSlices(text)[0].spans[0].get('output')!;
    expect(text.slice(start, end)).toBe('{"price":1.50,"big":1e400}');
  });

  it('takes the last of duplicate keys and reads escaped keys, as JSON.parse does', () => {
    const text =
      '{"traces":[{"id":"x"}],"traces":[{"metadata":{"a":1},"metadata":{"b":2},"spans":[{"\\u0069nput":"escaped","output":1,"output":2}],' +
      '"events":[{"metadata":1}],"events":"not an array"}]}';
    expect(parsedSlices(text)).toEqual(expected(text));
    expect(parsedSlices(text)[0]).toEqual({ fields: { metadata: { b: 2 } }, spans: [{ input: 'escaped', output: 2 }], decisionPoints: [], events: [] });
  });

  it('keeps positions for children and traces that are not objects', () => {
    const text = ' { "other" : [1,2] , "traces" : [ 1 , {"spans": [ null , {"input": "x"} , [ ] ]} , "s" ] } ';
    const found = parsedSlices(text);
    expect(found).toHaveLength(3);
    expect(found[1].spans).toEqual([{}, { input: 'x' }, {}]);
  });

  it('ignores payload names outside the payload places', () => {
    const text = JSON.stringify({ input: 1, traces: [{ input: 2, output: 3, spans: [{ id: 's', reasoning: 'r', chosen: 4 }] }] });
    expect(parsedSlices(text)).toEqual([{ fields: {}, spans: [{ chosen: 4 }], decisionPoints: [], events: [] }]);
  });

  it('answers no traces for a body without a traces array', () => {
    expect(payloadSlices('[]')).toEqual([]);
    expect(payloadSlices('{"traces":null}')).toEqual([]);
  });
});
