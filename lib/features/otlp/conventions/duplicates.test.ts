// OpenLLMetry instrumenting both LangChain and the provider's client reports each model
// call twice. The recorded pair is tested in map.fixtures.test.ts and repeated-calls.test.ts;
// these pairs, built by hand, cover the rule's edges: the chain's LLM span and the client's
// span inside or beside it.
import { describe, expect, it } from 'vitest';
import type { SpanInput } from '@/lib/features/ingest/validate';
import { markDuplicateCalls } from './duplicates';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
let n = 0;
function llm(fields: Partial<SpanInput> & { at?: number; ms?: number; attributes?: Record<string, string | number> } = {}): SpanInput {
  const { at = 0, ms = 100, attributes, ...rest } = fields;
  return {
    id: `span${++n}`,
    parentSpanId: null,
    name: 'chat gpt-4o',
    type: 'LLM_CALL',
    input: null,
    output: null,
    tokenCount: 15,
    costUsd: null,
    durationMs: ms,
    status: 'COMPLETED',
    statusMessage: null,
    startedAt: new Date(T0 + at),
    endedAt: new Date(T0 + at + ms),
    metadata: { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5, ...attributes },
    ...rest,
  };
}
const marks = (spans: SpanInput[]) => markDuplicateCalls(spans).map((s) => (s.metadata as Record<string, unknown>).duplicateOf ?? null);

describe('markDuplicateCalls', () => {
  it('marks the inner of a parent and child with the same model and usage', () => {
    const chain = llm({ name: 'ChatOpenAI.chat' });
    const client = llm({ name: 'openai.chat', parentSpanId: chain.id, at: 5, ms: 80 });
    expect(marks([chain, client])).toEqual([null, chain.id]);
  });

  it('marks the later of two overlapping siblings (ties by id)', () => {
    const a = llm({ parentSpanId: 'root' });
    const b = llm({ parentSpanId: 'root', at: 10 });
    expect(marks([b, a])).toEqual([a.id, null]);
    const c = llm({ parentSpanId: 'root' });
    const d = llm({ parentSpanId: 'root' });
    expect(marks([c, d])).toEqual([null, c.id]);
  });

  it('leaves calls that differ in model, usage or time, and spans that are not LLM calls', () => {
    const base = llm();
    expect(marks([base, llm({ parentSpanId: base.id, attributes: { 'gen_ai.request.model': 'gpt-4o-mini' } })])).toEqual([null, null]);
    expect(marks([base, llm({ parentSpanId: base.id, attributes: { 'gen_ai.usage.output_tokens': 6 } })])).toEqual([null, null]);
    expect(marks([base, llm({ parentSpanId: base.id, at: 500 })])).toEqual([null, null]);
    expect(marks([llm({ type: 'CHAIN' }), llm({ parentSpanId: `span${n}`, at: 1 })])).toEqual([null, null]);
    // No model or no usage: nothing to tell calls apart by.
    const bare = llm({ metadata: { 'gen_ai.usage.input_tokens': 10 } });
    expect(marks([bare, llm({ parentSpanId: bare.id, metadata: { 'gen_ai.usage.input_tokens': 10 } })])).toEqual([null, null]);
  });

  it('marks a call reported three times twice, each chain ending at the one that counts', () => {
    const outer = llm();
    const middle = llm({ parentSpanId: outer.id, at: 1 });
    const inner = llm({ parentSpanId: middle.id, at: 2 });
    expect(marks([outer, middle, inner])).toEqual([null, outer.id, middle.id]);
  });

  it('returns the same array, and never mutates a record, when nothing is marked', () => {
    const spans = [llm(), llm({ at: 1000 })];
    expect(markDuplicateCalls(spans)).toBe(spans);
    const parent = llm();
    const child = llm({ parentSpanId: parent.id });
    const before = structuredClone(child.metadata);
    markDuplicateCalls([parent, child]);
    expect(child.metadata).toEqual(before);
  });
});
