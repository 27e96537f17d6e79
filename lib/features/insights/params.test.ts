import { describe, expect, it } from 'vitest';
import { parseInsightsParams } from './params';

const NOW = new Date('2026-03-05T12:34:56.789Z');
const read = (query: string) => parseInsightsParams(new URLSearchParams(query), NOW);

describe('parseInsightsParams', () => {
  it('defaults to the 24 hours before now', () => {
    expect(read('')).toEqual({ from: '2026-03-04T12:34:56.789Z', to: '2026-03-05T12:34:56.789Z' });
  });
  it('takes a missing start 24 hours before the end, and a missing end at now', () => {
    expect(read('to=2026-03-01T00:00:00Z')).toEqual({ from: '2026-02-28T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' });
    expect(read('from=2026-01-01T00:00:00+01:00')).toEqual({ from: '2025-12-31T23:00:00.000Z', to: '2026-03-05T12:34:56.789Z' });
    // Never before year 1, which PostgreSQL does not have.
    expect(read('to=0001-01-01T06:00:00Z').from).toBe('0001-01-01T00:00:00.000Z');
  });
  it('reads the trace filters and ignores the list-only ones', () => {
    expect(read('name=a&tag=b&sessionId=c&status=ERROR&search=x&decisionType=NOPE&chosen=y')).toEqual({
      from: '2026-03-04T12:34:56.789Z',
      to: '2026-03-05T12:34:56.789Z',
      name: 'a',
      tag: ['b'],
      sessionId: 'c',
      status: 'ERROR',
    });
  });
  it('refuses a start after the end, given or defaulted', () => {
    expect(() => read('from=2026-03-06T00:00:00Z')).toThrow('Invalid from parameter: must not be after to');
    expect(() => read('from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z')).toThrow('Invalid from parameter: must not be after to');
  });
});
