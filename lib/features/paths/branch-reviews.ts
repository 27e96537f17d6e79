// Decision reviews placed on the path: each reviewed decision's step (position and prefix,
// folding as pathOf does) gives the fork and the option it judges. Pure, safe for clients.
import { optionLabel } from '@/lib/features/insights/shared';
import type { DecisionType } from '@/lib/features/traces/shared';
import { forkId } from './ids';
import { comparePathOrder, type PathDecision, type Step } from './steps';

export interface BranchReview {
  /** The fork (the steps before the reviewed decision's step). */
  forkId: string;
  type: DecisionType;
  label: string;
  /** Reviews of decisions that chose this option there, and those judged right. */
  reviewed: number;
  judgedRight: number;
}

/** Each decision's step index in its trace's collapsed path, and the path's steps. */
export function stepOfDecisions(decisions: readonly PathDecision[]): { steps: Step[]; stepOf: Map<string, number> } {
  const steps: Step[] = [];
  const stepOf = new Map<string, number>();
  for (const d of [...decisions].sort(comparePathOrder)) {
    const label = optionLabel(d.chosen ?? null);
    const last = steps[steps.length - 1];
    if (last && last.type === d.type && last.label === label) last.repeats += 1;
    else steps.push({ type: d.type, label, repeats: 1 });
    stepOf.set(d.id, steps.length - 1);
  }
  return { steps, stepOf };
}

/**
 * The reviews by branch: a review (score value 1 = right) counts for the option its decision
 * chose after its trace's steps before that decision's step. Reviews of decisions not
 * among the decisions given are ignored.
 */
export function branchReviewsOf(
  decisions: ReadonlyArray<PathDecision & { traceId: string }>,
  scores: ReadonlyArray<{ traceId: string; decisionPointId: string; value: number | null }>,
): BranchReview[] {
  const byTrace = new Map<string, PathDecision[]>();
  for (const d of decisions) {
    let list = byTrace.get(d.traceId);
    if (!list) byTrace.set(d.traceId, (list = []));
    list.push(d);
  }
  const scoresByTrace = new Map<string, Array<{ decisionPointId: string; value: number | null }>>();
  for (const s of scores) {
    let list = scoresByTrace.get(s.traceId);
    if (!list) scoresByTrace.set(s.traceId, (list = []));
    list.push(s);
  }
  const out = new Map<string, BranchReview>();
  for (const [traceId, reviews] of scoresByTrace) {
    const { steps, stepOf } = stepOfDecisions(byTrace.get(traceId) ?? []);
    for (const review of reviews) {
      const at = stepOf.get(review.decisionPointId);
      if (at === undefined) continue;
      const fork = forkId(steps.slice(0, at));
      const { type, label } = steps[at];
      const key = `${fork}\u001f${type}\u001f${label}`;
      let branch = out.get(key);
      if (!branch) out.set(key, (branch = { forkId: fork, type, label, reviewed: 0, judgedRight: 0 }));
      branch.reviewed += 1;
      if (review.value === 1) branch.judgedRight += 1;
    }
  }
  return [...out.values()].sort((a, b) => (a.forkId < b.forkId ? -1 : a.forkId > b.forkId ? 1 : a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

/** The judged-right share of an option at a fork, or null when none of its decisions was reviewed there. */
export function judgedRightShareOf(branches: readonly BranchReview[], fork: string, option: { type: DecisionType; label: string }): { share: number; reviewed: number } | null {
  const b = branches.find((x) => x.forkId === fork && x.type === option.type && x.label === option.label);
  return b && b.reviewed > 0 ? { share: b.judgedRight / b.reviewed, reviewed: b.reviewed } : null;
}
