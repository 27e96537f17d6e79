// An experiment's figures, computed from its runs (record.ts runRows) and its dataset's
// items. Pure, so the summary and compare read the same rule.
import { expectedSteps, decisionsMatch } from './decision-match';
import type { ItemFacts } from './record';
import type { ExperimentSummary, PassCriterion, RunRow, ScoreFigure } from './types';

/** PostgreSQL's percentile_cont: linear interpolation between the closest ranks. */
export function percentileCont(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const at = p * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

const sum = (values: Array<number | null>): number | null => {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) : null;
};

/** Whether a criterion holds for a run's scores (the latest of a name when several). */
function holds(run: RunRow, criterion: PassCriterion): boolean {
  const score = run.scores.filter((s) => s.name === criterion.scoreName).at(-1);
  if (!score) return false;
  if (criterion.min !== undefined && !(score.value !== null && score.value >= criterion.min)) return false;
  if (criterion.equals !== undefined) {
    const expected = criterion.equals;
    if (typeof expected === 'string') return score.stringValue === expected;
    if (typeof expected === 'boolean') return score.value === (expected ? 1 : 0);
    return score.value === expected;
  }
  return true;
}

/** A run passes when it ended COMPLETED and every pass criterion holds. */
export function runPasses(run: RunRow, criteria: readonly PassCriterion[]): boolean {
  return run.status === 'COMPLETED' && criteria.every((c) => holds(run, c));
}

/** The run's decision path as steps for matching. */
export const runSteps = (run: RunRow) => run.steps.map((s) => ({ type: s.type, label: s.label }));

const pathKey = (run: RunRow) => JSON.stringify(run.steps);

export function summarize(runs: readonly RunRow[], items: readonly ItemFacts[], criteria: readonly PassCriterion[]): ExperimentSummary {
  const active = items.filter((i) => !i.archived);
  const byItem = new Map<string, RunRow[]>();
  for (const run of runs) byItem.set(run.itemId, [...(byItem.get(run.itemId) ?? []), run]);
  const expected = new Map(items.filter((i) => i.expectedDecisions?.length).map((i) => [i.id, expectedSteps(i.expectedDecisions!)]));

  const scores: Record<string, ScoreFigure> = {};
  const sums: Record<string, { total: number; n: number }> = {};
  for (const run of runs) {
    for (const s of run.scores) {
      scores[s.name] ??= { count: 0, average: null };
      scores[s.name].count += 1;
      if (s.value !== null) {
        sums[s.name] ??= { total: 0, n: 0 };
        sums[s.name].total += s.value;
        sums[s.name].n += 1;
      }
    }
  }
  for (const [name, { total, n }] of Object.entries(sums)) scores[name].average = total / n;

  let compared = 0;
  let matched = 0;
  for (const run of runs) {
    const steps = expected.get(run.itemId);
    if (!steps) continue;
    compared++;
    if (decisionsMatch(runSteps(run), steps)) matched++;
  }

  const withRuns = [...byItem.values()];
  const first = withRuns.map((rs) => rs.find((r) => r.repetition === 0)).filter((r): r is RunRow => !!r);
  const share = (n: number, of: number) => (of > 0 ? n / of : null);
  const durations = runs.map((r) => r.durationMs).filter((d): d is number => d !== null).sort((a, b) => a - b);
  const activeIds = new Set(active.map((i) => i.id));
  return {
    items: active.length,
    runs: runs.length,
    missing: active.filter((i) => !byItem.has(i.id)).length,
    errorRuns: runs.filter((r) => r.status === 'ERROR').length,
    costUsd: sum(runs.map((r) => r.costUsd)),
    tokens: sum(runs.map((r) => r.tokens)),
    p50DurationMs: percentileCont(durations, 0.5),
    p95DurationMs: percentileCont(durations, 0.95),
    scores,
    decisionMatch: { compared, matched, share: share(matched, compared) },
    repetitions: {
      k: Math.max(0, ...withRuns.map((rs) => rs.length)),
      passAt1: share(first.filter((r) => runPasses(r, criteria)).length, first.length),
      passAtK: share(withRuns.filter((rs) => rs.some((r) => runPasses(r, criteria))).length, withRuns.length),
      passHatK: share(withRuns.filter((rs) => rs.every((r) => runPasses(r, criteria))).length, withRuns.length),
      itemsWithDifferentPaths: withRuns.filter((rs) => activeIds.has(rs[0].itemId) && new Set(rs.map(pathKey)).size > 1).length,
    },
  };
}
