import { describe, expect, it } from 'vitest';
import { activeListFilters, hasListFilters, readListFilters, withoutListFilter } from './list-filters';
import { apiListUrl, listQueryString, readListState, traceQueries } from './traces';

const read = (qs: string) => readListFilters(new URLSearchParams(qs));

describe('list filters in the URL', () => {
  it('reads the drill-down filters, normalising instants as the API does', () => {
    expect(read('decisionType=TOOL_SELECTION&chosen=web+search&from=2026-03-01T00:00:00Z&to=2026-03-01T01:00:00%2B01:00&tag=prod&name=checkout')).toEqual({
      filters: {
        decisionType: 'TOOL_SELECTION',
        chosen: 'web search',
        from: '2026-03-01T00:00:00.000Z',
        to: '2026-03-01T00:00:00.000Z',
        tag: 'prod',
        name: 'checkout',
      },
      problems: [],
    });
    // An unencoded + in an offset arrives as a space; no zone is UTC.
    expect(read('from=2026-03-01T01:00:00 01:00&to=2026-03-01T02:00').filters).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-01T02:00:00.000Z',
    });
  });

  it('keeps exact values as written and trims the others', () => {
    expect(read('name=%20a%20&chosen=%20x&tag=t%20&search=%20s%20&sessionId=%20').filters).toEqual({ name: ' a ', chosen: ' x', tag: 't ', search: 's' });
  });

  it('reports what the API would refuse', () => {
    const { filters, problems } = read(`decisionType=NOPE&from=yesterday&chosen=${'é'.repeat(201)}`);
    expect(filters).toEqual({});
    expect(problems).toEqual([
      'Decision type “NOPE” is not one of TOOL_SELECTION, ROUTING, RETRY, ESCALATION, MEMORY_RETRIEVAL, PLANNING, CUSTOM.',
      'The chosen option is longer than 200 characters.',
      'From “yesterday” is not an ISO 8601 date-time (e.g. 2026-01-02T03:04:05.000Z).',
    ]);
    expect(read('from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z').problems).toEqual(['From must not be after To.']);
    expect(read(`chosen=${'🌍'.repeat(200)}`).problems).toEqual([]);
  });

  it('round-trips through the URL and keeps every filter when paging', () => {
    const params = { page: 3, limit: 20, status: 'ERROR' as const, decisionType: 'ROUTING' as const, chosen: 'a&b', from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z', tag: 'x y', name: 'n' };
    const qs = listQueryString(params);
    expect(qs).toBe('?status=ERROR&name=n&tag=x+y&decisionType=ROUTING&chosen=a%26b&from=2026-03-01T00%3A00%3A00.000Z&to=2026-03-02T00%3A00%3A00.000Z&page=3');
    expect(readListState(new URLSearchParams(qs)).params).toEqual(params);
    expect(apiListUrl(params)).toBe(`/api/traces?page=3&limit=20&${qs.slice(1, qs.indexOf('&page'))}`);
  });

  it('lists, removes and keys filters', () => {
    const params = { page: 2, limit: 20, tag: 'a', chosen: 'c', search: '' };
    expect(activeListFilters(params)).toEqual([
      { key: 'tag', value: 'a' },
      { key: 'chosen', value: 'c' },
    ]);
    expect(withoutListFilter(params, 'tag')).toEqual({ page: 2, limit: 20, chosen: 'c' });
    expect(hasListFilters({ page: 1, limit: 20 })).toBe(false);
    expect(hasListFilters({ page: 1, limit: 20, to: '2026-03-01T00:00:00.000Z' })).toBe(true);
    expect(traceQueries.list({ page: 1, limit: 20, tag: undefined }).queryKey).toEqual(traceQueries.list({ page: 1, limit: 20 }).queryKey);
  });
});
