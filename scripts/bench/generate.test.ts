import { describe, expect, it } from 'vitest';
import {
  FULL_SHAPE,
  LIST_SEED_SHAPE,
  Rng,
  SEARCH_TERM,
  generateTrace,
  recordCount,
  spanTreeDepth,
  traceId,
} from './generate';

describe('Rng', () => {
  it('is repeatable for one seed and differs between seeds', () => {
    const a = new Rng(1, 2);
    const b = new Rng(1, 2);
    const c = new Rng(1, 3);
    const seqA = Array.from({ length: 5 }, () => a.nextU32());
    expect(Array.from({ length: 5 }, () => b.nextU32())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.nextU32())).not.toEqual(seqA);
  });

  it('stays within its ranges', () => {
    const rng = new Rng(7);
    for (let i = 0; i < 1000; i++) {
      const x = rng.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      const n = rng.int(3, 5);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(5);
      const l = rng.logUniform(100, 2048);
      expect(l).toBeGreaterThanOrEqual(100);
      expect(l).toBeLessThanOrEqual(2048);
    }
  });
});

describe('generateTrace', () => {
  it('is a pure function of (seed, index, shape)', () => {
    expect(generateTrace({ seed: 42, index: 7 })).toEqual(generateTrace({ seed: 42, index: 7 }));
    expect(generateTrace({ seed: 42, index: 7 })).not.toEqual(generateTrace({ seed: 42, index: 8 }));
    expect(generateTrace({ seed: 42, index: 7 }).id).toBe(traceId(42, 7));
  });

  it('has the issue shape: 10 decision points, 50 spans 5 deep, 10 events', () => {
    const t = generateTrace({ seed: 1, index: 0 });
    expect(t.decisionPoints).toHaveLength(10);
    expect(t.spans).toHaveLength(50);
    expect(t.events).toHaveLength(10);
    expect(spanTreeDepth(t.spans)).toBe(5);
    expect(recordCount(t)).toBe(71);
    expect(t.spans.filter((s) => s.parentSpanId === null)).toHaveLength(1);
    expect(new Set(t.spans.map((s) => s.id)).size).toBe(50);
  });

  it('keeps every parent span before its child and every reference inside the trace', () => {
    const t = generateTrace({ seed: 3, index: 11, shape: { ...FULL_SHAPE, spans: 1000 } });
    const pos = new Map(t.spans.map((s, i) => [s.id, i]));
    for (const [i, s] of t.spans.entries()) {
      if (s.parentSpanId) {
        expect(pos.get(s.parentSpanId)).toBeLessThan(i);
        expect(t.spans[pos.get(s.parentSpanId)!].startedAt <= s.startedAt).toBe(true);
      }
    }
    for (const d of t.decisionPoints) expect(pos.has(d.parentSpanId!)).toBe(true);
    for (const e of t.events) expect(pos.has(e.spanId!)).toBe(true);
    expect(spanTreeDepth(t.spans)).toBe(5);
  });

  it('writes span inputs and outputs of 100 B to 2 KB of JSON, a few MB per 100 traces', () => {
    let bytes = 0;
    for (let i = 0; i < 100; i++) {
      const t = generateTrace({ seed: 9, index: i });
      for (const s of t.spans) {
        for (const v of [s.input, s.output]) {
          if (v === null) continue;
          const n = JSON.stringify(v).length;
          expect(n).toBeGreaterThanOrEqual(90);
          expect(n).toBeLessThanOrEqual(2048 * 1.1);
        }
      }
      bytes += JSON.stringify(t).length;
    }
    expect(bytes).toBeGreaterThan(2e6);
    expect(bytes).toBeLessThan(10e6);
  });

  it('is valid for the API: required fields, enums, ISO dates', () => {
    const t = generateTrace({ seed: 5, index: 99 });
    expect(t.id).toMatch(/^[0-9a-f]{32}$/);
    expect(['RUNNING', 'COMPLETED', 'ERROR']).toContain(t.status);
    expect(new Date(t.startedAt).toISOString()).toBe(t.startedAt);
    expect(Array.isArray(t.tags)).toBe(true);
    for (const d of t.decisionPoints) expect(Array.isArray(d.alternatives)).toBe(true);
  });

  it('spreads statuses, sessions and names so every list filter has matches', () => {
    const traces = Array.from({ length: 2000 }, (_, i) => generateTrace({ seed: 2, index: i, shape: LIST_SEED_SHAPE }));
    const share = (f: (t: (typeof traces)[number]) => boolean) => traces.filter(f).length / traces.length;
    expect(share((t) => t.status === 'ERROR')).toBeGreaterThan(0.05);
    expect(share((t) => t.status === 'RUNNING')).toBeGreaterThan(0.02);
    expect(share((t) => t.name.toLowerCase().includes(SEARCH_TERM.toLowerCase()))).toBeGreaterThan(0.02);
    expect(share((t) => t.name.toLowerCase().includes(SEARCH_TERM.toLowerCase()))).toBeLessThan(0.08);
    // Newer index, newer trace.
    expect(traces[1999].startedAt > traces[0].startedAt).toBe(true);
  });
});
