import { describe, expect, it } from 'vitest';
import { nestingDepth } from './json-depth';

const nestsDeeperThan = (text: string, limit: number) => nestingDepth(text, limit) > limit;

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(nestsDeeperThan('[]', 0)).toBe(true);
    expect(nestsDeeperThan('[]', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(nestsDeeperThan('["[[[[{{{{"]', 1)).toBe(false);
    expect(nestsDeeperThan('[[],[],[[]]]', 3)).toBe(false);
    expect(nestsDeeperThan('[[],[],[[]]]', 2)).toBe(true);
    expect(nestsDeeperThan('"plain"', 0)).toBe(false);
  });

  it('ends a string at the first quote not escaped, however many backslashes precede it', () => {
    expect(nestsDeeperThan(JSON.stringify(['a"[[[', 'b\\', '[[[\\"[[']), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['x\\\\', [[]]]), 2)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify(['x\\\\', [[]]]), 3)).toBe(false);
  });

  it('agrees with the parsed value on deep and random documents', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(nestsDeeperThan(deep, 9_999)).toBe(true);
    expect(nestsDeeperThan(deep, 10_000)).toBe(false);

    const depthOf = (v: unknown): number =>
      typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const make = (level: number): unknown => {
      const r = rand();
      if (level > 6 || r < 0.3) return ['s"[{\\', 1, null, true, 'é]}'][Math.floor(rand() * 5)];
      if (r < 0.65) return Array.from({ length: Math.floor(rand() * 4) }, () => make(level + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, (_, i) => [`k${i}"[`, make(level + 1)]));
    };
    for (let n = 0; n < 200; n++) {
      const value = make(0);
      const depth = depthOf(value);
      const text = JSON.stringify(value);
      expect(nestsDeeperThan(text, depth), text).toBe(false);
      if (depth > 0) expect(nestsDeeperThan(text, depth - 1), text).toBe(true);
    }
  });
});

describe('nestingDepth', () => {
  it('is the deepest level, or cap + 1 once past the cap', () => {
    expect(nestingDepth('"plain"', 10)).toBe(0);
    expect(nestingDepth('{"a":[{"b":[]}],"c":[]}', 10)).toBe(4);
    expect(nestingDepth('{"a":[{"b":[]}],"c":[]}', 4)).toBe(4);
    expect(nestingDepth('{"a":[{"b":[]}],"c":[]}', 3)).toBe(4);
    expect(nestingDepth('['.repeat(50) + ']'.repeat(50), 10)).toBe(11);
  });
});
