// A trace's decision path and the forks between paths: pure, safe for client components.
//
// - A path is the trace's decision points in time order (timestamp, then the parent
//   span's start, a decision without a stored parent span after those with one, then id
//   by code units), each reduced to a step (type, option label of `chosen`); consecutive
//   equal steps collapse into one with `repeats`.
// - A fork is a position where traces sharing the same steps before it (repeats included)
//   chose different options; an option there is (type, label), whatever its repeats.
// lib/features/query/path-sql.ts computes the same paths in SQL for the fleet; a test keeps them equal.
import { optionLabel } from '@/lib/features/insights/shared';
import type { DecisionType, JsonValue } from '@/lib/features/traces/shared';

export interface Step {
  type: DecisionType;
  label: string;
  repeats: number;
}

/** What a decision point contributes to its trace's path. */
export interface PathDecision {
  id: string;
  type: DecisionType;
  chosen: JsonValue | null;
  timestamp: Date | string;
  /** The start of the span it was recorded under, when that span is stored. */
  parentStartedAt?: Date | string | null;
}

const time = (value: Date | string | null | undefined): number | null =>
  value === null || value === undefined ? null : new Date(value).getTime();

/** Path order: timestamp, parent span's start (missing last), then id by code units. */
export function comparePathOrder(a: PathDecision, b: PathDecision): number {
  const byTime = time(a.timestamp)! - time(b.timestamp)!;
  if (byTime !== 0) return byTime;
  const pa = time(a.parentStartedAt);
  const pb = time(b.parentStartedAt);
  if (pa !== pb) {
    if (pa === null) return 1;
    if (pb === null) return -1;
    return pa - pb;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Consecutive equal (type, label) steps as one, with how many there were. */
export function collapseSteps(steps: ReadonlyArray<{ type: DecisionType; label: string }>): Step[] {
  const collapsed: Step[] = [];
  for (const { type, label } of steps) {
    const last = collapsed[collapsed.length - 1];
    if (last && last.type === type && last.label === label) last.repeats += 1;
    else collapsed.push({ type, label, repeats: 1 });
  }
  return collapsed;
}

/** The trace's path: its decisions in path order, labelled and collapsed. */
export function pathOf(decisions: readonly PathDecision[]): Step[] {
  const ordered = [...decisions].sort(comparePathOrder);
  return collapseSteps(ordered.map((d) => ({ type: d.type, label: optionLabel(d.chosen ?? null) })));
}

export const sameOption = (a: { type: string; label: string }, b: { type: string; label: string }): boolean =>
  a.type === b.type && a.label === b.label;

export const sameStep = (a: Step, b: Step): boolean => sameOption(a, b) && a.repeats === b.repeats;

/** How a path reads in orderings and ties: `type:label×repeats` joined with `>`. */
export function pathText(steps: readonly Step[]): string {
  return steps.map((s) => `${s.type}:${s.label}×${s.repeats}`).join('>');
}

/**
 * The canonical text a path's id is the MD5 of (also computed in SQL): each step as
 * type, label and repeats separated by U+001F, steps separated by U+001E. A label holding
 * those control characters could make two paths share an id; option labels do not.
 */
export function pathKey(steps: readonly Step[]): string {
  return steps.map((s) => `${s.type}\u001f${s.label}\u001f${s.repeats}`).join('\u001e');
}

/** The key of a fork: the prefix's path key after U+001D (so it never equals a path's). */
export function forkKey(prefix: readonly Step[]): string {
  return `\u001d${pathKey(prefix)}`;
}

/** Where two paths first differ (a different step, a different repeat count, or one ends), or null when equal. */
export function firstDifference(a: readonly Step[], b: readonly Step[]): number | null {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) if (!sameStep(a[i], b[i])) return i;
  return a.length === b.length ? null : shared;
}

/** How many leading steps two paths share exactly. */
export function sharedPrefixLength(a: readonly Step[], b: readonly Step[]): number {
  return firstDifference(a, b) ?? a.length;
}

export interface Outcomes {
  COMPLETED: number;
  ERROR: number;
  RUNNING: number;
}

export const noOutcomes = (): Outcomes => ({ COMPLETED: 0, ERROR: 0, RUNNING: 0 });

/** ERROR among ended traces (COMPLETED or ERROR); null when none ended. */
export function errorShare(o: Outcomes): number | null {
  const ended = o.COMPLETED + o.ERROR;
  return ended === 0 ? null : o.ERROR / ended;
}

const traceCount = (o: Outcomes): number => o.COMPLETED + o.ERROR + o.RUNNING;

/** One option chosen at a fork, with the figures of the traces that chose it. */
export interface ForkOption {
  /** The fork's key (forkKey of its prefix); the same for every option at the fork. */
  key: string;
  position: number;
  prefix: Step[];
  type: DecisionType;
  label: string;
  traces: number;
  errorTraceShareWhenChosen: number | null;
  forkErrorTraceShare: number | null;
}

/**
 * Every option chosen at a fork (a prefix after which at least two options were chosen),
 * from paths with their traces' outcomes; ranked by |share when chosen − fork's share|
 * descending (an unknown share counts as no difference), then traces descending, then
 * label (then type and fork, for a stable order).
 */
export function forksOf(paths: ReadonlyArray<{ steps: readonly Step[]; outcomes: Outcomes }>): ForkOption[] {
  interface Fork {
    prefix: Step[];
    options: Map<string, { type: DecisionType; label: string; outcomes: Outcomes }>;
  }
  const forks = new Map<string, Fork>();
  for (const { steps, outcomes } of paths) {
    for (let position = 0; position < steps.length; position++) {
      const key = forkKey(steps.slice(0, position));
      let fork = forks.get(key);
      if (!fork) forks.set(key, (fork = { prefix: steps.slice(0, position).map((s) => ({ ...s })), options: new Map() }));
      const step = steps[position];
      const optionKey = `${step.type}\u001f${step.label}`;
      let option = fork.options.get(optionKey);
      if (!option) fork.options.set(optionKey, (option = { type: step.type, label: step.label, outcomes: noOutcomes() }));
      option.outcomes.COMPLETED += outcomes.COMPLETED;
      option.outcomes.ERROR += outcomes.ERROR;
      option.outcomes.RUNNING += outcomes.RUNNING;
    }
  }
  const result: ForkOption[] = [];
  for (const [key, fork] of forks) {
    if (fork.options.size < 2) continue;
    const all = noOutcomes();
    for (const { outcomes } of fork.options.values()) {
      all.COMPLETED += outcomes.COMPLETED;
      all.ERROR += outcomes.ERROR;
      all.RUNNING += outcomes.RUNNING;
    }
    const forkShare = errorShare(all);
    for (const option of fork.options.values()) {
      result.push({
        key,
        position: fork.prefix.length,
        prefix: fork.prefix,
        type: option.type,
        label: option.label,
        traces: traceCount(option.outcomes),
        errorTraceShareWhenChosen: errorShare(option.outcomes),
        forkErrorTraceShare: forkShare,
      });
    }
  }
  const gap = (f: ForkOption) =>
    f.errorTraceShareWhenChosen === null || f.forkErrorTraceShare === null ? 0 : Math.abs(f.errorTraceShareWhenChosen - f.forkErrorTraceShare);
  return result.sort(
    (a, b) =>
      gap(b) - gap(a) ||
      b.traces - a.traces ||
      (a.label < b.label ? -1 : a.label > b.label ? 1 : 0) ||
      (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}
