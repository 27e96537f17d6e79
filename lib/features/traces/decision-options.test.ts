import { describe, expect, it } from 'vitest';
import type { DecisionPointRecord, JsonValue } from './types';
import { chosenConfidence, formatConfidence, groupDecisions, notChosenOptions, optionConfidence } from './decision-options';

function decision(id: string, chosen: JsonValue, alternatives: JsonValue[] = [], extra: Partial<DecisionPointRecord> = {}): DecisionPointRecord {
  return {
    id,
    traceId: 't',
    type: 'TOOL_SELECTION',
    reasoning: null,
    chosen,
    alternatives,
    contextSnapshot: null,
    durationMs: null,
    costUsd: null,
    parentSpanId: null,
    timestamp: '2026-11-21T10:00:00.000Z',
    inferred: false,
    ...extra,
  };
}

describe('optionConfidence', () => {
  it.each([
    [{ route: 'billing', score: 0.79 }, 0.79],
    [{ route: 'billing', confidence: 0.01 }, 0.01],
    [{ route: 'billing', probability: 0.5 }, 0.5],
    // score wins over confidence, whatever the key order
    [{ confidence: 0.2, score: 0.9 }, 0.9],
    [{ score: '0.9', confidence: 0.3 }, 0.3],
    [{ score: 0 }, 0],
    [{ route: 'billing' }, null],
    [{ args: { score: 1 } }, null],
    ['billing', null],
    [0.7, null],
    [[{ score: 1 }], null],
    [null, null],
  ] as Array<[JsonValue, number | null]>)('%j -> %j', (option, expected) => {
    expect(optionConfidence(option)).toBe(expected);
  });

  it('formats a share with two decimals at most', () => {
    expect(formatConfidence(0.7912)).toBe('0.79');
    expect(formatConfidence(0.01)).toBe('0.01');
    expect(formatConfidence(87)).toBe('87');
  });
});

describe('notChosenOptions', () => {
  it('leaves out the chosen option by label, even when the client listed it, and lists each label once', () => {
    const d = decision('d', { route: 'billing', score: 0.79 }, [
      { route: 'billing', score: 0.79 },
      { route: 'technical', score: 0.2 },
      'technical',
      { route: 'sales', confidence: 0.01 },
    ]);
    expect(notChosenOptions(d)).toEqual([
      { value: { route: 'technical', score: 0.2 }, label: 'technical', confidence: 0.2 },
      { value: { route: 'sales', confidence: 0.01 }, label: 'sales', confidence: 0.01 },
    ]);
  });

  it('compares by the documented label rule: an object named by `tool` equals the plain string', () => {
    const d = decision('d', 'web_search', [{ tool: 'web_search', args: { q: 'x' } }, { tool: 'calculator' }]);
    expect(notChosenOptions(d).map((o) => o.label)).toEqual(['calculator']);
  });

  it('labels objects without a naming key by their canonical JSON, so key order does not matter', () => {
    const d = decision('d', { b: 1, a: 2 }, [{ a: 2, b: 1 }, { a: 3 }]);
    expect(notChosenOptions(d).map((o) => o.label)).toEqual(['{"a":3}']);
  });

  it("gives the chosen option an alternative's confidence when the chosen value carries none", () => {
    expect(chosenConfidence(decision('d', 'billing', [{ route: 'billing', score: 0.79 }, { route: 'sales', score: 0.01 }]))).toBe(0.79);
    expect(chosenConfidence(decision('d', { route: 'billing', confidence: 0.6 }, [{ route: 'billing', score: 0.79 }]))).toBe(0.6);
    expect(chosenConfidence(decision('d', 'billing', ['sales']))).toBeNull();
  });
});

describe('groupDecisions', () => {
  it('folds a decision repeated 1,000 times into one group with its count, in time order with the others', () => {
    const list = [
      decision('plan', 'multi-step', [], { type: 'PLANNING' }),
      ...Array.from({ length: 1000 }, (_, i) => decision(`s${i}`, { tool: 'web_search', args: { i } }, ['calculator'])),
      decision('esc', { agent: 'human' }, [], { type: 'ESCALATION' }),
    ];
    const groups = groupDecisions(list);
    expect(groups.map((g) => [g.type, g.chosenLabel, g.decisions.length])).toEqual([
      ['PLANNING', 'multi-step', 1],
      ['TOOL_SELECTION', 'web_search', 1000],
      ['ESCALATION', 'human', 1],
    ]);
    expect(groups[1].decisions[999].id).toBe('s999');
    // Every decision is in exactly one group.
    expect(groups.reduce((n, g) => n + g.decisions.length, 0)).toBe(list.length);
  });

  it('keeps decisions repeated fewer times than the threshold apart, each in its own place', () => {
    const list = [
      decision('a1', 'search'),
      decision('r', 'billing', [], { type: 'ROUTING' }),
      decision('a2', 'search'),
    ];
    const groups = groupDecisions(list);
    expect(groups.map((g) => g.decisions.map((d) => d.id))).toEqual([['a1'], ['r'], ['a2']]);
    expect(new Set(groups.map((g) => g.key)).size).toBe(3);
  });

  it('tells the same option of two types apart', () => {
    const list = ['a', 'b', 'c'].flatMap((id) => [decision(`t-${id}`, 'x'), decision(`r-${id}`, 'x', [], { type: 'ROUTING' })]);
    expect(groupDecisions(list).map((g) => [g.type, g.decisions.length])).toEqual([
      ['TOOL_SELECTION', 3],
      ['ROUTING', 3],
    ]);
  });
});
