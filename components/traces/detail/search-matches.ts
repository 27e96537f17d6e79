// The places an in-trace search found (GET /api/traces/{id}/search), named as the page
// names them, and the tree rows they fall on. Pure.
import { decisionKey, spanKey } from '@/lib/features/traces/shared';
import type { SearchMatch } from '@/lib/features/traces/shared';
import { DECISION_LABEL } from '@/components/ui/badges';
import type { TraceModel } from './model';

export interface FoundMatch extends SearchMatch {
  /** The span's, decision's or event's name as the page shows it. */
  label: string;
}

export function labelMatches(model: TraceModel, matches: readonly SearchMatch[]): FoundMatch[] {
  return matches.map((m) => {
    let label = model.trace.name;
    if (m.kind === 'span') label = model.tree.spanById.get(m.id)?.span.name ?? m.id;
    else if (m.kind === 'decision') {
      const d = model.decisionById.get(m.id);
      label = d ? DECISION_LABEL[d.type] : m.id;
    } else if (m.kind === 'event') label = model.eventById.get(m.id)?.name ?? m.id;
    return { ...m, label };
  });
}

/** The tree rows holding a match: its span, or its decision point, or the span of its event. */
export function matchRowKeys(model: TraceModel, matches: readonly SearchMatch[]): Set<string> {
  const keys = new Set<string>();
  for (const m of matches) {
    if (m.kind === 'span') keys.add(spanKey(m.id));
    else if (m.kind === 'decision') keys.add(decisionKey(m.id));
    else if (m.kind === 'event') {
      const spanId = model.eventById.get(m.id)?.spanId;
      if (spanId) keys.add(spanKey(spanId));
    }
  }
  return keys;
}
