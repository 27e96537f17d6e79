import { describe, expect, it } from 'vitest';
import type { DecisionPointRecord, EventRecord, SpanRecord } from './types';
import { axisTicks, barLayout, computeWindow, offsetOf, spanEnd, spanInterval, toPercent } from './timeline';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function span(startMs: number, extra: Partial<SpanRecord> = {}): SpanRecord {
  return {
    id: `s${startMs}`,
    traceId: 't',
    parentSpanId: null,
    name: 'x',
    type: 'LLM_CALL',
    input: null,
    output: null,
    tokenCount: null,
    costUsd: null,
    costSource: null,
    pricedModel: null,
    durationMs: null,
    status: 'COMPLETED',
    statusMessage: null,
    startedAt: at(startMs),
    endedAt: null,
    metadata: null,
    ...extra,
  };
}

const event = (ms: number): EventRecord => ({
  id: `e${ms}`,
  traceId: 't',
  spanId: null,
  type: 'CUSTOM',
  name: 'e',
  metadata: null,
  timestamp: at(ms),
});

const decision = (ms: number, durationMs: number | null = null): DecisionPointRecord => ({
  id: `d${ms}`,
  traceId: 't',
  type: 'ROUTING',
  inferred: false,
  reasoning: null,
  chosen: null,
  alternatives: [],
  contextSnapshot: null,
  durationMs,
  costUsd: null,
  parentSpanId: null,
  timestamp: at(ms),
});

const trace = (
  spans: SpanRecord[],
  extra: { endedAt?: string | null; decisionPoints?: DecisionPointRecord[]; events?: EventRecord[] } = {},
) => ({
  startedAt: at(0),
  endedAt: extra.endedAt ?? null,
  spans,
  decisionPoints: extra.decisionPoints ?? [],
  events: extra.events ?? [],
});

describe('spanEnd', () => {
  it('prefers endedAt, then startedAt + durationMs, else unknown', () => {
    expect(spanEnd(span(100, { endedAt: at(400), durationMs: 50 }))).toBe(T0 + 400);
    expect(spanEnd(span(100, { durationMs: 50 }))).toBe(T0 + 150);
    expect(spanEnd(span(100))).toBeNull();
    expect(spanEnd(span(100, { durationMs: -5 }))).toBeNull();
  });
});

describe('computeWindow', () => {
  it('covers the trace, its spans, decisions and events', () => {
    const w = computeWindow(
      trace([span(100, { durationMs: 900 })], {
        endedAt: at(500),
        decisionPoints: [decision(1200, 100)],
        events: [event(-50)],
      }),
    );
    expect(w.start).toBe(T0 - 50);
    expect(w.end).toBe(T0 + 1300);
    expect(w.duration).toBe(1350);
  });

  it('never has a zero duration', () => {
    const w = computeWindow(trace([]));
    expect(w.duration).toBe(1);
    expect(toPercent(w, w.start)).toBe(0);
  });

  it('ignores unparsable dates', () => {
    const w = computeWindow(trace([span(0, { startedAt: 'garbage', durationMs: 10 })], { events: [event(20)] }));
    expect(w.end).toBe(T0 + 20);
  });
});

describe('positions', () => {
  const w = computeWindow(trace([span(0, { durationMs: 1000 })]));

  it('scales an instant to percent of the window, clamped', () => {
    expect(toPercent(w, T0)).toBe(0);
    expect(toPercent(w, T0 + 250)).toBe(25);
    expect(toPercent(w, T0 + 1000)).toBe(100);
    expect(toPercent(w, T0 - 10)).toBe(0);
    expect(toPercent(w, T0 + 5000)).toBe(100);
  });

  it('lays out bars by start and duration', () => {
    expect(barLayout(w, T0 + 100, T0 + 600)).toEqual({ left: 10, width: 50 });
    expect(barLayout(w, T0 + 300, T0 + 300)).toEqual({ left: 30, width: 0 });
  });

  it('runs an open span to the end of the window', () => {
    const open = spanInterval(span(400, { status: 'RUNNING' }), w);
    expect(open).toEqual({ start: T0 + 400, end: T0 + 1000, open: true });
    const closed = spanInterval(span(400, { durationMs: 100 }), w);
    expect(closed).toEqual({ start: T0 + 400, end: T0 + 500, open: false });
  });

  it('gives offsets from the window start', () => {
    expect(offsetOf(w, at(250))).toBe(250);
    expect(offsetOf(w, null)).toBeNull();
  });
});

describe('axisTicks', () => {
  it('picks round steps', () => {
    expect(axisTicks(1000)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(axisTicks(1350)).toEqual([0, 500, 1000]);
    expect(axisTicks(12_000, 4)).toEqual([0, 5000, 10_000]);
    expect(axisTicks(1)).toEqual([0, 0.2, 0.4, 0.6000000000000001, 0.8, 1]);
    expect(axisTicks(0)).toEqual([0]);
  });

  it('stays small for any duration', () => {
    for (const d of [3, 17, 999, 86_400_000, 1e12]) {
      const ticks = axisTicks(d);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks.length).toBeLessThanOrEqual(11);
      expect(ticks[ticks.length - 1]).toBeLessThanOrEqual(d * (1 + 1e-9));
    }
  });
});

describe('scaling', () => {
  it('lays out 100,000 spans with every bar inside the window', () => {
    const n = 100_000;
    const spans = Array.from({ length: n }, (_, i) => span(i * 3, { durationMs: (i % 17) * 5 }));
    const input = trace(spans, { events: Array.from({ length: 1000 }, (_, i) => event(i * 7)) });
    const w = computeWindow(input);
    let min = Infinity;
    let max = -Infinity;
    for (const s of spans) {
      const iv = spanInterval(s, w);
      const bar = barLayout(w, iv.start, iv.end);
      min = Math.min(min, bar.left);
      max = Math.max(max, bar.left + bar.width);
    }
    expect(min).toBe(0);
    expect(max).toBeCloseTo(100, 6);
    let last = 0;
    for (let i = 0; i < n; i++) last = Math.max(last, i * 3 + (i % 17) * 5);
    expect(w.end).toBe(T0 + last);
  });

  it('keeps microsecond spans visible as positions within a day-long trace', () => {
    const w = computeWindow(trace([span(0, { durationMs: 86_400_000 })]));
    const bar = barLayout(w, T0 + 43_200_000, T0 + 43_200_001);
    expect(bar.left).toBeCloseTo(50, 6);
    expect(bar.width).toBeGreaterThan(0);
  });
});
