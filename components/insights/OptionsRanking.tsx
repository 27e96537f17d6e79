'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { DecisionInsights, OptionStats } from '@/lib/features/insights/shared';
import { drillDownHref, type InsightsRequest } from '@/lib/client/insights';
import { formatTokens, plural } from '@/lib/core/format';
import type { DecisionType } from '@/lib/features/traces/shared';
import { DECISION_LABEL } from '@/components/ui/badges';
import { BetterMatrix, OptionReviews } from './OptionReviews';
import { formatShare, typeColor } from './theme';

/** Options shown per type before "Show all". */
const FIRST = 6;

/**
 * Per decision type, the options ranked by how often they were chosen: "chosen N of M
 * times offered" with a bar (chosen over offered), and the share of the traces where it
 * was chosen that ended in error. Each count and bar opens the traces where it was chosen.
 */
export function OptionsRanking({ data, req }: { data: DecisionInsights; req: InsightsRequest }) {
  const byType = new Map<DecisionType, OptionStats[]>();
  for (const o of data.options) byType.set(o.type, [...(byType.get(o.type) ?? []), o]);
  const types = data.byType.map((t) => t.type).filter((t) => byType.has(t));
  if (types.length === 0) return null;
  return (
    <section aria-labelledby="options-heading" className="flex flex-col gap-3">
      <div>
        <h2 id="options-heading" className="text-base font-semibold">
          Options chosen, by decision type
        </h2>
        <p className="text-sm text-muted">
          Bars: how often each option was chosen (dark) out of the times it was offered (light); under each, the share of its
          traces that ended in error and the share of its reviewed decisions judged right. Click any figure for the traces behind it.
        </p>
      </div>
      <div className="grid grid-cols-1 items-start gap-3 lg:grid-cols-2 2xl:grid-cols-3">
        {types.map((type) => (
          <TypeOptions key={type} type={type} options={byType.get(type)!} req={req} />
        ))}
      </div>
    </section>
  );
}

function TypeOptions({ type, options, req }: { type: DecisionType; options: OptionStats[]; req: InsightsRequest }) {
  const [all, setAll] = useState(false);
  const shown = all ? options : options.slice(0, FIRST);
  const maxOffered = Math.max(1, ...options.map((o) => o.offered));
  const headingId = `options-${type}`;
  return (
    <section aria-labelledby={headingId} data-options-type={type} className="min-w-0 rounded-lg border border-border bg-surface p-4">
      <h3 id={headingId} className="flex items-center gap-2 text-sm font-semibold">
        <span aria-hidden="true" className="h-2.5 w-2.5 rounded-sm" style={{ background: typeColor(type) }} />
        {DECISION_LABEL[type]}
        <span className="font-normal text-muted">· {plural(options.length, 'option')}</span>
      </h3>
      <ol className="mt-3 flex flex-col gap-3">
        {shown.map((o) => {
          const chosenHref = drillDownHref(req, { decisionType: type, chosen: o.label });
          return (
            <li key={o.label} data-option={o.label} className="min-w-0">
              <div className="flex items-baseline gap-3 text-sm">
                <code className="min-w-0 truncate font-mono text-[13px] text-fg" title={o.label}>
                  {o.label}
                </code>
                <span className="ml-auto shrink-0 text-muted tabular" data-testid="option-counts">
                  {o.chosen > 0 ? (
                    <Link href={chosenHref} className="text-accent hover:underline" aria-label={`${o.label}: chosen ${o.chosen} of ${o.offered} times offered`}>
                      chosen {formatTokens(o.chosen)} of {formatTokens(o.offered)} times offered
                    </Link>
                  ) : (
                    <>never chosen, offered {plural(o.offered, 'time')}</>
                  )}
                </span>
              </div>
              <Link
                href={chosenHref}
                tabIndex={-1}
                aria-hidden="true"
                data-testid="option-bar"
                className={`mt-1 block h-2.5 rounded-sm bg-surface-2 ${o.chosen > 0 ? '' : 'pointer-events-none'}`}
              >
                <span className="relative block h-full rounded-sm" style={{ width: `${(100 * o.offered) / maxOffered}%` }}>
                  <span className="absolute inset-0 rounded-sm opacity-30" style={{ background: typeColor(type) }} />
                  <span
                    className="absolute inset-y-0 left-0 rounded-sm"
                    style={{ width: `${o.offered ? (100 * o.chosen) / o.offered : 0}%`, background: typeColor(type) }}
                  />
                </span>
              </Link>
              {o.errorTraceShareWhenChosen !== null && (
                <p className="mt-0.5 text-xs text-muted">
                  <Link href={drillDownHref(req, { decisionType: type, chosen: o.label, status: 'ERROR' })} className="hover:text-fg hover:underline">
                    {formatShare(o.errorTraceShareWhenChosen)} of traces ended in error when chosen
                  </Link>
                </p>
              )}
              <OptionReviews option={o} req={req} />
            </li>
          );
        })}
      </ol>
      {options.length > FIRST && (
        <button type="button" onClick={() => setAll((v) => !v)} className="mt-3 text-sm text-accent hover:underline">
          {all ? 'Show fewer' : `Show all ${options.length} options`}
        </button>
      )}
      <BetterMatrix type={type} options={options} req={req} />
    </section>
  );
}
