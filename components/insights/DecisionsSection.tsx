'use client';

import Link from 'next/link';
import { bucketWindow } from '@/lib/features/insights/shared';
import type { DecisionInsights } from '@/lib/features/insights/shared';
import { drillDownHref, type InsightsRequest } from '@/lib/client/insights';
import { formatCompact, formatCost, formatDuration, formatTokens, plural } from '@/lib/core/format';
import { DECISION_LABEL, DecisionGlyph } from '@/components/ui/badges';
import { TimeSeriesChart, type SeriesRow } from './TimeSeriesChart';
import { formatShare, typeColor } from './theme';

/** Decisions by type: over time (stacked per bucket) and over the window (a table). */
export function DecisionsSection({ data, req }: { data: DecisionInsights; req: InsightsRequest }) {
  const types = data.byType.map((t) => t.type);
  const rows: SeriesRow[] = (data.buckets ?? []).map((b) => ({
    start: b.start,
    ...bucketWindow(b.start, data.bucket ?? req.bucket, data),
    values: Object.fromEntries(types.map((type) => [type, b.byType.find((x) => x.type === type)?.count ?? 0])),
  }));
  const top = data.byType[0];
  return (
    <section aria-labelledby="decisions-heading" className="flex flex-col gap-3">
      <div className="flex items-baseline gap-3">
        <h2 id="decisions-heading" className="text-base font-semibold">
          Decisions
        </h2>
        <span className="text-sm text-muted tabular">
          {plural(data.totals.decisionPoints, 'decision point')} in {plural(data.totals.traces, 'trace')}
        </span>
      </div>
      {data.byType.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border-strong bg-surface p-4 text-sm text-muted">
          The traces in this window recorded no decision points.
        </p>
      ) : (
        <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          <TimeSeriesChart
            title="Decisions by type over time"
            summary={`${plural(data.totals.decisionPoints, 'decision point')} of ${plural(types.length, 'type')}${
              top ? `; the most frequent is ${DECISION_LABEL[top.type].toLowerCase()} (${formatTokens(top.count)})` : ''
            }.`}
            rows={rows}
            bucket={data.bucket ?? req.bucket}
            yFormat={formatCompact}
            integer
            series={types.map((type) => ({
              key: type,
              label: DECISION_LABEL[type],
              color: typeColor(type),
              kind: 'bar' as const,
              stack: 'types',
              format: formatTokens,
              href: (row: SeriesRow) => drillDownHref({ ...req, from: row.from, to: row.to }, { decisionType: type }),
            }))}
          />
          <section aria-labelledby="types-heading" className="min-w-0 rounded-lg border border-border bg-surface p-4">
            <h3 id="types-heading" className="text-sm font-semibold">
              Decision types in the window
            </h3>
            <div className="mt-2 overflow-x-auto">
              <table className="w-full text-sm tabular" data-testid="decision-types">
                <thead className="text-left text-xs text-muted">
                  <tr className="border-b border-border">
                    <th scope="col" className="py-1.5 pr-3 font-medium">
                      Type
                    </th>
                    <th scope="col" className="px-3 py-1.5 text-right font-medium">
                      Decisions
                    </th>
                    <th scope="col" className="px-3 py-1.5 text-right font-medium">
                      Traces
                    </th>
                    <th scope="col" className="px-3 py-1.5 text-right font-medium">
                      Traces in error
                    </th>
                    <th scope="col" className="px-3 py-1.5 text-right font-medium">
                      Avg duration
                    </th>
                    <th scope="col" className="py-1.5 pl-3 text-right font-medium">
                      Avg cost
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.byType.map((t) => {
                    const href = drillDownHref(req, { decisionType: t.type });
                    return (
                      <tr key={t.type} data-type={t.type} className="border-b border-border last:border-b-0">
                        <th scope="row" className="py-1.5 pr-3 text-left font-medium whitespace-nowrap">
                          <span className="inline-flex items-center gap-2">
                            <span aria-hidden="true" className="h-2.5 w-2.5 rounded-sm" style={{ background: typeColor(t.type) }} />
                            {DECISION_LABEL[t.type]}
                          </span>
                        </th>
                        <td className="px-3 py-1.5 text-right">
                          <Link href={href} className="text-accent hover:underline">
                            {formatTokens(t.count)}
                          </Link>
                        </td>
                        <td className="px-3 py-1.5 text-right">
                          <Link href={href} className="text-accent hover:underline">
                            {formatTokens(t.traces)}
                          </Link>
                        </td>
                        <td className="px-3 py-1.5 text-right">
                          <Link href={drillDownHref(req, { decisionType: t.type, status: 'ERROR' })} className="text-accent hover:underline">
                            {formatShare(t.errorTraceShare)}
                          </Link>
                        </td>
                        <td className="px-3 py-1.5 text-right">
                          <Link href={href} className="text-accent hover:underline">
                            {formatDuration(t.avgDurationMs)}
                          </Link>
                        </td>
                        <td className="py-1.5 pl-3 text-right">
                          <Link href={href} className="text-accent hover:underline">
                            {formatCost(t.avgCostUsd)}
                          </Link>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <p className="mt-2 flex items-center gap-1.5 text-xs text-muted">
              <DecisionGlyph size={10} />
              Averages are per decision point; traces in error are the share of traces with such a decision that ended in error.
            </p>
          </section>
        </div>
      )}
    </section>
  );
}
