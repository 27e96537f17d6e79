import { describe, expect, it } from 'vitest';
import { quantile, quantileSorted, summarize } from './stats';

describe('quantile', () => {
  it('interpolates linearly between the closest ranks', () => {
    expect(quantile([1, 2], 0.5)).toBe(1.5);
    expect(quantile([3, 1, 2], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBeCloseTo(9.55, 10);
  });

  it('gives the extremes at 0 and 1 and the sample itself for one sample', () => {
    expect(quantile([5, 1, 9], 0)).toBe(1);
    expect(quantile([5, 1, 9], 1)).toBe(9);
    expect(quantile([42], 0.99)).toBe(42);
  });

  it('matches the textbook p95/p99 of 1..100', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(values, 0.5)).toBe(50.5);
    expect(quantile(values, 0.95)).toBeCloseTo(95.05, 10);
    expect(quantile(values, 0.99)).toBeCloseTo(99.01, 10);
  });

  it('is NaN when empty and rejects a bad q', () => {
    expect(quantileSorted([], 0.5)).toBeNaN();
    expect(() => quantile([1], 1.5)).toThrow(RangeError);
  });

  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    quantile(values, 0.5);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('summarize', () => {
  it('reports percentiles, throughput and records per second over wall time', () => {
    const s = summarize([10, 20, 30, 40], 2000, 1, 400);
    expect(s.count).toBe(4);
    expect(s.errors).toBe(1);
    expect(s.medianMs).toBe(25);
    expect(s.maxMs).toBe(40);
    expect(s.perSecond).toBe(2);
    expect(s.recordsPerSecond).toBe(200);
  });

  it('leaves records per second out when not counted', () => {
    expect(summarize([1], 1000).recordsPerSecond).toBeUndefined();
  });
});
