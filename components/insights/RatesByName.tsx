'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { DecisionInsights } from '@/lib/features/insights/shared';
import { drillDownHref, type InsightsRequest } from '@/lib/client/insights';
import { formatTokens } from '@/lib/core/format';
import { formatRate, typeColor } from './theme';

const FIRST = 10;

/** Retry and escalation decision points per 100 traces, per trace name (the most frequent names first). */
export function RatesByName({ data, req }: { data: DecisionInsights; req: InsightsRequest }) {
  const [all, setAll] = useState(false);
  const rows = data.ratesByTraceName;
  if (rows.length === 0) return null;
  const shown = all ? rows : rows.slice(0, FIRST);
  const max = Math.max(1, ...rows.map((r) => Math.max(r.retryPer100, r.escalationPer100)));
  const bar = (value: number, type: 'RETRY' | 'ESCALATION', href: string) => (
    <div className="flex items-center justify-end gap-2">
      <Link href={href} tabIndex={-1} aria-hidden="true" className="block h-2.5 w-32 rounded-sm bg-surface-2">
        <span className="block h-full rounded-sm" style={{ width: `${(100 * value) / max}%`, background: typeColor(type) }} />
      </Link>
      <Link href={href} className="w-12 text-right text-accent hover:underline">
        {formatRate(value)}
      </Link>
    </div>
  );
  return (
    <section aria-labelledby="rates-heading" className="rounded-lg border border-border bg-surface p-4">
      <h2 id="rates-heading" className="text-base font-semibold">
        Retries and escalations by trace name
      </h2>
      <p className="text-sm text-muted">Retry and escalation decision points per 100 traces of each name.</p>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-sm tabular" data-testid="rates">
          <thead className="text-left text-xs text-muted">
            <tr className="border-b border-border">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Trace name
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Traces
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                Retries per 100
              </th>
              <th scope="col" className="py-1.5 pl-3 text-right font-medium">
                Escalations per 100
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.name} data-name={r.name} className="border-b border-border last:border-b-0">
                <th scope="row" className="max-w-xs truncate py-1.5 pr-3 text-left font-medium" title={r.name}>
                  {r.name}
                </th>
                <td className="px-3 py-1.5 text-right">
                  <Link href={drillDownHref(req, { name: r.name })} className="text-accent hover:underline">
                    {formatTokens(r.traces)}
                  </Link>
                </td>
                <td className="px-3 py-1.5">{bar(r.retryPer100, 'RETRY', drillDownHref(req, { name: r.name, decisionType: 'RETRY' }))}</td>
                <td className="py-1.5 pl-3">
                  {bar(r.escalationPer100, 'ESCALATION', drillDownHref(req, { name: r.name, decisionType: 'ESCALATION' }))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > FIRST && (
        <button type="button" onClick={() => setAll((v) => !v)} className="mt-3 text-sm text-accent hover:underline">
          {all ? 'Show fewer' : `Show all ${rows.length} names`}
        </button>
      )}
    </section>
  );
}
