import { diffLines } from 'diff';
import Link from 'next/link';
import { pathOf, type Step } from '@/lib/features/paths/shared';
import { formatCost, formatDuration, formatTokens } from '@/lib/core/format';
import { traceHref } from '@/lib/client/traces';
import type { JsonValue, SpanRecord, TraceDetail } from '@/lib/features/traces/shared';
import { DECISION_LABEL, SpanTypeBadge, StatusBadge, statusLabel } from '@/components/ui/badges';
import { alignPaths, alignSpans, elapsedMs, spanDifferences, type SpanPair } from './align';

/** Model-call payloads longer than this are diffed on their first part only (a diff is quadratic at worst). */
const MAX_DIFF_CHARS = 20_000;

function pathOfTrace(t: TraceDetail): Step[] {
  const starts = new Map(t.spans.map((s) => [s.id, s.startedAt]));
  return pathOf(t.decisionPoints.map((d) => ({ ...d, parentStartedAt: d.parentSpanId ? starts.get(d.parentSpanId) ?? null : null })));
}

const stepText = (s: Step) => `${s.label}${s.repeats > 1 ? ` ×${s.repeats}` : ''}`;

/** Two runs side by side: their paths aligned step by step from the first difference, then their spans and model calls. */
export function CompareView({ a, b, picked }: { a: TraceDetail; b: TraceDetail; picked: boolean }) {
  const { rows, firstDifference } = alignPaths(pathOfTrace(a), pathOfTrace(b));
  const spans = alignSpans(a.spans, b.spans);
  const models = spans.filter((p) => p.a?.type === 'LLM_CALL' && p.b?.type === 'LLM_CALL');
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
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full min-w-[40rem] text-sm" data-testid="compare-spans">
            <thead className="bg-surface text-left text-xs text-muted">
              <tr>
                <th className="px-2 py-1.5 font-medium">Span</th>
                <th className="px-2 py-1.5 font-medium">Status A / B</th>
                <th className="px-2 py-1.5 text-right font-medium">Duration A / B</th>
                <th className="px-2 py-1.5 text-right font-medium">Tokens A / B</th>
                <th className="px-2 py-1.5 text-right font-medium">Cost A / B</th>
              </tr>
            </thead>
            <tbody>
              {spans.map((p) => (
                <SpanRow key={`${p.name}\u001f${p.occurrence}`} pair={p} />
              ))}
            </tbody>
          </table>
        </div>
      </section>

      {models.length > 0 && (
        <section aria-labelledby="compare-models" className="flex flex-col gap-2">
          <h2 id="compare-models" className="text-base font-semibold">
            Model calls, input and output
          </h2>
          {models.map((p) => (
            <details key={`${p.name}\u001f${p.occurrence}`} className="rounded-lg border border-border bg-surface p-2" data-testid="compare-model">
              <summary className="cursor-pointer text-sm font-medium">
                {p.name}
                {p.occurrence > 0 && ` #${p.occurrence + 1}`}
              </summary>
              <TextDiff title="Input" a={p.a!.input} b={p.b!.input} />
              <TextDiff title="Output" a={p.a!.output} b={p.b!.output} />
            </details>
          ))}
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

const mark = (differs: boolean) => (differs ? 'font-semibold text-amber-900 dark:text-amber-200' : '');

function SpanRow({ pair }: { pair: SpanPair }) {
  const diff = new Set(spanDifferences(pair));
  const pick = <T,>(f: (s: SpanRecord) => T) => [pair.a ? f(pair.a) : null, pair.b ? f(pair.b) : null] as const;
  const [sa, sb] = pick((s) => s.status);
  const both = (x: string, y: string) => `${x} / ${y}`;
  const type = (pair.a ?? pair.b)!.type;
  return (
    <tr className="border-t border-border" data-testid="compare-span" data-differs={[...diff].join(' ') || undefined}>
      <td className="px-2 py-1.5">
        <span className="flex items-center gap-1.5">
          <SpanTypeBadge type={type} />
          <span className="truncate">{pair.name}</span>
          {pair.occurrence > 0 && <span className="text-xs text-muted">#{pair.occurrence + 1}</span>}
          {diff.has('missing') && <span className="text-xs text-muted">(only in {pair.a ? 'A' : 'B'})</span>}
        </span>
      </td>
      <td className={`px-2 py-1.5 ${mark(diff.has('status'))}`}>{both(sa ? statusLabel(sa) : '—', sb ? statusLabel(sb) : '—')}</td>
      <td className={`px-2 py-1.5 text-right tabular ${mark(diff.has('duration'))}`}>{both(...(pick((s) => formatDuration(elapsedMs(s))).map((v) => v ?? '—') as [string, string]))}</td>
      <td className={`px-2 py-1.5 text-right tabular ${mark(diff.has('tokens'))}`}>{both(...(pick((s) => formatTokens(s.tokenCount)).map((v) => v ?? '—') as [string, string]))}</td>
      <td className={`px-2 py-1.5 text-right tabular ${mark(diff.has('cost'))}`}>{both(...(pick((s) => formatCost(s.costUsd)).map((v) => v ?? '—') as [string, string]))}</td>
    </tr>
  );
}

const text = (v: JsonValue) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2) ?? '').slice(0, MAX_DIFF_CHARS);

function TextDiff({ title, a, b }: { title: string; a: JsonValue; b: JsonValue }) {
  const parts = diffLines(text(a), text(b));
  const same = parts.every((p) => !p.added && !p.removed);
  return (
    <div className="mt-2">
      <p className="text-xs font-medium text-muted">
        {title}
        {same && ' (the same)'}
      </p>
      <pre className="mt-1 max-h-80 overflow-auto rounded bg-bg p-2 font-mono text-xs whitespace-pre-wrap break-words" data-testid="text-diff">
        {parts.map((p, i) => (
          <span
            key={i}
            className={p.added ? 'bg-emerald-100 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100' : p.removed ? 'bg-red-100 text-red-950 line-through dark:bg-red-950 dark:text-red-100' : ''}
          >
            {p.added ? '+ ' : p.removed ? '- ' : ''}
            {p.value}
          </span>
        ))}
      </pre>
    </div>
  );
}
