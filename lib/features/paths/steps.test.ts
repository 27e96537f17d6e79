import { describe, expect, it } from 'vitest';
import { forkId, pathId } from './ids';
import { collapseSteps, firstDifference, forksOf, pathOf, pathText, sharedPrefixLength, type PathDecision, type Step } from './steps';

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
const d = (id: string, chosen: PathDecision['chosen'], second: number, more: Partial<PathDecision> = {}): PathDecision => ({
  id,
  type: 'TOOL_SELECTION',
  chosen,
  timestamp: at(second),
  ...more,
});
const step = (label: string, repeats = 1, type: Step['type'] = 'TOOL_SELECTION'): Step => ({ type, label, repeats });

describe('pathOf', () => {
  it('orders by time, labels each chosen option and collapses consecutive equal steps', () => {
    const path = pathOf([
      d('c', { tool: 'sql' }, 3),
      d('a', 'search_kb', 1),
      d('b', { name: 'search_kb', args: { q: 1 } }, 2),
      d('e', 'search_kb', 5),
      d('r', 'billing', 0, { type: 'ROUTING' }),
    ]);
    expect(path).toEqual([step('billing', 1, 'ROUTING'), step('search_kb', 2), step('sql'), step('search_kb')]);
  });

  it('breaks ties in time by the parent span start (a decision without one after), then by id', () => {
    const tied = [
      d('z', 'no-parent', 1, { parentStartedAt: null }),
      d('y', 'late-parent', 1, { parentStartedAt: at(0.5) }),
      d('x', 'early-parent', 1, { parentStartedAt: at(0.2) }),
      d('b', 'same-parent-b', 1, { parentStartedAt: at(0.2) }),
    ];
    expect(pathOf(tied).map((s) => s.label)).toEqual(['same-parent-b', 'early-parent', 'late-parent', 'no-parent']);
  });

  it('treats an absent chosen as the label "null", and equal labels of different types as different steps', () => {
    expect(pathOf([d('a', null, 1), d('b', 'x', 2, { type: 'ROUTING' }), d('c', 'x', 3)])).toEqual([
      step('null'),
      step('x', 1, 'ROUTING'),
      step('x'),
    ]);
  });

  it('is empty for a trace without decisions', () => {
    expect(pathOf([])).toEqual([]);
  });

  it('folds 1,000 identical selections into one step', () => {
    const many = Array.from({ length: 1000 }, (_, i) => d(`d${String(i).padStart(4, '0')}`, 'retry', i));
    expect(pathOf(many)).toEqual([step('retry', 1000)]);
  });
});

describe('collapseSteps and pathText', () => {
  it('writes steps as type:label×repeats joined with >', () => {
    const steps = collapseSteps([
      { type: 'ROUTING', label: 'a' },
      { type: 'ROUTING', label: 'a' },
      { type: 'TOOL_SELECTION', label: 'b' },
    ]);
    expect(pathText(steps)).toBe('ROUTING:a×2>TOOL_SELECTION:b×1');
  });
});

describe('path and fork ids', () => {
  it('are stable, differ by repeats, and a fork never shares an id with a path', () => {
    expect(pathId([step('a')])).toBe(pathId([step('a')]));
    expect(pathId([step('a')])).not.toBe(pathId([step('a', 2)]));
    expect(pathId([])).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(forkId([])).not.toBe(pathId([]));
    expect(pathId([step('a')])).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('firstDifference', () => {
  it('finds a different step, a different repeat count, or where one path ends', () => {
    expect(firstDifference([step('a'), step('b')], [step('a'), step('c')])).toBe(1);
    expect(firstDifference([step('a', 2)], [step('a', 3)])).toBe(0);
    expect(firstDifference([step('a')], [step('a'), step('b')])).toBe(1);
    expect(firstDifference([step('a')], [step('a')])).toBeNull();
    expect(firstDifference([], [])).toBeNull();
    expect(sharedPrefixLength([step('a'), step('b')], [step('a'), step('c')])).toBe(1);
    expect(sharedPrefixLength([step('a')], [step('a')])).toBe(1);
  });
});

describe('forksOf', () => {
  const o = (COMPLETED: number, ERROR: number, RUNNING = 0) => ({ COMPLETED, ERROR, RUNNING });

  it('finds options chosen after the same prefix, with error shares of ended traces, ranked by the gap to the fork', () => {
    const forks = forksOf([
      { steps: [step('route', 1, 'ROUTING'), step('search_kb')], outcomes: o(8, 2) },
      { steps: [step('route', 1, 'ROUTING'), step('sql', 2)], outcomes: o(1, 3, 1) },
      { steps: [step('route', 1, 'ROUTING'), step('sql', 1)], outcomes: o(2, 0) },
      { steps: [], outcomes: o(5, 0) },
    ]);
    // After ROUTING:route: search_kb (10 traces, 2 of 10 ended failed) and sql whatever its repeats
    // (7 traces, 3 of 6 ended failed); the fork: 5 of 16. The empty path has no step there.
    expect(forks.map((f) => [f.position, f.label, f.traces, f.errorTraceShareWhenChosen, f.forkErrorTraceShare])).toEqual([
      [1, 'sql', 7, 3 / 6, 5 / 16],
      [1, 'search_kb', 10, 2 / 10, 5 / 16],
    ]);
    expect(forks[0].prefix).toEqual([step('route', 1, 'ROUTING')]);
    expect(forks[0].key).toBe(forks[1].key);
  });

  it('does not count a different repeat count at the fork as a different option, but does in the prefix', () => {
    const forks = forksOf([
      { steps: [step('a', 2), step('x')], outcomes: o(1, 0) },
      { steps: [step('a', 3), step('y')], outcomes: o(0, 1) },
    ]);
    // Position 0: only option (TOOL_SELECTION, a): no fork. Position 1: different prefixes: no fork.
    expect(forks).toEqual([]);
  });

  it('ranks ties by traces, then label, and an unknown share as no gap', () => {
    const forks = forksOf([
      { steps: [step('b')], outcomes: o(0, 0, 3) },
      { steps: [step('a')], outcomes: o(0, 0, 3) },
      { steps: [step('c')], outcomes: o(0, 0, 4) },
    ]);
    expect(forks.map((f) => f.label)).toEqual(['c', 'a', 'b']);
    expect(forks[0].errorTraceShareWhenChosen).toBeNull();
  });
});
