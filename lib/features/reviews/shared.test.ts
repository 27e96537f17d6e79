import { describe, expect, it } from 'vitest';
import type { SpanSummary } from '@/lib/features/traces/shared';
import { conversationSource } from './shared';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
function span(id: string, type: SpanSummary['type'], start: number, parentSpanId: string | null = 'root'): SpanSummary {
  return {
    id, parentSpanId, name: id, type, tokenCount: null, costUsd: null, costSource: null, pricedModel: null,
    durationMs: null, status: 'COMPLETED', statusMessage: null, startedAt: at(start), endedAt: null,
  };
}

describe('conversationSource', () => {
  const root = span('root', 'AGENT', 0, null);
  it('is the parent model call, else the latest model call started by the decision', () => {
    const spans = [root, span('llm-1', 'LLM_CALL', 1), span('llm-2', 'LLM_CALL', 3), span('later', 'LLM_CALL', 9)];
    expect(conversationSource({ parentSpanId: 'llm-1', timestamp: at(5) }, spans)).toEqual({ kind: 'model-call', span: spans[1] });
    expect(conversationSource({ parentSpanId: 'root', timestamp: at(5) }, spans)).toEqual({ kind: 'model-call', span: spans[2] });
  });
  it("is the run's input, its root span's (the first by start), when no model call precedes", () => {
    const second = span('another-root', 'CHAIN', 2, null);
    const spans = [second, root, span('tool', 'TOOL_CALL', 1), span('later', 'LLM_CALL', 9)];
    expect(conversationSource({ parentSpanId: 'tool', timestamp: at(5) }, spans)).toEqual({ kind: 'run-input', span: root });
    expect(conversationSource({ parentSpanId: null, timestamp: at(5) }, [])).toBeNull();
  });
});
