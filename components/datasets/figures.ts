// How experiment figures read on the dataset and compare pages.
import { formatCost, formatDuration } from '@/lib/core/format';
import { formatShare as share } from '@/components/insights/theme';
import type { ExperimentSummary } from '@/lib/features/experiments/shared';


/** The summary's headline figures, in the order both pages show them. */
export function summaryFigures(s: ExperimentSummary): Array<{ key: string; label: string; text: string; value: number | null; better: 'higher' | 'lower' }> {
  return [
    { key: 'runs', label: 'Runs', text: `${s.runs} of ${s.items}`, value: s.runs, better: 'higher' },
    { key: 'errorRuns', label: 'Errors', text: String(s.errorRuns), value: s.errorRuns, better: 'lower' },
    { key: 'decisionMatch', label: 'Decisions as expected', text: `${share(s.decisionMatch.share)} (${s.decisionMatch.matched}/${s.decisionMatch.compared})`, value: s.decisionMatch.share, better: 'higher' },
    { key: 'passAt1', label: 'pass@1', text: share(s.repetitions.passAt1), value: s.repetitions.passAt1, better: 'higher' },
    { key: 'cost', label: 'Cost', text: formatCost(s.costUsd), value: s.costUsd, better: 'lower' },
    { key: 'p50', label: 'p50 duration', text: formatDuration(s.p50DurationMs), value: s.p50DurationMs, better: 'lower' },
  ];
}
