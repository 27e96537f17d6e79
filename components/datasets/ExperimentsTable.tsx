'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { Experiment, ExperimentSummary } from '@/lib/features/experiments/shared';
import { th, td } from '@/components/settings/styles';
import { summaryFigures } from './figures';

const MAX_COMPARED = 5;

/** A dataset's experiments with their figures; two to five picked open side by side. */
export function ExperimentsTable({ experiments }: { experiments: Array<{ experiment: Experiment; summary: ExperimentSummary }> }) {
  const [picked, setPicked] = useState<string[]>(() => experiments.slice(0, 2).map((e) => e.experiment.id));
  const toggle = (id: string) => setPicked((now) => (now.includes(id) ? now.filter((p) => p !== id) : [...now, id]));
  const figures = experiments[0] ? summaryFigures(experiments[0].summary).map((f) => f.label) : [];
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
                {summaryFigures(summary).map((f) => (
                  <td key={f.key} className={`${td} text-right tabular`}>
                    {f.text}
                  </td>
                ))}
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
