import Link from 'next/link';
import { HydrationMarker } from '@/components/ui/HydrationMarker';
import { formatCost, formatDuration, plural } from '@/lib/core/format';
import type { CompareRun, ExperimentComparison } from '@/lib/features/experiments/shared';
import { StatusBadge } from '@/components/ui/badges';
import { scoreNamesOf, summaryFigures } from './figures';


const text = (value: unknown) => {
  if (value === null || value === undefined) return '—';
  const t = typeof value === 'string' ? value : JSON.stringify(value);
  return t.length > 240 ? `${t.slice(0, 239)}…` : t;
};

/** A figure against the first experiment's: better (green) or worse (red), by which way is good. */
function Delta({ value, base, better }: { value: number | null; base: number | null; better: 'higher' | 'lower' }) {
  if (value === null || base === null || value === base) return null;
  const up = value > base;
  const good = up === (better === 'higher');
  return (
    <span className={`relative ml-1 text-xs font-medium ${good ? 'text-green-800 dark:text-green-300' : 'text-red-800 dark:text-red-300'}`} data-delta={good ? 'better' : 'worse'}>
      {up ? '▲' : '▼'}
      <span className="sr-only">{good ? ' better' : ' worse'}</span>
    </span>
  );
}

function RunCell({ run }: { run: CompareRun | undefined }) {
  if (!run) return <span className="text-muted">not run</span>;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={run.status} />
        <Link href={`/traces/${encodeURIComponent(run.traceId)}`} className="text-xs text-accent hover:underline">
          trace
        </Link>
        <span className="text-xs text-muted tabular">
          {formatCost(run.costUsd)} · {formatDuration(run.durationMs)}
        </span>
      </div>
      <p className="font-mono text-xs break-words">{text(run.output)}</p>
      {Object.keys(run.scores).length > 0 && (
        <p className="text-xs text-muted">
          {Object.entries(run.scores)
            .map(([name, value]) => `${name}: ${value}`)
            .join(' · ')}
        </p>
      )}
      {run.path.length > 0 && <p className="text-xs text-muted break-words">path: {run.path.join(' → ')}</p>}
    </div>
  );
}

/**
 * Experiments of one dataset side by side: their figures (deltas against the first), then
 * a row per item with each run's outcome, output, scores, cost and duration, and where the
 * runs chose differently, a link to the two traces' decision paths at the first difference.
 */
export function CompareExperimentsView({ comparison, ids, onlyDifferent }: { comparison: ExperimentComparison; ids: string; onlyDifferent: boolean }) {
  const { experiments, items } = comparison;
  const base = experiments[0];
  const scoreNames = scoreNamesOf(experiments.map((e) => e.summary));
  const toggle = `/experiments/compare?ids=${encodeURIComponent(ids)}${onlyDifferent ? '' : '&onlyDifferent=true'}`;
  return (
    <div className="flex flex-col gap-4">
      <HydrationMarker view="experiments-compare" />
      <div>
        <Link href={`/datasets/${encodeURIComponent(base.experiment.dataset)}`} className="text-sm text-accent hover:underline">
          ← Dataset {base.experiment.dataset}
        </Link>
        <h1 className="mt-1 text-xl font-semibold tracking-tight">Compare experiments</h1>
      </div>
      <div className="overflow-x-auto rounded-lg border border-border">
        <table className="w-full min-w-[40rem] text-sm" data-testid="compare-summary-table">
          <thead className="bg-surface">
            <tr>
              <th className="px-3 py-2 text-left text-xs font-medium text-muted">Experiment</th>
              {summaryFigures(base.summary, scoreNames).map((f) => (
                <th key={f.key} className="px-3 py-2 text-right text-xs font-medium text-muted">
                  {f.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {experiments.map(({ experiment, summary }) => {
              const baseFigures = summaryFigures(base.summary, scoreNames);
              return (
                <tr key={experiment.id} className="border-t border-border" data-experiment={experiment.name}>
                  <td className="px-3 py-2 font-medium">{experiment.name}</td>
                  {summaryFigures(summary, scoreNames).map((f, i) => (
                    <td key={f.key} className="px-3 py-2 text-right tabular">
                      {f.text}
                      {experiment.id !== base.experiment.id && <Delta value={f.value} base={baseFigures[i].value} better={f.better} />}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-muted" data-testid="compare-items-count">
          {plural(comparison.total, 'item')}
          {onlyDifferent ? ' where the runs differ' : ''}
        </span>
        <Link href={toggle} className="text-accent hover:underline">
          {onlyDifferent ? 'Show every item' : 'Only items where the runs differ'}
        </Link>
      </div>
      <ul className="flex flex-col gap-3" data-testid="compare-items">
        {items.map((item) => {
          const byExperiment = new Map(item.runs.map((r) => [r.experimentId, r]));
          const parted = item.firstDifference?.choices.filter((c) => byExperiment.has(c.experimentId)) ?? [];
          const a = parted[0] && byExperiment.get(parted[0].experimentId);
          const b = parted.find((c) => c.label !== parted[0]?.label);
          const other = b && byExperiment.get(b.experimentId);
          return (
            <li key={item.itemId} className="rounded-lg border border-border" data-compare-item={item.itemId}>
              <div className="flex flex-wrap items-start gap-3 border-b border-border bg-surface px-3 py-2 text-sm">
                <code className="font-mono text-xs">{item.itemId}</code>
                <span className="min-w-0 flex-1 font-mono text-xs break-words">{text(item.input)}</span>
                {item.expectedOutput !== null && <span className="min-w-0 text-xs text-muted break-words">expected: {text(item.expectedOutput)}</span>}
                {item.decisionsDiffer && a && other && (
                  <Link
                    href={`/traces/compare?a=${encodeURIComponent(a.traceId)}&b=${encodeURIComponent(other.traceId)}`}
                    className="rounded-full border border-amber-400 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-950 hover:underline dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100"
                    data-testid="chose-differently"
                    title={`At decision ${item.firstDifference!.position + 1}: ${item.firstDifference!.choices.map((c) => c.label ?? '(none)').join(' vs ')}`}
                  >
                    chose differently at decision {item.firstDifference!.position + 1}: {item.firstDifference!.choices.map((c) => c.label ?? '(none)').join(' vs ')}
                  </Link>
                )}
              </div>
              <div className="grid gap-3 p-3" style={{ gridTemplateColumns: `repeat(auto-fit, minmax(16rem, 1fr))` }}>
                {experiments.map(({ experiment }) => (
                  <div key={experiment.id} className="min-w-0">
                    <p className="mb-1 text-xs font-medium text-muted">{experiment.name}</p>
                    <RunCell run={byExperiment.get(experiment.id)} />
                  </div>
                ))}
              </div>
            </li>
          );
        })}
      </ul>
      {comparison.totalPages > 1 && (
        <p className="flex gap-3 text-sm text-muted">
          Page {comparison.page} of {comparison.totalPages}
          {comparison.page < comparison.totalPages && (
            <Link href={`/experiments/compare?ids=${encodeURIComponent(ids)}${onlyDifferent ? '&onlyDifferent=true' : ''}&page=${comparison.page + 1}`} className="text-accent hover:underline">
              Next →
            </Link>
          )}
        </p>
      )}
    </div>
  );
}
