'use client';

import Link from 'next/link';
import type { OptionStats } from '@/lib/features/insights/shared';
import { drillDownHref, type InsightsRequest } from '@/lib/client/insights';
import { formatTokens } from '@/lib/core/format';
import type { DecisionType } from '@/lib/features/traces/shared';
import { formatShare } from './theme';

/** The review queue with the page's filters and this option, so "review some" lands on its decisions. */
export function reviewQueueHref(req: InsightsRequest, type: DecisionType, label?: string): string {
  const q = new URLSearchParams({ type });
  if (label !== undefined) q.set('option', label);
  if (req.name) q.set('name', req.name);
  if (req.status) q.set('status', req.status);
  q.set('from', req.from);
  q.set('to', req.to);
  return `/review?${q.toString()}`;
}

/**
 * What reviewers judged of an option, beside what happened when it was chosen: how many
 * of its decisions were reviewed, the share judged right and the number judged wrong, each
 * a link to the traces of those decisions.
 */
export function OptionReviews({ option: o, req }: { option: OptionStats; req: InsightsRequest }) {
  const reviewed = o.reviewed ?? 0;
  const base = { decisionType: o.type, chosen: o.label };
  if (o.chosen === 0) return null;
  if (reviewed === 0) {
    return (
      <p className="mt-0.5 text-xs text-muted" data-testid="option-reviews">
        Not reviewed yet ·{' '}
        <Link href={reviewQueueHref(req, o.type, o.label)} className="hover:text-fg hover:underline">
          review its decisions
        </Link>
      </p>
    );
  }
  const right = o.judgedRight ?? 0;
  const wrong = reviewed - right;
  return (
    <p className="mt-0.5 text-xs text-muted" data-testid="option-reviews">
      <Link
        href={drillDownHref(req, { ...base, judged: 'right' })}
        className="font-medium text-fg hover:underline"
        aria-label={`${o.label}: ${formatShare(o.judgedRightShare)} judged right, ${right} of ${reviewed} reviews`}
        data-testid="judged-right-share"
      >
        {formatShare(o.judgedRightShare)} judged right
      </Link>{' '}
      of{' '}
      <Link href={drillDownHref(req, { ...base, reviewed: true })} className="hover:text-fg hover:underline" data-testid="reviewed-count">
        {formatTokens(reviewed)} reviewed
      </Link>
      {wrong > 0 && (
        <>
          {' · '}
          <Link href={drillDownHref(req, { ...base, judged: 'wrong' })} className="hover:text-fg hover:underline">
            {formatTokens(wrong)} wrong
          </Link>
        </>
      )}
    </p>
  );
}

/**
 * The should-have-been matrix of a decision type: for each chosen option reviewers named a
 * better one for, how often they named each (`decision.better_option`). Each count links to
 * the traces of those decisions.
 */
export function BetterMatrix({ type, options, req }: { type: DecisionType; options: OptionStats[]; req: InsightsRequest }) {
  const rows = options.filter((o) => (o.betterOptions ?? []).length > 0);
  if (rows.length === 0) return null;
  const totals = new Map<string, number>();
  for (const o of rows) for (const b of o.betterOptions ?? []) totals.set(b.label, (totals.get(b.label) ?? 0) + b.count);
  const columns = [...totals.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([label]) => label);
  const captionId = `better-${type}`;
  return (
    <div className="mt-4 border-t border-border pt-3" data-testid="better-matrix">
      <h4 id={captionId} className="text-xs font-semibold">
        Should have been
      </h4>
      <p className="text-xs text-muted">Reviewers who judged a choice wrong named the option it should have been: chosen (rows), better (columns).</p>
      <div className="mt-2 overflow-x-auto">
        <table aria-labelledby={captionId} className="text-xs tabular">
          <thead className="text-muted">
            <tr className="border-b border-border">
              <th scope="col" className="py-1 pr-3 text-left font-medium">
                Chosen ↓ / better →
              </th>
              {columns.map((c) => (
                <th key={c} scope="col" className="max-w-[9rem] truncate px-2 py-1 text-right font-mono font-medium" title={c}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => {
              const counts = new Map((o.betterOptions ?? []).map((b) => [b.label, b.count]));
              return (
                <tr key={o.label} data-chosen={o.label} className="border-b border-border last:border-b-0">
                  <th scope="row" className="max-w-[10rem] truncate py-1 pr-3 text-left font-mono font-normal" title={o.label}>
                    {o.label}
                  </th>
                  {columns.map((c) => {
                    const n = counts.get(c) ?? 0;
                    return (
                      <td key={c} className="px-2 py-1 text-right" data-better={c}>
                        {n === 0 ? (
                          <span className="text-muted">·</span>
                        ) : (
                          <Link
                            href={drillDownHref(req, { decisionType: type, chosen: o.label, better: c })}
                            className="font-medium text-accent hover:underline"
                            aria-label={`Chose ${o.label}, should have been ${c}: ${n}`}
                          >
                            {formatTokens(n)}
                          </Link>
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
