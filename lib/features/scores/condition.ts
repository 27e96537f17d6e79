// The trace list's score filter, `score.<name>=<condition>`, read the same way by the API
// (lib/features/query/filters.ts) and the browser (lib/client/list-filters.ts). Safe for client
// components: no server code.
import { SCORE_LIMITS } from './limits';

/** At most this many `score.<name>` filters in one request. */
export const MAX_SCORE_FILTERS = 10;
export const SCORE_FILTER_PREFIX = 'score.';

export const SCORE_COMPARISONS = ['>=', '<=', '>', '<'] as const;
export type ScoreComparison = (typeof SCORE_COMPARISONS)[number];

/**
 * - `any`: the trace has a score of that name (`*`);
 * - `compare`: the trace's average of that name (NUMERIC, and BOOLEAN as 1 and 0: what the
 *   list's score column shows) compares so with the number (`>=0.8`);
 * - `equals`: some score of that name is that value: the category, the number, or the
 *   boolean `true`/`false` (`friendly`, `5`, `true`; a leading `=` makes the rest literal).
 */
export type ScoreCondition =
  | { kind: 'any' }
  | { kind: 'compare'; op: ScoreComparison; value: number }
  | { kind: 'equals'; text: string };

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A number as a filter writes it, or null (finite decimals only). */
export function scoreNumber(text: string): number | null {
  if (!NUMBER.test(text.trim())) return null;
  const n = Number(text.trim());
  return Number.isFinite(n) ? n : null;
}

/** Reads a condition; a sentence saying what is wrong otherwise. */
export function parseScoreCondition(text: string): ScoreCondition | { problem: string } {
  if (text === '*') return { kind: 'any' };
  if (text.startsWith('=')) return equals(text.slice(1));
  for (const op of SCORE_COMPARISONS) {
    if (!text.startsWith(op)) continue;
    const value = scoreNumber(text.slice(op.length));
    if (value === null) return { problem: `${op} must be followed by a number (e.g. ${op}0.5)` };
    return { kind: 'compare', op, value };
  }
  return equals(text);
}

function equals(text: string): ScoreCondition | { problem: string } {
  if (text === '') return { problem: 'needs a value after "="' };
  if (Array.from(text).length > SCORE_LIMITS.categoryLength) return { problem: `a value is at most ${SCORE_LIMITS.categoryLength} characters` };
  return { kind: 'equals', text };
}

/** How a condition reads in a chip: "≥ 0.8", "any", "= friendly". */
export function describeScoreCondition(text: string): string {
  const c = parseScoreCondition(text);
  if ('problem' in c) return text;
  if (c.kind === 'any') return 'any';
  if (c.kind === 'equals') return `= ${c.text}`;
  const sign = { '>=': '≥', '<=': '≤', '>': '>', '<': '<' }[c.op];
  return `avg ${sign} ${c.value}`;
}
