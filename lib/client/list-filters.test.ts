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
        tag: ['prod'],
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
    expect(read('name=%20a%20&chosen=%20x&tag=t%20&search=%20s%20&sessionId=%20').filters).toEqual({ name: ' a ', chosen: ' x', tag: ['t '], search: 's' });
  });

  it('reads numbers, booleans and metadata entries', () => {
    expect(read('minDurationMs=1500&maxCost=0.5&hasErrors=false&metadata.env=prod&metadata.=x&q=%20timeout%20').filters).toEqual({
      minDurationMs: 1500,
      maxCost: 0.5,
      hasErrors: false,
      metadata: { env: 'prod' },
      q: 'timeout',
    });
    expect(read('minCost=-1&hasErrors=yes').problems).toEqual(['Minimum cost “-1” is not a number of 0 or more.', 'Errors “yes” must be true or false.']);
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
    const params = { page: 3, limit: 20, status: 'ERROR' as const, decisionType: 'ROUTING' as const, chosen: 'a&b', from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z', tag: ['x y', 'z'], name: 'n' };
    const qs = listQueryString(params);
    expect(qs).toBe('?status=ERROR&name=n&tag=x+y&tag=z&decisionType=ROUTING&chosen=a%26b&from=2026-03-01T00%3A00%3A00.000Z&to=2026-03-02T00%3A00%3A00.000Z&page=3');
    expect(readListState(new URLSearchParams(qs)).params).toEqual(params);
    expect(apiListUrl(params)).toBe(`/api/traces?page=3&limit=20&${qs.slice(1, qs.indexOf('&page'))}`);
  });

  it('lists, removes and keys filters', () => {
    const params = { page: 2, limit: 20, tag: ['a', 'b'], chosen: 'c', search: '', metadata: { env: 'prod' } };
    const chips = activeListFilters(params);
    expect(chips.map(({ id, label, value }) => ({ id, label, value }))).toEqual([
      { id: 'tag:a', label: 'Tag', value: 'a' },
      { id: 'tag:b', label: 'Tag', value: 'b' },
      { id: 'chosen', label: 'Chosen', value: 'c' },
      { id: 'metadata:env', label: 'Metadata env', value: 'prod' },
    ]);
    expect(chips[0].remove(params)).toEqual({ tag: ['b'], chosen: 'c', metadata: { env: 'prod' } });
    expect(chips[3].remove(params)).toEqual({ tag: ['a', 'b'], chosen: 'c' });
    expect(withoutListFilter(params, 'tag')).toEqual({ page: 2, limit: 20, chosen: 'c', metadata: { env: 'prod' } });
    expect(hasListFilters({})).toBe(false);
    expect(hasListFilters({ to: '2026-03-01T00:00:00.000Z' })).toBe(true);
    expect(hasListFilters({ tag: [] })).toBe(false);
    expect(traceQueries.list({ page: 1, limit: 20, tag: undefined }).queryKey).toEqual(traceQueries.list({ page: 1, limit: 20 }).queryKey);
    expect(traceQueries.list({ page: 1, limit: 20, sort: 'startedAt' }).queryKey).toEqual(traceQueries.list({ page: 1, limit: 20 }).queryKey);
  });

  it('reads and writes the search, range, error and metadata filters and the sort', () => {
    const qs = 'q=Bestellung+%E6%B3%A8%E6%96%87&minDurationMs=100&maxCost=0.5&hasErrors=true&metadata.env=prod&metadata.region=eu&sort=cost&order=asc';
    const state = readListState(new URLSearchParams(qs));
    expect(state.problem).toBeNull();
    expect(state.params).toEqual({
      page: 1,
      limit: 20,
      sort: 'cost',
      order: 'asc',
      q: 'Bestellung 注文',
      minDurationMs: 100,
      maxCost: 0.5,
      hasErrors: true,
      metadata: { env: 'prod', region: 'eu' },
    });
    expect(listQueryString(state.params)).toBe(`?${qs}`);
    expect(readListState(new URLSearchParams('minCost=-1&hasErrors=yes&sort=name')).problem).toBe(
      'Sort “name” is not one of startedAt, duration, cost, or score.<name>. Minimum cost “-1” is not a number of 0 or more. Errors “yes” must be true or false.',
    );
  });
});
