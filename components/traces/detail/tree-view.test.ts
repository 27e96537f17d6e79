import { describe, expect, it } from 'vitest';
import type { TreeRow } from '@/lib/features/traces/shared';
import { clampNameWidth, MIN_NAME_PX, parseNameWidth, stickyPath } from './tree-view';

/** Rows from [depth, parentIndex] pairs (the node is not read). */
const rows = (shape: Array<[number, number]>): TreeRow[] =>
  shape.map(([depth, parentIndex]) => ({ node: null as never, depth, parentIndex, hasChildren: false, expanded: true, posInSet: 1, setSize: 1 }));

describe('stickyPath', () => {
  it('lists the first row’s ancestors, outermost first', () => {
    const r = rows([[0, -1], [1, 0], [2, 1], [2, 1], [3, 3], [0, -1]]);
    expect(stickyPath(r, 4)).toEqual({ indices: [0, 1, 3], hidden: 0 });
    expect(stickyPath(r, 2)).toEqual({ indices: [0, 1], hidden: 0 });
    expect(stickyPath(r, 0)).toEqual({ indices: [], hidden: 0 });
    expect(stickyPath(r, 5)).toEqual({ indices: [], hidden: 0 });
    expect(stickyPath(r, 99)).toEqual({ indices: [], hidden: 0 });
  });

  it('keeps the nearest ones of a deep chain and counts the others, walking only as far as it shows', () => {
    const n = 10_000;
    const chain = rows(Array.from({ length: n }, (_, i) => [i, i - 1] as [number, number]));
    expect(stickyPath(chain, n - 1, 3)).toEqual({ indices: [n - 4, n - 3, n - 2], hidden: n - 4 });
  });
});

describe('name column width', () => {
  it('stays between its floor and what leaves the other columns room', () => {
    expect(clampNameWidth(50, 1000)).toBe(MIN_NAME_PX);
    expect(clampNameWidth(400.4, 1000)).toBe(400);
    expect(clampNameWidth(990, 1000)).toBe(840);
    expect(clampNameWidth(400, 200)).toBe(MIN_NAME_PX);
  });

  it('reads a stored width, ignoring what is not one', () => {
    expect(parseNameWidth(null)).toBeNull();
    expect(parseNameWidth('')).toBeNull();
    expect(parseNameWidth('abc')).toBeNull();
    expect(parseNameWidth('12')).toBeNull();
    expect(parseNameWidth('420')).toBe(420);
  });
});
