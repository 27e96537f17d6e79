import Link from 'next/link';
import { pathOf, type Step } from '@/lib/features/paths/shared';
import { formatCost, formatDuration, formatTokens } from '@/lib/core/format';
import { traceHref } from '@/lib/client/traces';
import type { TraceOutline } from '@/lib/features/traces/shared';
import { DECISION_LABEL, StatusBadge } from '@/components/ui/badges';
import { alignPaths, alignSpans, elapsedMs, modelCallPairs, spanRows } from './align';
import { CompareModelCalls } from './CompareModelCalls';
import { CompareSpanTable } from './CompareSpanTable';

function pathOfTrace(t: TraceOutline): Step[] {
  const starts = new Map(t.spans.map((s) => [s.id, s.startedAt]));
  return pathOf(t.decisionPoints.map((d) => ({ ...d, parentStartedAt: d.parentSpanId ? starts.get(d.parentSpanId) ?? null : null })));
}

const stepText = (s: Step) => `${s.label}${s.repeats > 1 ? ` ×${s.repeats}` : ''}`;

/**
 * Two runs side by side: their paths aligned step by step from the first difference, then
 * their spans (the rows in view drawn by the browser) and model calls (payloads loaded
 * when one is opened). Both runs come as outlines: their spans without payloads.
 */
export function CompareView({ a, b, picked }: { a: TraceOutline; b: TraceOutline; picked: boolean }) {
  const { rows, firstDifference } = alignPaths(pathOfTrace(a), pathOfTrace(b));
  const spans = alignSpans(a.spans, b.spans);
  const models = modelCallPairs(spans);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Compare runs</h1>
        {picked && <p className="text-sm text-muted">B is the most recent completed run of this name whose path shares the longest start with A’s.</p>}
      </div>
      <div className="grid grid-cols-2 gap-3">
        {([['A', a], ['B', b]] as const).map(([side, t]) => (
          <div key={side} className="min-w-0 rounded-lg border border-border bg-surface p-3" data-testid={`compare-run-${side}`}>
            <p className="text-xs font-medium text-muted">{side}</p>
            <Link href={traceHref(t.id)} className="block truncate font-medium text-accent hover:underline" title={t.name}>
              {t.name}
            </Link>
            <p className="truncate font-mono text-xs text-muted" title={t.id}>
              {t.id}
            </p>
            <StatusBadge status={t.status} className="mt-1" />
            <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs" data-testid={`compare-totals-${side}`}>
              <dt className="text-muted">Duration</dt>
              <dd className="tabular">{t.endedAt ? formatDuration(elapsedMs(t)) : 'running'}</dd>
              <dt className="text-muted">Tokens</dt>
              <dd className="tabular">{formatTokens(t.totalTokens)}</dd>
              <dt className="text-muted">Cost</dt>
              <dd className="tabular">{formatCost(t.totalCost)}</dd>
            </dl>
          </div>
        ))}
      </div>

      <section aria-labelledby="compare-path" className="flex flex-col gap-2">
        <h2 id="compare-path" className="text-base font-semibold">
          Decision paths
        </h2>
        <p className="text-sm text-muted" data-testid="compare-summary">
          {firstDifference === null
            ? 'Both runs took the same path.'
            : `The runs share ${firstDifference} step${firstDifference === 1 ? '' : 's'}, then part at step ${firstDifference + 1}.`}
        </p>
        <ol className="flex flex-col gap-1" aria-label="Steps of both paths">
          {rows.map((r) => {
            const first = r.index === firstDifference;
            return (
              <li
                key={r.index}
                data-testid="compare-step"
                data-first-difference={first || undefined}
                className={`grid grid-cols-[2rem_minmax(0,1fr)_minmax(0,1fr)] items-start gap-2 rounded px-1 py-1 text-sm ${
                  first ? 'border-2 border-amber-600 bg-amber-50 dark:border-amber-400 dark:bg-amber-950' : r.same ? '' : 'bg-surface-2'
                }`}
              >
                <span className="text-muted tabular">{r.index + 1}</span>
                <StepCell step={r.a} />
                <StepCell step={r.b} />
                {first && (
                  <span className="col-span-3 text-xs font-semibold text-amber-900 dark:text-amber-100" data-testid="first-difference">
                    First difference
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      </section>

      <section aria-labelledby="compare-spans" className="flex flex-col gap-2">
        <h2 id="compare-spans" className="text-base font-semibold">
          Spans, by name and position
        </h2>
        <CompareSpanTable rows={spanRows(spans)} />
      </section>

      {models.length > 0 && (
        <section aria-labelledby="compare-models" className="flex flex-col gap-2">
          <h2 id="compare-models" className="text-base font-semibold">
            Model calls, input and output
          </h2>
          <CompareModelCalls a={a.id} b={b.id} pairs={models} />
        </section>
      )}
    </div>
  );
}

function StepCell({ step }: { step: Step | null }) {
  if (!step) return <span className="text-muted">(path ended)</span>;
  return (
    <span className="min-w-0 break-words">
      <span className="text-xs text-muted">{DECISION_LABEL[step.type]}</span> <code className="font-mono">{stepText(step)}</code>
    </span>
  );
}
