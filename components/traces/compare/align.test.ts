import { describe, expect, it } from 'vitest';
import type { Step } from '@/lib/features/paths/steps';
import type { SpanRecord } from '@/lib/features/traces/types';
import { alignPaths, alignSpans, elapsedMs, modelCallPairs, spanDifferences, spanRows } from './align';

const s = (label: string, repeats = 1): Step => ({ type: 'TOOL_SELECTION', label, repeats });

function span(id: string, name: string, start: number, extra: Partial<SpanRecord> = {}): SpanRecord {
  return {
    id, traceId: 't', parentSpanId: null, name, type: 'TOOL_CALL', input: null, output: null, tokenCount: null, costUsd: null,
    costSource: null, pricedModel: null, durationMs: 10, status: 'COMPLETED', statusMessage: null,
    startedAt: new Date(Date.UTC(2026, 0, 1) + start).toISOString(), endedAt: null, metadata: {}, ...extra,
  };
}

describe('alignPaths', () => {
  it('pairs steps by position and marks the first difference, repeats included', () => {
    const { rows, firstDifference } = alignPaths([s('a'), s('b', 2), s('c')], [s('a'), s('b', 3)]);
    expect(firstDifference).toBe(1);
    expect(rows.map((r) => r.same)).toEqual([true, false, false]);
    expect(rows[2]).toMatchObject({ a: s('c'), b: null });
  });
  it('has no difference for equal paths, and one at the end when a path is longer', () => {
    expect(alignPaths([s('a')], [s('a')]).firstDifference).toBeNull();
    expect(alignPaths([s('a')], [s('a'), s('b')]).firstDifference).toBe(1);
    expect(alignPaths([], []).rows).toEqual([]);
  });
});

describe('alignSpans', () => {
  it('pairs spans by name and occurrence in start order, then lists the second run’s unpaired ones', () => {
    const a = [span('a2', 'search', 20), span('a1', 'search', 10), span('a3', 'answer', 30)];
    const b = [span('b1', 'search', 5), span('b2', 'ask', 6)];
    const pairs = alignSpans(a, b);
    expect(pairs.map((p) => [p.name, p.occurrence, p.a?.id ?? null, p.b?.id ?? null])).toEqual([
      ['search', 0, 'a1', 'b1'],
      ['search', 1, 'a2', null],
      ['answer', 0, 'a3', null],
      ['ask', 0, null, 'b2'],
    ]);
  });
  it('names the fields that differ', () => {
    const [pair] = alignSpans([span('a', 'llm', 0, { status: 'ERROR', tokenCount: 5, costUsd: 0.1 })], [span('b', 'llm', 0, { tokenCount: 5, durationMs: 20, costUsd: 0.1 })]);
    expect(spanDifferences(pair)).toEqual(['status', 'duration']);
    expect(spanDifferences({ name: 'x', occurrence: 0, a: null, b: span('b', 'x', 0) })).toEqual(['missing']);
  });
  it('reads durations as endedAt − startedAt, not the reported durationMs', () => {
    const ended = span('a', 'x', 0, { durationMs: 999, endedAt: new Date(Date.UTC(2026, 0, 1) + 250).toISOString() });
    expect(elapsedMs(ended)).toBe(250);
    expect(elapsedMs(span('b', 'x', 0, { durationMs: 40 }))).toBe(40);
    expect(elapsedMs(span('c', 'x', 0, { durationMs: null }))).toBeNull();
    const [pair] = alignSpans([ended], [span('b', 'x', 0, { durationMs: 5, endedAt: ended.endedAt })]);
    expect(spanDifferences(pair)).toEqual([]);
  });
});

describe('spanRows and modelCallPairs', () => {
  it('writes each pair as one row of "A / B" figures, marking the differing fields and the run that alone has a span', () => {
    const a = [span('a1', 'llm', 0, { type: 'LLM_CALL', tokenCount: 1200, costUsd: 0.5 }), span('a2', 'search', 5, { status: 'ERROR' })];
    const b = [span('b1', 'llm', 0, { type: 'LLM_CALL', tokenCount: 900, costUsd: 0.5 })];
    const pairs = alignSpans(a, b);
    expect(spanRows(pairs)).toEqual([
      ['llm', 0, 'LLM_CALL', '', 'tokens', 'Completed / Completed', '10 ms / 10 ms', '1,200 / 900', '$0.50 / $0.50'],
      ['search', 0, 'TOOL_CALL', 'A', 'missing', 'Error / —', '10 ms / —', '— / —', '— / —'],
    ]);
    expect(modelCallPairs(pairs)).toEqual([{ name: 'llm', occurrence: 0, a: 'a1', b: 'b1' }]);
  });
});
