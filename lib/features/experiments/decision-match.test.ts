import { describe, expect, it } from 'vitest';
import { decisionsMatch, expectedSteps, matchDecisions } from './decision-match';

describe('decisions against the expected ones', () => {
  it('labels expected options as paths do and folds repeats', () => {
    expect(expectedSteps([{ chosen: { tool: 'search' } }, { chosen: 'search' }, { type: 'ROUTING', chosen: { route: 'billing' } }])).toEqual([
      { label: 'search' },
      { type: 'ROUTING', label: 'billing' },
    ]);
  });

  it('counts matching positions over the longer path and names the first wrong one; a type is compared only when expected', () => {
    const expected = expectedSteps([{ chosen: 'route' }, { type: 'TOOL_SELECTION', chosen: 'search' }]);
    expect(matchDecisions([{ type: 'ROUTING', label: 'route' }, { type: 'TOOL_SELECTION', label: 'search' }], expected)).toEqual({ matched: 2, of: 2, firstWrong: null });
    expect(matchDecisions([{ type: 'ROUTING', label: 'route' }, { type: 'TOOL_SELECTION', label: 'sql' }, { type: 'RETRY', label: 'x' }], expected)).toEqual({ matched: 1, of: 3, firstWrong: 1 });
    expect(matchDecisions([{ type: 'ROUTING', label: 'route' }, { type: 'PLANNING', label: 'search' }], expected)).toMatchObject({ matched: 1, firstWrong: 1 });
    expect(matchDecisions([], expected)).toEqual({ matched: 0, of: 2, firstWrong: 0 });
    expect(decisionsMatch([{ type: 'ROUTING', label: 'route' }], expected)).toBe(false);
  });
});
