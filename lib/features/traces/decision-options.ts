// A decision's options as a reader compares them: the alternatives that were really not
// chosen (by option label, lib/features/insights/labels.ts, so a client that listed the chosen
// option among its alternatives never shows it as "not chosen"), each with the confidence
// the client gave it, and repeated decisions folded into groups. Pure, safe for client
// components.
import { optionLabel } from '@/lib/features/insights/shared';
import type { DecisionPointRecord, DecisionType, JsonValue } from './types';

/** The fields of an object option that hold its confidence, in priority order. */
export const CONFIDENCE_KEYS = ['score', 'confidence', 'probability'] as const;

/** The confidence an option carries: its own `score`, `confidence` or `probability` (a finite number), else null. */
export function optionConfidence(option: JsonValue | undefined): number | null {
  if (typeof option !== 'object' || option === null || Array.isArray(option)) return null;
  for (const key of CONFIDENCE_KEYS) {
    const value = Object.hasOwn(option, key) ? option[key] : undefined;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return null;
}

/** A confidence as people read it: 0.79 as `0.79`, 79 as `79`; a share shown with two decimals at most. */
export function formatConfidence(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

export interface NotChosenOption {
  value: JsonValue;
  label: string;
  confidence: number | null;
}

/**
 * The alternatives not chosen: each label once (the first occurrence), and never the
 * chosen option's label, whatever the client listed.
 */
export function notChosenOptions(decision: Pick<DecisionPointRecord, 'chosen' | 'alternatives'>): NotChosenOption[] {
  const chosen = optionLabel(decision.chosen);
  const seen = new Set<string>([chosen]);
  const out: NotChosenOption[] = [];
  for (const value of decision.alternatives) {
    const label = optionLabel(value);
    if (seen.has(label)) continue;
    seen.add(label);
    out.push({ value, label, confidence: optionConfidence(value) });
  }
  return out;
}

/**
 * The chosen option's confidence: its own field, else the confidence of an alternative
 * with the same label (clients often list every option with its score, the chosen one too).
 */
export function chosenConfidence(decision: Pick<DecisionPointRecord, 'chosen' | 'alternatives'>): number | null {
  const own = optionConfidence(decision.chosen);
  if (own !== null) return own;
  const chosen = optionLabel(decision.chosen);
  for (const value of decision.alternatives) {
    if (optionLabel(value) === chosen) {
      const c = optionConfidence(value);
      if (c !== null) return c;
    }
  }
  return null;
}

export interface DecisionGroup {
  /** `type` and chosen label: what makes decisions "the same" here. */
  key: string;
  type: DecisionType;
  chosenLabel: string;
  /** In the order given (the trace's, by time). */
  decisions: DecisionPointRecord[];
}

/**
 * Decisions folded by type and chosen option, each group where its first member was,
 * members in the order given. A decision that repeats fewer than `minRepeat` times stays a
 * group of its own per occurrence, so a short trace reads as it happened.
 */
export function groupDecisions(decisions: readonly DecisionPointRecord[], minRepeat = 3): DecisionGroup[] {
  const byKey = new Map<string, DecisionGroup>();
  const order: DecisionGroup[] = [];
  for (const d of decisions) {
    const chosenLabel = optionLabel(d.chosen);
    const key = `${d.type}\u0000${chosenLabel}`;
    let group = byKey.get(key);
    if (!group) {
      group = { key, type: d.type, chosenLabel, decisions: [] };
      byKey.set(key, group);
      order.push(group);
    }
    group.decisions.push(d);
  }
  const out: DecisionGroup[] = [];
  for (const group of order) {
    if (group.decisions.length >= minRepeat) out.push(group);
    else for (const d of group.decisions) out.push({ ...group, key: `${group.key}\u0000${d.id}`, decisions: [d] });
  }
  // Singles keep their own place in time rather than their first sibling's.
  const position = new Map(decisions.map((d, i) => [d, i]));
  return out.sort((a, b) => position.get(a.decisions[0])! - position.get(b.decisions[0])!);
}
