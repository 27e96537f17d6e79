import { describe, expect, it } from 'vitest';
import { drillDownHref, insightsQueries, insightsQueryString, readInsightsState, resolveInsightsRequest } from './insights';

const read = (qs: string) => readInsightsState(new URLSearchParams(qs));
const NOW = Date.parse('2026-03-05T12:34:56.789Z');

describe('insights URL state', () => {
  it('defaults to the last 24 hours and reads presets, custom windows and the filters', () => {
    expect(read('')).toEqual({ range: '24h', filters: {}, problem: null });
    expect(read('range=7d&tag=a&tag=b&name=%20x&status=ERROR&sessionId=s&decisionType=RETRY')).toEqual({
      range: '7d',
      filters: { tag: ['a', 'b'], name: ' x', status: 'ERROR', sessionId: 's' },
      problem: null,
    });
    // A from or a to makes the window custom, whatever the range says.
    expect(read('range=1h&from=2026-03-01T00:00:00Z')).toEqual({ range: 'custom', from: '2026-03-01T00:00:00.000Z', filters: {}, problem: null });
    expect(read('range=2w').problem).toBe('Range “2w” is not one of 1h, 24h, 7d, 30d.');
    expect(read('from=x').problem).toMatch(/^From “x” is not an ISO 8601 date-time/);
  });

  it('writes the state back, leaving the default range out', () => {
    expect(insightsQueryString({ range: '24h', filters: {} })).toBe('');
    expect(insightsQueryString({ range: '1h', filters: { tag: ['a b'], status: 'ERROR' } })).toBe('?range=1h&status=ERROR&tag=a+b');
    const custom = { range: 'custom' as const, from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z', filters: { name: 'n' } };
    expect(read(insightsQueryString(custom).slice(1))).toEqual({ ...custom, problem: null });
  });

  it('resolves presets to windows ending at the next whole minute, with the default bucket', () => {
    expect(resolveInsightsRequest(read('range=1h'), NOW)).toEqual({ from: '2026-03-05T11:35:00.000Z', to: '2026-03-05T12:35:00.000Z', bucket: 'minute' });
    expect(resolveInsightsRequest(read('tag=t'), NOW)).toEqual({ from: '2026-03-04T12:35:00.000Z', to: '2026-03-05T12:35:00.000Z', bucket: 'hour', tag: ['t'] });
    expect(resolveInsightsRequest(read('range=30d'), NOW)).toMatchObject({ from: '2026-02-03T12:35:00.000Z', bucket: 'day' });
    // Within one minute, the same window: the server's render and the browser share the cache entry.
    expect(resolveInsightsRequest(read(''), NOW + 3000)).toEqual(resolveInsightsRequest(read(''), NOW));
    expect(resolveInsightsRequest(read('to=2026-03-01T00:00:00Z'), NOW)).toMatchObject({ from: '2026-02-28T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' });
    expect(resolveInsightsRequest(read('from=2026-03-06T00:00:00Z'), NOW)).toEqual({ problem: 'The start of the window is after its end.' });
    expect(resolveInsightsRequest(read('from=2010-01-01T00:00:00Z'), NOW)).toEqual({ problem: 'The window is too long: at most about four years.' });
  });

  it('keys equal requests equally and drills down with the window, the filters and the figure', () => {
    const req = { from: '2026-03-04T00:00:00.000Z', to: '2026-03-05T00:00:00.000Z', bucket: 'hour' as const, tag: ['prod'] };
    expect(insightsQueries.overview(req).queryKey).toEqual(insightsQueries.overview({ ...req, name: undefined }).queryKey);
    expect(drillDownHref(req, { decisionType: 'TOOL_SELECTION', chosen: 'web search' })).toBe(
      '/traces?tag=prod&decisionType=TOOL_SELECTION&chosen=web+search&from=2026-03-04T00%3A00%3A00.000Z&to=2026-03-05T00%3A00%3A00.000Z',
    );
  });
});
