// The review queue's pure helpers, safe for the browser.
import type { DecisionPointRecord, SpanSummary } from '@/lib/features/traces/shared';

/**
 * What the reviewer reads as the conversation so far: the model call the agent had last
 * before deciding (its parent span when that is a model call, else the latest model call
 * started by the decision's time), whose input is the conversation; else, when no model
 * call precedes, the run's input: its root span's (no parent, the first by start, as the
 * list's and the sessions' input is); null for a run without spans.
 */
export type ConversationSource = { kind: 'model-call'; span: SpanSummary } | { kind: 'run-input'; span: SpanSummary };

export function conversationSource(decision: Pick<DecisionPointRecord, 'parentSpanId' | 'timestamp'>, spans: readonly SpanSummary[]): ConversationSource | null {
  const parent = spans.find((s) => s.id === decision.parentSpanId);
  if (parent?.type === 'LLM_CALL') return { kind: 'model-call', span: parent };
  let call: SpanSummary | null = null;
  let root: SpanSummary | null = null;
  for (const s of spans) {
    if (s.type === 'LLM_CALL' && s.startedAt <= decision.timestamp && (call === null || s.startedAt > call.startedAt)) call = s;
    if (s.parentSpanId === null && (root === null || s.startedAt < root.startedAt || (s.startedAt === root.startedAt && s.id < root.id))) root = s;
  }
  if (call) return { kind: 'model-call', span: call };
  return root ? { kind: 'run-input', span: root } : null;
}
