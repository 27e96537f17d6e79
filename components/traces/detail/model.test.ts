import { describe, expect, it } from 'vitest';
import type { SpanRecord, TraceDetail } from '@/lib/features/traces/types';
import { buildModel, detailQuery, readSelection, readTab, selectionKey } from './model';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function span(id: string, extra: Partial<SpanRecord> = {}): SpanRecord {
  return {
    id,
    traceId: 't',
    parentSpanId: null,
    name: id,
    type: 'LLM_CALL',
    input: null,
    output: null,
    tokenCount: null,
    costUsd: null,
    costSource: null,
    pricedModel: null,
    durationMs: 100,
    status: 'COMPLETED',
    statusMessage: null,
    startedAt: at(0),
    endedAt: null,
    metadata: null,
    ...extra,
  };
}

function trace(extra: Partial<TraceDetail> = {}): TraceDetail {
  return {
    id: 't',
    name: 'trace',
    sessionId: null,
    userId: null,
    status: 'COMPLETED',
    tags: [],
    metadata: null,
    totalCost: null,
    totalTokens: null,
    totalDuration: null,
    unpricedCalls: 0,
    startedAt: at(0),
    endedAt: null,
    createdAt: at(0),
    decisionPoints: [],
    spans: [],
    events: [],
    ...extra,
  };
}

describe('totals', () => {
  it('uses the trace’s own totals when present', () => {
    const m = buildModel(
      trace({ totalCost: 1.5, totalTokens: 900, totalDuration: 2500, spans: [span('a', { costUsd: 9, tokenCount: 9 })] }),
    );
    expect(m.totals.cost).toEqual({ value: 1.5, source: 'trace' });
    expect(m.totals.tokens).toEqual({ value: 900, source: 'trace' });
    expect(m.totals.duration).toEqual({ value: 2500, source: 'trace' });
  });

  it('sums the spans when the trace has no totals, and says so', () => {
    const m = buildModel(
      trace({
        endedAt: at(1200),
        spans: [span('a', { costUsd: 0.25, tokenCount: 100 }), span('b', { costUsd: 0.5 }), span('c')],
      }),
    );
    expect(m.totals.cost).toEqual({ value: 0.75, source: 'spans' });
    expect(m.totals.tokens).toEqual({ value: 100, source: 'spans' });
    expect(m.totals.duration).toEqual({ value: 1200, source: 'timestamps' });
  });

  it('falls back to the spans’ extent, or nothing', () => {
    const m = buildModel(trace({ spans: [span('a', { startedAt: at(100), durationMs: 400 })] }));
    expect(m.totals.duration).toEqual({ value: 500, source: 'spans' });
    expect(m.totals.cost).toEqual({ value: null, source: 'none' });
    expect(buildModel(trace()).totals.duration).toEqual({ value: null, source: 'none' });
  });
});

describe('model', () => {
  const m = buildModel(
    trace({
      spans: [span('a'), span('b', { status: 'ERROR', parentSpanId: 'a', startedAt: at(10) })],
      decisionPoints: [
        {
          id: 'd',
          traceId: 't',
          type: 'ROUTING',
          inferred: false,
          reasoning: null,
          chosen: 'x',
          alternatives: [],
          contextSnapshot: null,
          durationMs: null,
          costUsd: null,
          parentSpanId: 'a',
          timestamp: at(20),
        },
      ],
      events: [
        { id: 'e1', traceId: 't', spanId: 'b', type: 'ERROR', name: 'boom', metadata: null, timestamp: at(30) },
        { id: 'e2', traceId: 't', spanId: null, type: 'CUSTOM', name: 'note', metadata: null, timestamp: at(40) },
      ],
    }),
  );

  it('indexes events and decisions by span, and lists the errors', () => {
    expect(m.eventsBySpan.get('b')?.map((e) => e.id)).toEqual(['e1']);
    expect(m.decisionsBySpan.get('a')?.map((d) => d.id)).toEqual(['d']);
    expect(m.errorKeys).toEqual(['s:b']);
    expect(m.decisionTypes).toEqual([['ROUTING', 1]]);
  });

  it('maps a selection to its tree row', () => {
    expect(selectionKey(m, { kind: 'span', id: 'a' })).toBe('s:a');
    expect(selectionKey(m, { kind: 'decision', id: 'd' })).toBe('d:d');
    expect(selectionKey(m, { kind: 'event', id: 'e1' })).toBe('s:b');
    expect(selectionKey(m, { kind: 'event', id: 'e2' })).toBeNull();
    expect(selectionKey(m, null)).toBeNull();
  });
});

describe('detail URL state', () => {
  it('reads and writes tab and selection', () => {
    expect(readSelection(new URLSearchParams('decision=d%201'))).toEqual({ kind: 'decision', id: 'd 1' });
    expect(readSelection(new URLSearchParams(''))).toBeNull();
    expect(readTab(new URLSearchParams('tab=events'))).toBe('events');
    expect(readTab(new URLSearchParams('tab=nope'))).toBe('timeline');
    expect(detailQuery('timeline', null)).toBe('');
    expect(detailQuery('decisions', { kind: 'span', id: 'a/b' })).toBe('?tab=decisions&span=a%2Fb');
  });
});
