import { describe, expect, it } from 'vitest';
import { parseIsoDateTime } from './validate';

const iso = (s: string) => parseIsoDateTime(s)?.toISOString() ?? null;

describe('parseIsoDateTime', () => {
  it('reads ISO 8601 date-times with Z, offsets, fractions, or no zone (UTC)', () => {
    expect(iso('2026-01-02T03:04:05Z')).toBe('2026-01-02T03:04:05.000Z');
    expect(iso('2026-01-02T03:04:05.123456Z')).toBe('2026-01-02T03:04:05.123Z');
    expect(iso('2026-01-02T03:04:05+02:00')).toBe('2026-01-02T01:04:05.000Z');
    expect(iso('2026-01-02T03:04:05-0130')).toBe('2026-01-02T04:34:05.000Z');
    expect(iso('2026-01-02T03:04')).toBe('2026-01-02T03:04:00.000Z');
    expect(iso('2026-01-02 03:04:05')).toBe('2026-01-02T03:04:05.000Z');
  });
  it('keeps years below 100 as written and refuses year 0', () => {
    expect(iso('0050-06-01T00:00:00Z')).toBe('0050-06-01T00:00:00.000Z');
    expect(iso('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00.000Z');
    expect(iso('0000-01-01T00:00:00Z')).toBeNull();
  });
  it('refuses impossible dates and times and anything that is not a date-time', () => {
    for (const bad of [
      '2026-02-29T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01',
      'yesterday',
      '2026-01-01T00:00:00+25:00',
      '1700000000',
      '',
    ]) {
      expect(iso(bad), bad).toBeNull();
    }
    expect(iso('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
  });
});
