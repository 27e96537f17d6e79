import { describe, expect, it } from 'vitest';
import { apiListUrl, isRetryable, ApiError, listQueryString, readListState, sessionHref, traceHref, traceQueries } from './traces';

const read = (qs: string) => readListState(new URLSearchParams(qs));

describe('readListState', () => {
  it('uses the API defaults', () => {
    expect(read('')).toEqual({ params: { page: 1, limit: 20 }, problem: null });
  });

  it('reads every filter', () => {
    expect(read('page=3&limit=50&status=ERROR&search=%20plan%20&sessionId=s-1')).toEqual({
      params: { page: 3, limit: 50, status: 'ERROR', search: 'plan', sessionId: 's-1' },
      problem: null,
    });
  });

  it('ignores empty values', () => {
    expect(read('search=&sessionId=%20&status=').params).toEqual({ page: 1, limit: 20 });
  });

  it('reports what the API would reject instead of throwing', () => {
    const state = read('page=0&limit=500&status=DONE');
    expect(state.params).toEqual({ page: 1, limit: 20 });
    expect(state.problem).toMatch(/Page “0”/);
    expect(state.problem).toMatch(/Page size “500”/);
    expect(state.problem).toMatch(/Status “DONE”/);
    expect(read('page=1.5').problem).toMatch(/not a page number/);
    expect(read('limit=abc').problem).toMatch(/1 to 100/);
  });
});

describe('URLs', () => {
  it('writes only non-default list state, round-tripping through readListState', () => {
    expect(listQueryString({ page: 1, limit: 20 })).toBe('');
    const params = { page: 2, limit: 50, status: 'RUNNING' as const, search: 'a b&c', sessionId: 'x/y' };
    const qs = listQueryString(params);
    expect(qs).toBe('?status=RUNNING&search=a+b%26c&sessionId=x%2Fy&page=2&limit=50');
    expect(read(qs.slice(1)).params).toEqual(params);
  });

  it('asks the API with every parameter explicit', () => {
    expect(apiListUrl({ page: 1, limit: 20, search: 'q' })).toBe('/api/traces?page=1&limit=20&search=q');
  });

  it('encodes client-supplied ids', () => {
    expect(traceHref('a/b c?#%')).toBe('/traces/a%2Fb%20c%3F%23%25');
    expect(sessionHref('s 1')).toBe('/traces?sessionId=s+1');
  });
});

describe('traceQueries', () => {
  it('gives equal keys for equal params, however they were built', () => {
    const a = traceQueries.list({ page: 1, limit: 20, status: undefined }).queryKey;
    const b = traceQueries.list({ page: 1, limit: 20 }).queryKey;
    expect(a).toEqual(b);
    expect(traceQueries.detail('x').queryKey).toEqual(['traces', 'detail', 'x']);
  });

  it('polls only while something runs', () => {
    const options = traceQueries.list({ page: 1, limit: 20 });
    const interval = options.refetchInterval as (q: unknown) => number | false;
    const withStatus = (status: string) => ({ state: { data: { traces: [{ status }] } } });
    expect(interval(withStatus('RUNNING'))).toBe(5000);
    expect(interval(withStatus('COMPLETED'))).toBe(false);
    expect(interval({ state: { data: undefined } })).toBe(false);
  });

  it('retries only what may pass next time', () => {
    expect(isRetryable(new ApiError(500, 'x'))).toBe(true);
    expect(isRetryable(new ApiError(404, 'x'))).toBe(false);
    expect(isRetryable(new TypeError('network'))).toBe(true);
  });
});
