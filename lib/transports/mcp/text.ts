// How the tools write for a model: short lines, figures formatted as the viewer shows them,
// payloads as compact JSON cut at a length the caller chooses.
import 'server-only';
import { formatCost, formatDuration, formatTokens } from '@/lib/core/format';
import type { JsonValue } from '@/lib/core/json';
import type { Step } from '@/lib/features/paths/shared';

export { formatCost, formatDuration, formatTokens };

/** A payload as text, cut after maxChars characters; `cut` says whether anything was left out. */
export function payloadText(value: JsonValue | undefined, maxChars: number): { text: string; cut: boolean; length: number } {
  const whole = value === undefined || value === null ? 'null' : typeof value === 'string' ? value : JSON.stringify(value);
  if (whole.length <= maxChars) return { text: whole, cut: false, length: whole.length };
  return { text: `${whole.slice(0, maxChars)}… [cut at ${maxChars} of ${whole.length} characters]`, cut: true, length: whole.length };
}

/** A 0..1 share as a percentage, or "n/a". */
export function percent(share: number | null | undefined): string {
  return share === null || share === undefined ? 'n/a' : `${Math.round(share * 1000) / 10}%`;
}

export function stepText(step: Step): string {
  return `${step.type} ${step.label}${step.repeats > 1 ? ` ×${step.repeats}` : ''}`;
}

/** A path as numbered steps: "1. ROUTING billing > 2. TOOL_SELECTION search_kb". */
export function pathLine(steps: readonly Step[], first = 1): string {
  return steps.length === 0 ? '(no decisions)' : steps.map((s, i) => `${first + i}. ${stepText(s)}`).join(' > ');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
