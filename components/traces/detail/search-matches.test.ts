import { describe, expect, it } from 'vitest';
import type { SearchMatch, TraceOutline } from '@/lib/features/traces/types';
import { buildModel } from './model';
import { labelMatches, matchRowKeys } from './search-matches';

const trace: TraceOutline = {
  id: 't1',
  name: 'Checkout',
  sessionId: null,
  userId: null,
  status: 'COMPLETED',
  tags: [],
  metadata: null,
  totalCost: null,
  totalTokens: null,
  totalDuration: null,
  unpricedCalls: 0,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  spans: [
    { id: 's1', parentSpanId: null, name: 'lookup_order', type: 'TOOL_CALL', tokenCount: null, costUsd: null, costSource: null, pricedModel: null, durationMs: 5, status: 'COMPLETED', statusMessage: null, startedAt: '2026-01-01T00:00:01.000Z', endedAt: null, model: null },
  ],
  decisionPoints: [
    { id: 'd1', traceId: 't1', type: 'ROUTING', reasoning: 'r', chosen: 'orders', alternatives: [], contextSnapshot: null, durationMs: null, costUsd: null, parentSpanId: 's1', timestamp: '2026-01-01T00:00:01.500Z', inferred: false },
  ],
  events: [
    { id: 'e1', traceId: 't1', spanId: 's1', type: 'CUSTOM', name: 'cache hit', metadata: null, timestamp: '2026-01-01T00:00:01.200Z' },
    { id: 'e2', traceId: 't1', spanId: null, type: 'CUSTOM', name: 'done', metadata: null, timestamp: '2026-01-01T00:00:03.000Z' },
  ],
};

const match = (kind: SearchMatch['kind'], id: string): SearchMatch => ({ kind, id, field: 'name', snippet: 'x' });

describe('in-trace search matches', () => {
  const model = buildModel(trace);

  it('names each place as the page does', () => {
    const labels = labelMatches(model, [match('trace', 't1'), match('span', 's1'), match('decision', 'd1'), match('event', 'e1'), match('span', 'gone')]);
    expect(labels.map((m) => m.label)).toEqual(['Checkout', 'lookup_order', 'Routing', 'cache hit', 'gone']);
  });

  it('marks the rows holding a match: spans, decisions, and the span of an event', () => {
    expect([...matchRowKeys(model, [match('span', 's1'), match('decision', 'd1')])]).toEqual(['s:s1', 'd:d1']);
    expect([...matchRowKeys(model, [match('event', 'e1'), match('event', 'e2'), match('trace', 't1')])]).toEqual(['s:s1']);
  });
});
