// What a tool selection led to: the tool span that ran the chosen tool, found by the
// tool-call id both sides name, else by being the next tool span under the same parent
// (for a decision inferred from a model call, the model call's siblings: tools run beside
// the call that asked for them). Pure and safe for client components; index once per
// trace, then each lookup is a map read and a binary search.
import { optionLabel } from '@/lib/features/insights/shared';
import type { DecisionPointRecord, JsonValue, SpanRecord, SpanType } from './types';

/** What the matcher reads of a span (payloads may not be loaded: metadata is optional, and an outline's span carries its call id). */
export type OutcomeSpan = Pick<SpanRecord, 'id' | 'parentSpanId' | 'type' | 'name' | 'startedAt' | 'status'> & {
  metadata?: JsonValue;
  toolCallId?: string | null;
};

export type OutcomeDecision = Pick<DecisionPointRecord, 'type' | 'chosen' | 'contextSnapshot' | 'parentSpanId' | 'timestamp'>;

/** Where a tool call's id sits on a decision: its context snapshot (inferred decisions) or its chosen option. */
const DECISION_CALL_ID_KEYS = ['toolCallId', 'tool_call_id', 'callId', 'call_id'] as const;
/** Where a tool span names the call it ran: OpenTelemetry GenAI, Vercel AI SDK, OpenInference, or plain metadata. */
export const SPAN_CALL_ID_KEYS = ['gen_ai.tool.call.id', 'ai.toolCall.id', 'tool_call.id', 'toolCallId', 'tool_call_id', 'callId', 'call_id'] as const;

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function firstString(v: JsonValue | undefined, keys: readonly string[]): string | null {
  if (!isObject(v)) return null;
  for (const key of keys) {
    const value = Object.hasOwn(v, key) ? v[key] : undefined;
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** The tool-call id a decision names, or null. */
export function decisionCallId(d: Pick<DecisionPointRecord, 'chosen' | 'contextSnapshot'>): string | null {
  return firstString(d.contextSnapshot, DECISION_CALL_ID_KEYS) ?? firstString(d.chosen, DECISION_CALL_ID_KEYS);
}

/** The tool-call id a span ran, or null. */
export function spanCallId(s: OutcomeSpan): string | null {
  if (s.toolCallId !== undefined) return s.toolCallId;
  return firstString(s.metadata, SPAN_CALL_ID_KEYS);
}

const TOOL: SpanType = 'TOOL_CALL';

interface Timed<S> {
  span: S;
  t: number;
}

export interface ToolSpanIndex<S extends OutcomeSpan = OutcomeSpan> {
  byCallId: Map<string, S>;
  /** Tool spans by parent span id ('' for roots), by start time. */
  byParent: Map<string, Timed<S>[]>;
  /** Every span by id: a decision's parent and its parent's parent. */
  byId: Map<string, S>;
}

/** Indexes a trace's spans for toolSpanOf, O(n log n). */
export function indexToolSpans<S extends OutcomeSpan>(spans: readonly S[]): ToolSpanIndex<S> {
  const byCallId = new Map<string, S>();
  const byParent = new Map<string, Timed<S>[]>();
  const byId = new Map<string, S>();
  for (const s of spans) {
    if (!byId.has(s.id)) byId.set(s.id, s);
    if (s.type !== TOOL) continue;
    const callId = spanCallId(s);
    if (callId !== null && !byCallId.has(callId)) byCallId.set(callId, s);
    const t = Date.parse(s.startedAt);
    if (Number.isNaN(t)) continue;
    const key = s.parentSpanId ?? '';
    const list = byParent.get(key);
    if (list) list.push({ span: s, t });
    else byParent.set(key, [{ span: s, t }]);
  }
  for (const list of byParent.values()) list.sort((a, b) => a.t - b.t);
  return { byCallId, byParent, byId };
}

/** Index of the first entry starting at or after t. */
function firstAtOrAfter<S>(list: Timed<S>[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The next tool span under `parent` at or after t, preferring one named like the chosen
 * option (two tools picked in a row run in order, but an unrelated tool may start between).
 */
function nextUnder<S extends OutcomeSpan>(index: ToolSpanIndex<S>, parent: string, t: number, label: string): S | null {
  const list = index.byParent.get(parent);
  if (!list) return null;
  const from = firstAtOrAfter(list, t);
  if (from >= list.length) return null;
  const wanted = label.toLowerCase();
  // Bounded look-ahead: a same-named span far later belongs to a later decision.
  for (let i = from; i < Math.min(list.length, from + 8); i++) {
    if (list[i].span.name.toLowerCase().includes(wanted)) return list[i].span;
  }
  return list[from].span;
}

/**
 * The tool span a TOOL_SELECTION decision led to, or null (other decision types, or no
 * such span): the span naming the decision's tool-call id; else the next tool span under
 * the decision's parent; else, when the decision was made in a model call, the next tool
 * span beside that call.
 */
export function toolSpanOf<S extends OutcomeSpan>(decision: OutcomeDecision, index: ToolSpanIndex<S>): S | null {
  if (decision.type !== 'TOOL_SELECTION') return null;
  const callId = decisionCallId(decision);
  if (callId !== null) {
    const byId = index.byCallId.get(callId);
    if (byId) return byId;
  }
  const t = Date.parse(decision.timestamp);
  if (Number.isNaN(t)) return null;
  const label = optionLabel(decision.chosen);
  const parent = decision.parentSpanId;
  const under = nextUnder(index, parent ?? '', t, label);
  if (under) return under;
  const parentSpan = parent ? index.byId.get(parent) : undefined;
  if (parentSpan?.type === 'LLM_CALL') return nextUnder(index, parentSpan.parentSpanId ?? '', t, label);
  return null;
}
