'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { evaluatorRequests } from '@/lib/client/evaluators';
import type { Experiment, ExperimentSummary } from '@/lib/features/experiments/shared';
import { errorText, secondaryButton, th, td } from '@/components/settings/styles';
import { Spinner } from '@/components/ui/states';
import { useCanCurate } from './CanCurate';
import { scoreNamesOf, summaryFigures } from './figures';

const MAX_COMPARED = 5;

/** "Run evaluators": queues the experiment's runs for its dataset's evaluators (each run scored once by each); the figures refresh as scores arrive. */
function RunEvaluators({ experimentId, name }: { experimentId: string; name: string }) {
  const router = useRouter();
  const run = useMutation({
    mutationFn: () => evaluatorRequests.runOnExperiment(experimentId),
    onSuccess: () => router.refresh(),
  });
  const said = run.data
    ? run.data.evaluators === 0
      ? 'No enabled evaluator scores this dataset\'s experiments.'
      : `${run.data.queued} evaluation${run.data.queued === 1 ? '' : 's'} queued (${run.data.evaluators} evaluator${run.data.evaluators === 1 ? '' : 's'}).`
    : null;
  return (
    <span className="flex flex-col items-start gap-1">
      <button type="button" className={`${secondaryButton} h-7 px-2 text-xs`} aria-label={`Run evaluators on ${name}`} disabled={run.isPending} onClick={() => run.mutate()}>
        {run.isPending && <Spinner />}
        Run evaluators
      </button>
      {said && (
        <span className="text-xs text-muted" role="status">
          {said}
        </span>
      )}
      {run.error && <span className={`${errorText} text-xs`}>{run.error.message}</span>}
    </span>
  );
}

/** A dataset's experiments with their figures; two to five picked open side by side. */
export function ExperimentsTable({ experiments }: { experiments: Array<{ experiment: Experiment; summary: ExperimentSummary }> }) {
  const canCurate = useCanCurate();
  const [picked, setPicked] = useState<string[]>(() => experiments.slice(0, 2).map((e) => e.experiment.id));
  const toggle = (id: string) => setPicked((now) => (now.includes(id) ? now.filter((p) => p !== id) : [...now, id]));
  const scoreNames = scoreNamesOf(experiments.map((e) => e.summary));
  const figures = experiments[0] ? summaryFigures(experiments[0].summary, scoreNames).map((f) => f.label) : [];
  // Compared oldest first: the first is the baseline the others' deltas are against (the table lists newest first).
  const compared = experiments.map((e) => e.experiment.id).filter((id) => picked.includes(id)).reverse();
  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto rounded-lg border border-border">
        <table className="w-full min-w-[48rem] text-sm" data-testid="experiments-table">
          <thead className="bg-surface">
            <tr>
              <th className={th}>
                <span className="sr-only">Compare</span>
              </th>
              <th className={th}>Experiment</th>
              {figures.map((label) => (
                <th key={label} className={`${th} text-right`}>
                  {label}
                </th>
              ))}
              {/* Visible text: an sr-only span (absolutely placed) at the row's end would widen the page. */}
              {canCurate && <th className={th}>Evaluators</th>}
            </tr>
          </thead>
          <tbody>
            {experiments.map(({ experiment, summary }) => (
              <tr key={experiment.id} className="border-t border-border" data-experiment={experiment.name}>
                <td className={td}>
                  <input
                    type="checkbox"
                    aria-label={`Compare ${experiment.name}`}
                    checked={picked.includes(experiment.id)}
                    disabled={!picked.includes(experiment.id) && picked.length >= MAX_COMPARED}
                    onChange={() => toggle(experiment.id)}
                  />
                </td>
                <td className={td}>
                  <span className="font-medium">{experiment.name}</span>
                  {experiment.metadata !== null && (
                    <code className="ml-2 font-mono text-xs break-all text-muted">{JSON.stringify(experiment.metadata).slice(0, 80)}</code>
                  )}
                </td>
                {summaryFigures(summary, scoreNames).map((f) => (
                  <td key={f.key} className={`${td} text-right tabular`}>
                    {f.text}
                  </td>
                ))}
                {canCurate && (
                  <td className={td}>
                    <RunEvaluators experimentId={experiment.id} name={experiment.name} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex items-center gap-3 text-sm">
        {picked.length >= 2 ? (
          <Link href={`/experiments/compare?ids=${compared.map(encodeURIComponent).join(',')}`} className="font-medium text-accent hover:underline" data-testid="compare-experiments">
            Compare {picked.length} experiments item by item →
          </Link>
        ) : (
          <span className="text-muted">Pick two to five experiments to compare them.</span>
        )}
      </div>
    </div>
  );
}
