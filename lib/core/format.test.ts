import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCompact,
  formatCost,
  formatDate,
  exactTitle,
  formatDateTime,
  formatDuration,
  formatOffset,
  formatTick,
  formatTickOffset,
  formatRelative,
  formatTokens,
  humanizeEnum,
  plural,
  toMillis,
} from './format';

describe('formatDuration', () => {
  it.each([
    [null, '—'],
    [undefined, '—'],
    [Number.NaN, '—'],
    [0, '0 ms'],
    [0.25, '0.25 ms'],
    [1.5, '1.5 ms'],
    [12.4, '12 ms'],
    [850, '850 ms'],
    [999.4, '999 ms'],
    [1000, '1 s'],
    [1250, '1.25 s'],
    [12_345, '12.3 s'],
    [59_900, '59.9 s'],
    [60_000, '1m 00s'],
    [125_000, '2m 05s'],
    [3_600_000, '1h 00m'],
    [3_720_000, '1h 02m'],
    [86_400_000, '1d 00h'],
    [3 * 86_400_000 + 4 * 3_600_000, '3d 04h'],
    [-1500, '-1.5 s'],
  ])('%s ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('formats offsets with a sign', () => {
    expect(formatOffset(0)).toBe('+0 ms');
    expect(formatOffset(1250)).toBe('+1.25 s');
    expect(formatOffset(-20)).toBe('-20 ms');
    expect(formatOffset(null)).toBe('—');
  });
});

describe('formatTick', () => {
  it.each([
    // A zoomed axis: neighbours read apart where formatDuration says "12 s" for each.
    [12_001, 1, '12.001 s'],
    [12_002, 1, '12.002 s'],
    [12_002.5, 2.5, '12.0025 s'],
    [12_500, 500, '12.5 s'],
    [12_000, 500, '12.0 s'],
    [2_500, 2_500, '2.5 s'],
    [30_000, 10_000, '30 s'],
    [850, 50, '850 ms'],
    [0.25, 0.25, '0.25 ms'],
    [0, 0.001, '0 ms'],
    [125_250, 250, '2m 05.25s'],
    [125_000, 5_000, '2m 05s'],
    [3_720_000, 600_000, '1h 02m'],
    [-1500, 500, '-1.5 s'],
  ])('%s ms on a %s ms step reads %s', (ms, step, text) => {
    expect(formatTick(ms, step)).toBe(text);
  });

  it('falls back to formatDuration without a step, and signs offsets', () => {
    expect(formatTick(12_001, 0)).toBe('12 s');
    expect(formatTickOffset(12_001, 1)).toBe('+12.001 s');
    expect(formatTickOffset(null, 1)).toBe('—');
  });
});

describe('formatCost', () => {
  it.each([
    [null, '—'],
    [0, '$0'],
    [0.5, '$0.50'],
    [0.0123, '$0.0123'],
    [0.012345, '$0.0123'],
    [0.00042, '$0.00042'],
    [0.0000001, '<$0.000001'],
    [0.9996, '$1.00'],
    [1.5, '$1.50'],
    [12345.678, '$12,345.68'],
    [-0.25, '-$0.25'],
  ])('%s USD reads %s', (usd, text) => {
    expect(formatCost(usd)).toBe(text);
  });
});

describe('counts', () => {
  it('groups token counts', () => {
    expect(formatTokens(12345)).toBe('12,345');
    expect(formatTokens(0)).toBe('0');
    expect(formatTokens(null)).toBe('—');
    expect(formatTokens(12.6)).toBe('13');
  });

  it('compacts large numbers', () => {
    expect(formatCompact(950)).toBe('950');
    expect(formatCompact(1200)).toBe('1.2k');
    expect(formatCompact(12_345)).toBe('12k');
    expect(formatCompact(4_500_000)).toBe('4.5M');
    expect(formatCompact(2_000_000_000)).toBe('2B');
  });

  it('sizes bytes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 * 1024)).toBe('1.0 MB');
  });

  it('pluralises', () => {
    expect(plural(1, 'span')).toBe('1 span');
    expect(plural(10_000, 'span')).toBe('10,000 spans');
    expect(plural(2, 'child', 'children')).toBe('2 children');
  });

  it('humanises enum values', () => {
    expect(humanizeEnum('TOOL_SELECTION')).toBe('Tool selection');
    expect(humanizeEnum('ERROR')).toBe('Error');
  });
});

describe('dates', () => {
  const iso = '2026-11-21T10:02:03.045Z';

  it('parses or rejects', () => {
    expect(toMillis(iso)).toBe(Date.UTC(2026, 10, 21, 10, 2, 3, 45));
    expect(toMillis('not a date')).toBeNull();
    expect(toMillis(null)).toBeNull();
  });

  it('shows the exact instant in UTC by default', () => {
    expect(formatDateTime(iso)).toBe('2026-11-21 10:02:03.045 UTC');
    expect(formatDateTime(null)).toBe('—');
  });

  it('shows local time with its offset', () => {
    const local = formatDateTime(iso, 'local');
    expect(local).toMatch(/^2026-11-2\d \d\d:\d\d:03\.045 UTC([+-]\d\d:\d\d)?$/);
  });

  it('titles an instant with its exact local time and UTC when they differ', () => {
    expect(exactTitle(iso)).toBe('2026-11-21 10:02:03.045 UTC');
    const local = formatDateTime(iso, 'local');
    expect(exactTitle(iso, 'local')).toBe(local.endsWith(' UTC') ? local : `${local} (2026-11-21 10:02:03.045 UTC)`);
    expect(exactTitle(null, 'local')).toBe('—');
  });

  it('formats calendar dates', () => {
    expect(formatDate(iso)).toBe('Nov 21, 2026');
  });

  it('says how long ago', () => {
    const now = Date.parse(iso);
    expect(formatRelative(iso, now)).toBe('just now');
    expect(formatRelative(iso, now + 4_000)).toBe('just now');
    expect(formatRelative(iso, now - 30_000)).toBe('just now');
    expect(formatRelative(iso, now + 45_000)).toBe('45s ago');
    expect(formatRelative(iso, now + 12 * 60_000)).toBe('12m ago');
    expect(formatRelative(iso, now + 3 * 3_600_000 + 5)).toBe('3h ago');
    expect(formatRelative(iso, now + 5 * 86_400_000)).toBe('5d ago');
    expect(formatRelative(iso, now + 40 * 86_400_000)).toBe('Nov 21, 2026');
    expect(formatRelative(iso, now - 2 * 3_600_000)).toBe('in 2h 00m');
    expect(formatRelative(null, now)).toBe('—');
  });
});
