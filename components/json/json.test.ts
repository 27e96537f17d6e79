import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@/lib/features/traces/types';
import { chunkRanges, jsonEqual, jsonSize, previewJson, summarizeJson } from './json';

describe('chunkRanges', () => {
  it('lists up to 100 entries directly', () => {
    expect(chunkRanges(0, 100)).toBeNull();
    expect(chunkRanges(0, 0)).toBeNull();
  });

  it('splits bigger containers into at most 100 ranges', () => {
    expect(chunkRanges(0, 250)).toEqual([
      [0, 100],
      [100, 200],
      [200, 250],
    ]);
    const big = chunkRanges(0, 1_000_000)!;
    expect(big).toHaveLength(100);
    expect(big[0]).toEqual([0, 10_000]);
    expect(chunkRanges(10_000, 20_000)).toHaveLength(100);
  });
});

describe('previewJson', () => {
  it('previews small values whole', () => {
    expect(previewJson({ a: 1, b: [true, null], c: 'x' })).toBe('{a: 1, b: [true, null], c: "x"}');
    expect(previewJson([])).toBe('[]');
  });

  it('stays short for megabyte values, without serialising them', () => {
    const huge: JsonValue = { items: Array.from({ length: 200_000 }, (_, i) => ({ i, text: 'x'.repeat(50) })) };
    const text = previewJson(huge, 60);
    expect(text.length).toBeLessThan(140);
    expect(text.startsWith('{items: [{i: 0')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
  });

  it('cuts long strings', () => {
    expect(previewJson('y'.repeat(1000), 20).length).toBeLessThan(30);
  });
});

describe('summarizeJson', () => {
  it('names an option by its usual fields', () => {
    expect(summarizeJson('web_search')).toBe('web_search');
    expect(summarizeJson({ tool: 'calculator', args: { x: 1 } })).toBe('calculator');
    expect(summarizeJson({ name: 'plan B', id: 'x' })).toBe('plan B');
    expect(summarizeJson({ id: 7 })).toBe('7');
    expect(summarizeJson(42)).toBe('42');
    expect(summarizeJson(null)).toBe('null');
    expect(summarizeJson({ score: 0.9 })).toBe('{score: 0.9}');
    expect(summarizeJson('z'.repeat(100), 10)).toBe(`${'z'.repeat(10)}…`);
  });
});

describe('jsonEqual', () => {
  it('compares deeply, ignoring key order', () => {
    expect(jsonEqual({ a: [1, { b: 2 }], c: 'x' }, { c: 'x', a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 2 })).toBe(false);
    expect(jsonEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(jsonEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, null)).toBe(true);
    expect(jsonEqual('a', 'a')).toBe(true);
  });

  it('survives deep nesting', () => {
    let a: JsonValue = 0;
    let b: JsonValue = 0;
    for (let i = 0; i < 50_000; i++) {
      a = [a];
      b = [b];
    }
    expect(jsonEqual(a, b)).toBe(true);
  });
});

describe('jsonSize', () => {
  it('measures the compact text', () => {
    expect(jsonSize({ a: 1 })).toBe(7);
    expect(jsonSize('abc')).toBe(3);
    expect(jsonSize(null)).toBe(4);
  });
});
