import { describe, expect, it } from 'vitest';
import { sessionListHref, sessionPageHref } from './links';

describe('session links', () => {
  it('encode the id and leave defaults out', () => {
    expect(sessionPageHref('s 1/2')).toBe('/sessions/s%201%2F2');
    expect(sessionListHref({ page: 1, limit: 20 })).toBe('/sessions');
    expect(sessionListHref({ page: 3, limit: 50, userId: 'u&1' })).toBe('/sessions?userId=u%261&page=3&limit=50');
    expect(sessionListHref({ page: 2, limit: 20, search: 'a b', status: 'ERROR', range: '24h' })).toBe('/sessions?search=a+b&status=ERROR&range=24h&page=2');
  });
});
