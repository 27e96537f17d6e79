// A run's decisions against its item's expected ones, by the rule the rest of Crossroads
// uses for paths: each decision is its chosen option's label (and type), consecutive equal
// steps fold into one. Pure, so summaries, compare and the expected_decisions evaluator agree.
import { optionLabel } from '@/lib/features/insights/shared';
import type { ExpectedDecision } from '@/lib/features/datasets/shared';

export interface PathStep {
  type?: string;
  label: string;
}

/** The expected decisions as path steps, consecutive equal ones folded. */
export function expectedSteps(expected: readonly ExpectedDecision[]): PathStep[] {
  const steps: PathStep[] = [];
  for (const d of expected) {
    const step: PathStep = { label: optionLabel(d.chosen), ...(d.type ? { type: d.type } : {}) };
    const last = steps.at(-1);
    if (last && last.label === step.label && last.type === step.type) continue;
    steps.push(step);
  }
  return steps;
}

const sameStep = (run: PathStep | undefined, expected: PathStep | undefined): boolean =>
  !!run && !!expected && run.label === expected.label && (expected.type === undefined || run.type === expected.type);

/** Positions where the run chose as expected, over the longer of the two paths, and the first that differs. */
export function matchDecisions(run: readonly PathStep[], expected: readonly PathStep[]): { matched: number; of: number; firstWrong: number | null } {
  const of = Math.max(run.length, expected.length);
  let matched = 0;
  let firstWrong: number | null = null;
  for (let i = 0; i < of; i++) {
    if (sameStep(run[i], expected[i])) matched++;
    else firstWrong ??= i;
  }
  return { matched, of, firstWrong };
}

/** Whether the run took exactly the expected decisions. */
export function decisionsMatch(run: readonly PathStep[], expected: readonly PathStep[]): boolean {
  return matchDecisions(run, expected).firstWrong === null;
}
