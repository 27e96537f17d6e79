// How experiment figures read on the dataset and compare pages.
import { formatCost, formatDuration } from '@/lib/core/format';
import { formatShare as share } from '@/components/insights/theme';
import type { ExperimentSummary } from '@/lib/features/experiments/shared';


/** Every score name of these summaries, sorted: the columns each row fills (a name one lacks reads —). */
export function scoreNamesOf(summaries: readonly ExperimentSummary[]): string[] {
  return [...new Set(summaries.flatMap((s) => Object.keys(s.scores)))].sort();
}

/** The summary's headline figures, in the order both pages show them, then the average of each named score (evaluators' and people's). */
export function summaryFigures(s: ExperimentSummary, scoreNames: readonly string[] = []): Array<{ key: string; label: string; text: string; value: number | null; better: 'higher' | 'lower' }> {
  const scores = scoreNames.map((name) => {
    const figure = s.scores[name];
    const average = figure?.average ?? null;
    return { key: `score.${name}`, label: name, text: average === null ? (figure ? `${figure.count} scored` : '—') : String(Math.round(average * 100) / 100), value: average, better: 'higher' as const };
  });
  return [
    { key: 'runs', label: 'Runs', text: `${s.runs} of ${s.items}`, value: s.runs, better: 'higher' },
    { key: 'errorRuns', label: 'Errors', text: String(s.errorRuns), value: s.errorRuns, better: 'lower' },
    { key: 'decisionMatch', label: 'Decisions as expected', text: `${share(s.decisionMatch.share)} (${s.decisionMatch.matched}/${s.decisionMatch.compared})`, value: s.decisionMatch.share, better: 'higher' },
    { key: 'passAt1', label: 'pass@1', text: share(s.repetitions.passAt1), value: s.repetitions.passAt1, better: 'higher' },
    { key: 'cost', label: 'Cost', text: formatCost(s.costUsd), value: s.costUsd, better: 'lower' },
    { key: 'p50', label: 'p50 duration', text: formatDuration(s.p50DurationMs), value: s.p50DurationMs, better: 'lower' },
    ...scores,
  ];
}
