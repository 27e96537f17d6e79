'use client';

import { bucketWindow } from '@/lib/features/insights/shared';
import type { OverviewInsights } from '@/lib/features/insights/shared';
import { drillDownHref, type InsightsRequest } from '@/lib/client/insights';
import { formatCompact, formatCost, formatDuration, formatTokens, plural } from '@/lib/core/format';
import { Tile } from './Tile';
import { TimeSeriesChart, type SeriesRow } from './TimeSeriesChart';
import { color, formatShare } from './theme';

/** Axis ticks in dollars: $0.0005, $0.25, $1.5, $12, $1.2k. */
function costAxis(v: number): string {
  if (v === 0) return '$0';
  if (v < 0.01) return `$${Number(v.toPrecision(2))}`;
  if (v < 10) return `$${Number(v.toFixed(2))}`;
  return `$${formatCompact(v)}`;
}

/** The window's headline figures and how traces, errors, durations, cost and tokens moved. */
export function OverviewSection({ data, req }: { data: OverviewInsights; req: InsightsRequest }) {
  const { totals } = data;
  const all = drillDownHref(req);
  const errors = drillDownHref(req, { status: 'ERROR' });
  const errorShare = totals.traces ? totals.errorTraces / totals.traces : null;
  const rows: SeriesRow[] = data.buckets.map((b) => ({
    start: b.start,
    ...bucketWindow(b.start, data.bucket, data),
    values: {
      traces: b.traces,
      errors: b.errorTraces,
      p50: b.p50DurationMs,
      p95: b.p95DurationMs,
      cost: b.costUsd,
      tokens: b.tokens,
    },
  }));
  const bucketHref = (row: SeriesRow) => drillDownHref({ ...req, from: row.from, to: row.to });
  const bucketErrors = (row: SeriesRow) => drillDownHref({ ...req, from: row.from, to: row.to }, { status: 'ERROR' });
  const busiest = data.buckets.reduce((best, b) => (b.traces > best.traces ? b : best), data.buckets[0]);

  return (
    <section aria-labelledby="overview-heading" className="flex flex-col gap-3">
      <h2 id="overview-heading" className="sr-only">
        Traces over time
      </h2>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <Tile testId="tile-traces" label="Traces" value={formatTokens(totals.traces)} href={all} />
        <Tile
          testId="tile-errors"
          label="Errors"
          value={formatTokens(totals.errorTraces)}
          detail={`${formatShare(errorShare)} error rate`}
          href={errors}
        />
        <Tile testId="tile-p50" label="p50 duration" value={formatDuration(totals.p50DurationMs)} detail="of traces that ended" href={all} />
        <Tile testId="tile-p95" label="p95 duration" value={formatDuration(totals.p95DurationMs)} detail="of traces that ended" href={all} />
        <Tile testId="tile-cost" label="Cost" value={formatCost(totals.costUsd)} href={all} />
        <Tile testId="tile-tokens" label="Tokens" value={formatTokens(totals.tokens)} href={all} />
      </div>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        <TimeSeriesChart
          title="Traces and errors"
          summary={`${plural(totals.traces, 'trace')} and ${plural(totals.errorTraces, 'error')} (${formatShare(errorShare)}) in ${plural(
            data.buckets.length,
            data.bucket,
          )}${busiest && busiest.traces > 0 ? `; the busiest ${data.bucket} had ${plural(busiest.traces, 'trace')}` : ''}.`}
          rows={rows}
          bucket={data.bucket}
          yFormat={formatCompact}
          integer
          series={[
            { key: 'traces', label: 'Traces', color: color('traces'), kind: 'bar', format: formatTokens, href: bucketHref },
            { key: 'errors', label: 'Errors', color: color('errors'), kind: 'bar', format: formatTokens, href: bucketErrors },
          ]}
        />
        <TimeSeriesChart
          title="Duration (p50 and p95)"
          summary={`Over the window, half the traces that ended took ${formatDuration(totals.p50DurationMs)} or less, 95% ${formatDuration(
            totals.p95DurationMs,
          )} or less.`}
          rows={rows}
          bucket={data.bucket}
          yFormat={(v) => formatDuration(v)}
          series={[
            { key: 'p50', label: 'p50', color: color('p50'), kind: 'line', format: formatDuration, href: bucketHref },
            { key: 'p95', label: 'p95', color: color('p95'), kind: 'line', format: formatDuration, href: bucketHref },
          ]}
        />
        <TimeSeriesChart
          title="Cost"
          summary={`${formatCost(totals.costUsd)} in the window.`}
          rows={rows}
          bucket={data.bucket}
          yFormat={costAxis}
          series={[{ key: 'cost', label: 'Cost (USD)', color: color('cost'), kind: 'bar', format: formatCost, href: bucketHref }]}
        />
        <TimeSeriesChart
          title="Tokens"
          summary={`${formatTokens(totals.tokens)} tokens in the window.`}
          rows={rows}
          bucket={data.bucket}
          yFormat={formatCompact}
          integer
          series={[{ key: 'tokens', label: 'Tokens', color: color('tokens'), kind: 'bar', format: formatTokens, href: bucketHref }]}
        />
      </div>
    </section>
  );
}
