import { describe, expect, it } from 'vitest';
import type { TraceDetail } from '@/lib/traces/types';
import { findSearchMatches, snippetAround } from './search-matches';

const trace: TraceDetail = {
  id: 't1',
  name: 'Checkout',
  sessionId: null,
  userId: null,
  status: 'COMPLETED',
  tags: [],
  metadata: { customer: 'Müller' },
  totalCost: null,
  totalTokens: null,
  totalDuration: null,
  unpricedCalls: 0,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  spans: [
    { id: 's2', traceId: 't1', parentSpanId: null, name: 'later', type: 'CUSTOM', input: null, output: { order: 'ORD-1' }, tokenCount: null, costUsd: null, costSource: null, pricedModel: null, durationMs: null, status: 'COMPLETED', statusMessage: null, startedAt: '2026-01-01T00:00:02.000Z', endedAt: null, metadata: null },
    { id: 's1', traceId: 't1', parentSpanId: null, name: 'first', type: 'CUSTOM', input: 'say "hi" to ORD-1', output: null, tokenCount: null, costUsd: null, costSource: null, pricedModel: null, durationMs: null, status: 'ERROR', statusMessage: 'Zeitüberschreitung', startedAt: '2026-01-01T00:00:01.000Z', endedAt: null, metadata: null },
  ],
  decisionPoints: [
    { id: 'd1', traceId: 't1', type: 'ROUTING', reasoning: '注文番号 lookup', chosen: { route: 'orders' }, alternatives: ['faq'], contextSnapshot: null, durationMs: null, costUsd: null, parentSpanId: null, timestamp: '2026-01-01T00:00:00.500Z', inferred: false },
  ],
  events: [{ id: 'e1', traceId: 't1', spanId: null, type: 'CUSTOM', name: 'done 🎉', metadata: null, timestamp: '2026-01-01T00:00:03.000Z' }],
};

const where = (q: string) => findSearchMatches(trace, q).map((m) => `${m.kind}:${m.id}:${m.field}`);

describe('findSearchMatches', () => {
  it('finds the term in every kind of field, in the server order, case-insensitively', () => {
    expect(where('ord-1')).toEqual(['span:s1:input', 'span:s2:output']);
    expect(where('MÜLLER')).toEqual(['trace:t1:metadata']);
    expect(where('zeitüber')).toEqual(['span:s1:statusMessage']);
    expect(where('番号')).toEqual(['decision:d1:reasoning']);
    expect(where('orders')).toEqual(['decision:d1:chosen']);
    expect(where('faq')).toEqual(['decision:d1:alternatives']);
    expect(where('🎉')).toEqual(['event:e1:name']);
    expect(where('"hi"')).toEqual(['span:s1:input']);
    expect(where('absent')).toEqual([]);
  });

  it('orders spans by start time whatever their order in the trace', () => {
    expect(findSearchMatches(trace, 'ORD-1')[0].id).toBe('s1');
    expect(where('first')).toEqual(['span:s1:name']);
    expect(where('i')[0]).toBe('span:s1:name');
  });
});

describe('snippetAround', () => {
  it('keeps a window around the match and marks the cuts', () => {
    expect(snippetAround(`${'a'.repeat(100)}NEEDLE${'b'.repeat(100)}`, 'needle', 5, 5)).toBe('…aaaaaNEEDLEbbbbb…');
    expect(snippetAround('short needle', 'needle')).toBe('short needle');
  });
});
