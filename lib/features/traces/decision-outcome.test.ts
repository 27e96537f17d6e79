import { describe, expect, it } from 'vitest';
import type { JsonValue, SpanType } from './types';
import { decisionCallId, indexToolSpans, spanCallId, toolSpanOf, type OutcomeDecision, type OutcomeSpan } from './decision-outcome';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function span(id: string, parentSpanId: string | null, startMs: number, type: SpanType = 'TOOL_CALL', metadata: JsonValue = null, name = id): OutcomeSpan {
  return { id, parentSpanId, type, name, startedAt: at(startMs), status: 'COMPLETED', metadata };
}

function selection(chosen: JsonValue, parentSpanId: string | null, atMs: number, contextSnapshot: JsonValue = null): OutcomeDecision {
  return { type: 'TOOL_SELECTION', chosen, parentSpanId, timestamp: at(atMs), contextSnapshot };
}

describe('tool-call ids', () => {
  it('reads a decision’s from its context snapshot, then its chosen option', () => {
    expect(decisionCallId({ chosen: { tool: 'x', toolCallId: 'c2' }, contextSnapshot: { toolCallId: 'c1' } })).toBe('c1');
    expect(decisionCallId({ chosen: { tool: 'x', tool_call_id: 'c2' }, contextSnapshot: null })).toBe('c2');
    expect(decisionCallId({ chosen: 'x', contextSnapshot: { other: 1 } })).toBeNull();
  });

  it('reads a span’s from each convention’s attribute or plain metadata', () => {
    expect(spanCallId(span('a', null, 0, 'TOOL_CALL', { 'gen_ai.tool.call.id': 'g' }))).toBe('g');
    expect(spanCallId(span('a', null, 0, 'TOOL_CALL', { 'ai.toolCall.id': 'v' }))).toBe('v');
    expect(spanCallId(span('a', null, 0, 'TOOL_CALL', { toolCallId: 'm' }))).toBe('m');
    expect(spanCallId(span('a', null, 0, 'TOOL_CALL', { toolCallId: '' }))).toBeNull();
    expect(spanCallId(span('a', null, 0, 'TOOL_CALL'))).toBeNull();
  });
});

describe('toolSpanOf', () => {
  it('matches by tool-call id first, wherever the span sits', () => {
    const spans = [span('agent', null, 0, 'AGENT'), span('early', 'agent', 100), span('elsewhere', null, 50, 'TOOL_CALL', { 'gen_ai.tool.call.id': 'call-7' })];
    const index = indexToolSpans(spans);
    expect(toolSpanOf(selection({ tool: 'search' }, 'agent', 10, { toolCallId: 'call-7' }), index)?.id).toBe('elsewhere');
  });

  it('falls back to the next tool span under the same parent, not an earlier one nor one under another parent', () => {
    const spans = [
      span('agent', null, 0, 'AGENT'),
      span('before', 'agent', 50),
      span('other-parent', null, 110),
      span('next', 'agent', 120),
      span('later', 'agent', 400),
    ];
    const index = indexToolSpans(spans);
    expect(toolSpanOf(selection('anything', 'agent', 100), index)?.id).toBe('next');
    // An unknown call id does not stop the fallback.
    expect(toolSpanOf(selection('anything', 'agent', 100, { toolCallId: 'nope' }), index)?.id).toBe('next');
    // A span starting in the same millisecond counts as next.
    expect(toolSpanOf(selection('anything', 'agent', 400), index)?.id).toBe('later');
    expect(toolSpanOf(selection('anything', 'agent', 401), index)).toBeNull();
  });

  it('prefers the next span named like the chosen tool among the ones just after', () => {
    const spans = [span('agent', null, 0, 'AGENT'), span('calculator', 'agent', 110), span('web_search', 'agent', 120)];
    expect(toolSpanOf(selection({ tool: 'web_search' }, 'agent', 100), indexToolSpans(spans))?.id).toBe('web_search');
  });

  it('looks beside a model call for a decision made in it (an inferred tool selection)', () => {
    const spans = [span('agent', null, 0, 'AGENT'), span('llm', 'agent', 10, 'LLM_CALL'), span('tool', 'agent', 500), span('chain-tool', 'chain', 200)];
    const index = indexToolSpans(spans);
    expect(toolSpanOf(selection({ tool: 'tool' }, 'llm', 10), index)?.id).toBe('tool');
    // Not beside any other kind of span: a decision in a chain does not take its sibling's tool.
    const chainSpans = [span('agent', null, 0, 'AGENT'), span('chain', 'agent', 10, 'CHAIN'), span('sibling-tool', 'agent', 500)];
    expect(toolSpanOf(selection('x', 'chain', 10), indexToolSpans(chainSpans))).toBeNull();
  });

  it('answers only for tool selections, and for traces without tool spans', () => {
    const spans = [span('agent', null, 0, 'AGENT'), span('tool', 'agent', 100)];
    const index = indexToolSpans(spans);
    expect(toolSpanOf({ ...selection('x', 'agent', 10), type: 'ROUTING' }, index)).toBeNull();
    expect(toolSpanOf(selection('x', 'agent', 10), indexToolSpans([span('agent', null, 0, 'AGENT')]))).toBeNull();
    expect(toolSpanOf(selection('x', null, 10), indexToolSpans([span('root-tool', null, 20)]))?.id).toBe('root-tool');
  });
});
