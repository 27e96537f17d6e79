import { describe, expect, it } from 'vitest';
import { axisMax, countTicks } from './ticks';

describe('count ticks', () => {
  it('are whole numbers at a 1-2-5 step, never repeated, covering the highest value', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(countTicks(5)).toEqual([0, 2, 4, 6]);
    expect(countTicks(0.4)).toEqual([0, 1]);
    expect(countTicks(170)).toEqual([0, 50, 100, 150, 200]);
    expect(countTicks(12_345)).toEqual([0, 5000, 10000, 15000]);
    for (let max = 0; max < 2000; max += 7) {
      const ticks = countTicks(max);
      expect(ticks.every(Number.isInteger)).toBe(true);
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(ticks.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(5);
    }
  });

  it("take a stack's sum per row as its height", () => {
    const rows = [{ values: { a: 1, b: 2, line: 2 } }, { values: { a: 2, b: null, line: 4 } }];
    expect(axisMax(rows, [{ key: 'a', stack: 's' }, { key: 'b', stack: 's' }])).toBe(3);
    expect(axisMax(rows, [{ key: 'line' }])).toBe(4);
  });
});
