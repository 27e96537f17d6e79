import { describe, expect, it } from 'vitest';
import { evaluateRule, parseRuleConfig, type RunFacts } from './rules';

const run = (over: Partial<RunFacts> = {}): RunFacts => ({
  output: { answer: 'Your refund is on its way', confidence: 0.9 },
  expectedOutput: null,
  expectedDecisions: null,
  steps: [],
  costUsd: 0.02,
  durationMs: 1200,
  ...over,
});

describe('rule evaluators', () => {
  it('exact_match compares JSON whatever the key order, a field of the output, or says nothing without an expectation', () => {
    expect(evaluateRule('exact_match', {}, run({ output: { b: 1, a: [1, { y: 2, x: 1 }] }, expectedOutput: { a: [1, { x: 1, y: 2 }], b: 1 } }))).toMatchObject({ dataType: 'BOOLEAN', value: true });
    expect(evaluateRule('exact_match', { field: 'answer' }, run({ expectedOutput: 'Your refund is on its way' }))?.value).toBe(true);
    expect(evaluateRule('exact_match', { field: 'answer' }, run({ expectedOutput: 'Refunded' }))).toMatchObject({ value: false, comment: 'Expected "Refunded", got "Your refund is on its way".' });
    expect(evaluateRule('exact_match', {}, run())).toBeNull();
  });

  it('contains and regex read the output as text, with case folded when asked', () => {
    expect(evaluateRule('contains', { value: 'REFUND', ignoreCase: true }, run())?.value).toBe(true);
    expect(evaluateRule('contains', { value: 'REFUND' }, run())?.value).toBe(false);
    expect(evaluateRule('regex', parseRuleConfig('regex', { pattern: 'refund\\b.*way' }), run())?.value).toBe(true);
    expect(evaluateRule('regex', parseRuleConfig('regex', { pattern: '^\\d+$' }), run())).toMatchObject({ value: false, comment: 'Does not match /^\\d+$/.' });
  });

  it('expected_decisions scores the share of positions chosen as expected and names the first wrong one', () => {
    const expectedDecisions = [{ chosen: { tool: 'lookup_order' } }, { chosen: 'reply' }];
    expect(evaluateRule('expected_decisions', {}, run({ expectedDecisions, steps: [{ type: 'TOOL_SELECTION', label: 'lookup_order' }, { type: 'ROUTING', label: 'reply' }] }))).toEqual({
      dataType: 'NUMERIC',
      value: 1,
      comment: 'All 2 decisions as expected.',
    });
    expect(evaluateRule('expected_decisions', {}, run({ expectedDecisions, steps: [{ type: 'TOOL_SELECTION', label: 'search' }, { type: 'ROUTING', label: 'reply' }, { type: 'RETRY', label: 'again' }] }))).toEqual({
      dataType: 'NUMERIC',
      value: 1 / 3,
      comment: '1 of 3 decisions as expected; decision 1 chose search, expected lookup_order.',
    });
    expect(evaluateRule('expected_decisions', {}, run())).toBeNull();
  });

  it('max_cost and max_duration hold a run to a bound', () => {
    expect(evaluateRule('max_cost', { max: 0.01 }, run())).toMatchObject({ value: false });
    expect(evaluateRule('max_duration', { max: 2000 }, run())).toMatchObject({ value: true, comment: 'Took 1200 ms, within 2000 ms.' });
    expect(evaluateRule('max_cost', { max: 1 }, run({ costUsd: null }))).toBeNull();
  });

  it.each([
    ['regex', {}, 'config.pattern is required for regex'],
    ['regex', { pattern: '(' }, /^config\.pattern is not a valid regular expression/],
    ['max_cost', { max: -1 }, 'config.max is required for max_cost: a number from 0'],
    ['contains', { ignoreCase: 'yes' }, 'config.ignoreCase must be true or false'],
    ['exact_match', [], 'config must be an object'],
  ] as const)('refuses a %s config %j', (kind, config, error) => {
    expect(() => parseRuleConfig(kind, config)).toThrow(error);
  });
});
