// One model call reported twice: OpenLLMetry instrumenting both LangChain and the
// provider's client sends a LangChain LLM span and, inside or beside it, the client's
// span for the same request, each with the same usage. Both are kept (each says
// something: the chain's view, the wire call); the inner or later one is marked with
// `metadata.duplicateOf` (the other's span id) so a trace's token and cost sums can
// leave it out. Pure: marks copies of the records, within one batch of a trace (the
// store applies the same rule across requests, lib/features/otlp/repeated-calls.ts).
import type { ModelUsage } from '@/lib/features/pricing/shared';
import type { JsonValue } from '@/lib/core/json';
import type { SpanInput } from '@/lib/features/ingest/shared';
import { requestModelOf, usageOf } from './tokens';

/** What the rule reads of a span: a mapped record, or a stored span's row. */
export type CallSpan = Pick<SpanInput, 'id' | 'parentSpanId' | 'type' | 'startedAt' | 'endedAt' | 'metadata'> & { usage?: ModelUsage | null };

/** The metadata key naming the span a model call repeats. */
export const DUPLICATE_OF = 'duplicateOf';

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Call {
  span: CallSpan;
  model: string;
  input: number | undefined;
  output: number | undefined;
}

function callOf(span: CallSpan): Call | undefined {
  if (span.type !== 'LLM_CALL' || !isObj(span.metadata)) return undefined;
  const model = requestModelOf(span.metadata);
  // The mapper already read the usage; a span from elsewhere has it in its metadata.
  const usage = span.usage ?? usageOf(span.metadata);
  // Without a model and a count there is nothing to tell one call from another.
  if (model === undefined || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  return { span, model, input: usage.inputTokens, output: usage.outputTokens };
}

const end = (span: CallSpan): number => (span.endedAt ?? span.startedAt).getTime();
const overlaps = (a: CallSpan, b: CallSpan): boolean =>
  a.startedAt.getTime() <= end(b) && b.startedAt.getTime() <= end(a);
const same = (a: Call, b: Call): boolean => a.model === b.model && a.input === b.input && a.output === b.output;
/** Start time, then span id: the later of two siblings is the copy. */
const later = (a: CallSpan, b: CallSpan): boolean =>
  a.startedAt.getTime() !== b.startedAt.getTime() ? a.startedAt > b.startedAt : a.id > b.id;

/**
 * The trace's spans with each repeated model call marked: an LLM_CALL span is a
 * duplicate of another LLM_CALL span of the batch that is its parent, or its sibling
 * started earlier (ties by id), when they overlap in time and have the same request model
 * and the same input and output token counts. A call reported three times is marked
 * twice; following `duplicateOf` always ends at an unmarked span (edges go up a level or
 * to an earlier sibling). Returns the same array when nothing is marked.
 */
export function markDuplicateCalls<T extends CallSpan>(spans: T[]): T[] {
  const calls = new Map<string, Call>();
  const byParent = new Map<string | null, Call[]>();
  for (const span of spans) {
    const call = callOf(span);
    if (!call) continue;
    calls.set(span.id, call);
    const siblings = byParent.get(span.parentSpanId);
    if (siblings) siblings.push(call);
    else byParent.set(span.parentSpanId, [call]);
  }
  if (calls.size < 2) return spans;
  const duplicateOf = new Map<string, string>();
  // The parent first: the inner call is the copy.
  for (const call of calls.values()) {
    const parent = call.span.parentSpanId === null ? undefined : calls.get(call.span.parentSpanId);
    if (parent && same(call, parent) && overlaps(call.span, parent.span)) duplicateOf.set(call.span.id, parent.span.id);
  }
  for (const siblings of byParent.values()) {
    if (siblings.length < 2) continue;
    const ordered = [...siblings].sort((a, b) => (later(a.span, b.span) ? 1 : -1));
    for (let i = 1; i < ordered.length; i++) {
      const call = ordered[i];
      if (duplicateOf.has(call.span.id)) continue;
      const earlier = ordered.slice(0, i).find((other) => same(call, other) && overlaps(call.span, other.span));
      if (earlier) duplicateOf.set(call.span.id, earlier.span.id);
    }
  }
  if (duplicateOf.size === 0) return spans;
  return spans.map((span) => {
    const original = duplicateOf.get(span.id);
    if (original === undefined) return span;
    return { ...span, metadata: { ...(span.metadata as Obj), [DUPLICATE_OF]: original } };
  });
}
