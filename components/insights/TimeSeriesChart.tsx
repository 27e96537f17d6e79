'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useId, useState, type ReactNode } from 'react';
import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { OverviewBucket } from '@/lib/features/insights/shared';
import { Skeleton } from '@/components/ui/states';
import { useHydrated, useTimeZone } from '@/components/ui/time';
import { axisMax, countTicks } from './ticks';
import { AXIS_TICK, bucketTick, bucketTitle, GRID_STROKE, startsDay, TOOLTIP_STYLE } from './theme';

export interface SeriesRow {
  /** The bucket's start, and the part of the window it covers (drill-downs use it). */
  start: string;
  from: string;
  to: string;
  values: Record<string, number | null>;
}

export interface Series {
  key: string;
  label: string;
  color: string;
  kind: 'bar' | 'line';
  /** Bars sharing a stack id are stacked. */
  stack?: string;
  /** Drawn against a second axis on the right (a figure of another scale: an average beside counts). */
  axis?: 'right';
  format: (value: number | null) => string;
  /** The trace list behind this series' value in a bucket. */
  href: (row: SeriesRow) => string;
}

const HEIGHT = 180;

/**
 * One panel of figures over time: a Recharts chart whose bars (or, for lines, columns)
 * open the trace list behind them, and the same figures as a table (a toggle, and the
 * chart's text alternative); a summary sentence for screen readers.
 */
export function TimeSeriesChart({
  title,
  headline,
  summary,
  rows,
  bucket,
  series,
  yFormat,
  rightFormat,
  yDomain,
  integer = false,
  rightInteger = false,
}: {
  title: string;
  /** The figures are counts: no fractional ticks. */
  integer?: boolean;
  /** The right axis' figures are counts. */
  rightInteger?: boolean;
  /** The window's figure(s), shown beside the title. */
  headline?: ReactNode;
  /** What the chart shows, in a sentence (read by screen readers instead of the SVG). */
  summary: string;
  rows: SeriesRow[];
  bucket: OverviewBucket;
  series: Series[];
  yFormat: (value: number) => string;
  /** Ticks of the right axis, when a series is drawn against it. */
  rightFormat?: (value: number) => string;
  /** The left axis' fixed range (shares: [0, 1]); absent, it fits the data. */
  yDomain?: [number, number];
}) {
  const hasRight = series.some((s) => s.axis === 'right');
  const [asTable, setAsTable] = useState(false);
  const hydrated = useHydrated();
  const zone = useTimeZone();
  const router = useRouter();
  const headingId = useId();
  const data = rows.map((r) => ({ start: r.start, ...r.values }));
  const lineOnly = series.every((s) => s.kind === 'line');
  const leftTicks = integer ? countTicks(axisMax(rows, series.filter((s) => s.axis !== 'right'))) : undefined;
  const rightTicks = rightInteger ? countTicks(axisMax(rows, series.filter((s) => s.axis === 'right'))) : undefined;
  // Hours over several days: one tick per day, at midnight, labelled with the date.
  const midnights = bucket === 'hour' && rows.length > 48 ? rows.filter((r) => startsDay(r.start, zone)).map((r) => r.start) : [];
  const dayTicks = midnights.length > 1 ? midnights : undefined;
  const open = (index: number, s: Series) => {
    const row = rows[index];
    if (row) router.push(s.href(row));
  };

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col rounded-lg border border-border bg-surface p-4">
      <div className="flex items-start gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="text-sm font-semibold">
            {title}
          </h3>
          {headline && <div className="mt-1 flex flex-wrap items-baseline gap-x-4 gap-y-1 text-sm">{headline}</div>}
        </div>
        <button
          type="button"
          aria-pressed={asTable}
          onClick={() => setAsTable((v) => !v)}
          className="ml-auto h-7 shrink-0 rounded-md border border-border-strong bg-bg px-2 text-xs text-fg hover:bg-surface-2"
        >
          {asTable ? 'Show chart' : 'Show table'}
        </button>
      </div>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted" aria-hidden="true">
        {series.map((s) => (
          <li key={s.key} className="inline-flex items-center gap-1.5">
            <span
              className={s.kind === 'bar' ? 'h-2.5 w-2.5 rounded-sm' : 'h-0.5 w-3 rounded'}
              style={{ background: s.color }}
            />
            {s.label}
          </li>
        ))}
      </ul>
      <p className="sr-only">{summary}</p>
      {asTable ? (
        <SeriesTable rows={rows} bucket={bucket} series={series} zone={zone} title={title} />
      ) : !hydrated ? (
        <Skeleton className="mt-2 h-[180px] w-full" />
      ) : (
        <div className="mt-2" aria-hidden="true" style={{ height: HEIGHT }}>
          <ResponsiveContainer width="100%" height={HEIGHT} initialDimension={{ width: 600, height: HEIGHT }}>
            <ComposedChart
              data={data}
              margin={{ top: 4, right: 4, bottom: 0, left: 0 }}
              barCategoryGap="15%"
              accessibilityLayer={false}
              onClick={
                lineOnly
                  ? (state) => {
                      if (state.activeTooltipIndex !== null && state.activeTooltipIndex !== undefined) open(Number(state.activeTooltipIndex), series[0]);
                    }
                  : undefined
              }
              style={lineOnly ? { cursor: 'pointer' } : undefined}
            >
              <CartesianGrid vertical={false} stroke={GRID_STROKE} />
              <XAxis
                dataKey="start"
                tick={AXIS_TICK}
                tickLine={false}
                axisLine={{ stroke: GRID_STROKE }}
                tickFormatter={(v: string) => bucketTick(v, bucket, zone)}
                ticks={dayTicks}
                interval={dayTicks ? 0 : 'preserveEnd'}
                minTickGap={24}
              />
              <YAxis
                tick={AXIS_TICK}
                tickLine={false}
                axisLine={false}
                width={56}
                tickFormatter={yFormat}
                allowDecimals={!integer}
                ticks={leftTicks}
                domain={leftTicks ? [0, leftTicks.at(-1)!] : yDomain}
              />
              {hasRight && (
                <YAxis
                  yAxisId="right"
                  orientation="right"
                  tick={AXIS_TICK}
                  tickLine={false}
                  axisLine={false}
                  width={44}
                  tickFormatter={rightFormat ?? yFormat}
                  allowDecimals={!rightInteger}
                  ticks={rightTicks}
                  domain={rightTicks ? [0, rightTicks.at(-1)!] : undefined}
                />
              )}
              <Tooltip
                contentStyle={TOOLTIP_STYLE}
                labelStyle={{ color: 'var(--c-fg)', fontWeight: 600 }}
                itemStyle={{ color: 'var(--c-fg)' }}
                cursor={{ fill: 'var(--c-surface-2)', stroke: 'var(--c-border-strong)' }}
                labelFormatter={(_, payload) => {
                  const i = rows.findIndex((r) => r.start === payload?.[0]?.payload?.start);
                  return i >= 0 ? bucketTitle(rows[i].from, rows[i].to, bucket, zone) : '';
                }}
                formatter={(value, name) => {
                  const s = series.find((x) => x.key === name);
                  return [s ? s.format(value as number | null) : String(value), s?.label ?? String(name)];
                }}
              />
              {series.map((s) =>
                s.kind === 'bar' ? (
                  <Bar
                    key={s.key}
                    dataKey={s.key}
                    name={s.key}
                    fill={s.color}
                    stackId={s.stack}
                    {...(s.axis === 'right' ? { yAxisId: 'right' } : {})}
                    isAnimationActive={false}
                    cursor="pointer"
                    onClick={(_, index) => open(index, s)}
                    maxBarSize={32}
                  />
                ) : (
                  <Line
                    key={s.key}
                    dataKey={s.key}
                    name={s.key}
                    stroke={s.color}
                    strokeWidth={2}
                    {...(s.axis === 'right' ? { yAxisId: 'right' } : {})}
                    dot={rows.length <= 40 ? { r: 2.5, fill: s.color, strokeWidth: 0 } : false}
                    activeDot={{ r: 4 }}
                    connectNulls={false}
                    isAnimationActive={false}
                  />
                ),
              )}
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      )}
    </section>
  );
}

/** The chart's figures as a table: one row per bucket that holds something, each figure a link. */
function SeriesTable({
  rows,
  bucket,
  series,
  zone,
  title,
}: {
  rows: SeriesRow[];
  bucket: OverviewBucket;
  series: Series[];
  zone: 'UTC' | 'local';
  title: string;
}) {
  const shown = rows.filter((r) => series.some((s) => (r.values[s.key] ?? 0) !== 0));
  return (
    <div className="mt-2 max-h-[180px] overflow-auto rounded border border-border" tabIndex={0} role="region" aria-label={`${title}, table`}>
      <table className="w-full text-xs tabular">
        <caption className="sr-only">{title} per {bucket}; periods without any are left out.</caption>
        <thead className="sticky top-0 bg-surface-2 text-left text-muted">
          <tr>
            <th scope="col" className="px-2 py-1 font-medium">
              Period
            </th>
            {series.map((s) => (
              <th key={s.key} scope="col" className="px-2 py-1 text-right font-medium">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 && (
            <tr>
              <td colSpan={series.length + 1} className="px-2 py-2 text-muted">
                Nothing in this window.
              </td>
            </tr>
          )}
          {shown.map((r) => (
            <tr key={r.start} className="border-t border-border">
              <th scope="row" className="px-2 py-1 text-left font-normal whitespace-nowrap">
                {bucketTitle(r.from, r.to, bucket, zone)}
              </th>
              {series.map((s) => (
                <td key={s.key} className="px-2 py-1 text-right">
                  <Link href={s.href(r)} className="text-accent hover:underline">
                    {s.format(r.values[s.key])}
                  </Link>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
