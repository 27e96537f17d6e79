'use client';

import Link from 'next/link';
import { bucketWindow } from '@/lib/features/insights/shared';
import type { ScoreSeries, ScoreSeriesInsights } from '@/lib/features/insights/shared';
import { drillDownHref, scoreEqualsCondition, type InsightsRequest } from '@/lib/client/insights';
import { formatCompact, formatTokens, plural } from '@/lib/core/format';
import { TimeSeriesChart, type Series, type SeriesRow } from './TimeSeriesChart';
import { color, formatShare } from './theme';

/** A number as an average reads: at most three significant decimals. */
function formatAverage(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '—';
  return String(Number(v.toPrecision(3)));
}

const OTHER = '\u0000other';

/**
 * Scores over time, one panel per score name (the API's series): for a NUMERIC score the
 * number of scores per bucket (bars) and their average (a line on the right axis); for a
 * BOOLEAN or CATEGORICAL one the share of each value (stacked bars) and the number of
 * scores (a line). Every bar and table cell opens the traces behind it.
 */
export function ScoresSection({ data, req }: { data: ScoreSeriesInsights; req: InsightsRequest }) {
  if (data.series.length === 0) return null;
  return (
    <section aria-labelledby="scores-heading" className="flex flex-col gap-3" data-testid="scores-over-time">
      <div>
        <h2 id="scores-heading" className="text-base font-semibold">
          Scores over time
        </h2>
        <p className="text-sm text-muted">
          Scores on the window&apos;s traces, their spans and decisions, by when their trace started. Click a bar or a figure for the
          traces behind it.
        </p>
      </div>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        {data.series.map((s) => (
          <ScorePanel key={`${s.name}\u0000${s.dataType}`} series={s} data={data} req={req} />
        ))}
      </div>
    </section>
  );
}

function ScorePanel({ series: s, data, req }: { series: ScoreSeries; data: ScoreSeriesInsights; req: InsightsRequest }) {
  const scored = (from: string, to: string, condition = '*') => drillDownHref({ ...req, from, to }, { score: { [s.name]: condition } });
  const windows = s.buckets.map((b) => bucketWindow(b.start, data.bucket, data));
  const headline = (
    <>
      <Link href={scored(req.from, req.to)} className="text-fg hover:text-accent hover:underline" data-testid="score-count">
        <span className="font-semibold tabular">{formatTokens(s.count)}</span> <span className="text-muted">{s.count === 1 ? 'score' : 'scores'}</span>
      </Link>
      {s.dataType === 'NUMERIC' && (
        <span className="text-muted">
          average <span className="font-semibold text-fg tabular">{formatAverage(s.average)}</span>
        </span>
      )}
      {s.dataType !== 'NUMERIC' &&
        s.categories.slice(0, 3).map((c) => (
          <Link
            key={c.value}
            href={scored(req.from, req.to, scoreEqualsCondition(c.value))}
            className="min-w-0 truncate text-muted hover:text-accent hover:underline"
            title={c.value}
          >
            {c.value} <span className="font-semibold text-fg tabular">{formatShare(c.count / s.count)}</span>
          </Link>
        ))}
    </>
  );
  const title = `${s.name} (${s.dataType.toLowerCase()})`;

  if (s.dataType === 'NUMERIC') {
    const rows: SeriesRow[] = s.buckets.map((b, i) => ({ start: b.start, ...windows[i], values: { count: b.count, average: b.average } }));
    const bucketHref = (row: SeriesRow) => scored(row.from, row.to);
    return (
      <TimeSeriesChart
        title={title}
        headline={headline}
        summary={`${plural(s.count, 'score')} named ${s.name}, average ${formatAverage(s.average)}, in ${plural(s.buckets.length, data.bucket)}.`}
        rows={rows}
        bucket={data.bucket}
        yFormat={formatCompact}
        rightFormat={(v) => formatAverage(v)}
        integer
        series={[
          { key: 'count', label: 'Scores', color: color('score-count'), kind: 'bar', format: formatTokens, href: bucketHref },
          { key: 'average', label: 'Average (right axis)', color: color('score-avg'), kind: 'line', axis: 'right', format: formatAverage, href: bucketHref },
        ]}
      />
    );
  }

  // BOOLEAN and CATEGORICAL: the share of each value per bucket, the rest as "other".
  const values = s.categories.map((c) => c.value);
  const hasOther = s.buckets.some((b) => b.count > b.categories.reduce((n, c) => n + c.count, 0));
  const keyOf = (i: number) => `v${i}`;
  const valueColor = (value: string, i: number) =>
    s.dataType === 'BOOLEAN' ? color(value === 'true' ? 'value-true' : 'value-false') : color(`cat${i % 10}`);
  const rows: SeriesRow[] = s.buckets.map((b, i) => {
    const shares: Record<string, number | null> = { count: b.count };
    let counted = 0;
    values.forEach((v, j) => {
      const n = b.categories.find((c) => c.value === v)?.count ?? 0;
      counted += n;
      shares[keyOf(j)] = b.count ? n / b.count : null;
    });
    if (hasOther) shares[OTHER] = b.count ? (b.count - counted) / b.count : null;
    return { start: b.start, ...windows[i], values: shares };
  });
  const series: Series[] = values.map((v, j) => ({
    key: keyOf(j),
    label: v,
    color: valueColor(v, j),
    kind: 'bar' as const,
    stack: 'values',
    format: formatShare,
    href: (row: SeriesRow) => scored(row.from, row.to, scoreEqualsCondition(v)),
  }));
  if (hasOther) {
    series.push({ key: OTHER, label: 'other', color: color('value-other'), kind: 'bar', stack: 'values', format: formatShare, href: (row) => scored(row.from, row.to) });
  }
  series.push({
    key: 'count',
    label: 'Scores (right axis)',
    color: color('score-count'),
    kind: 'line',
    axis: 'right',
    format: formatTokens,
    href: (row) => scored(row.from, row.to),
  });
  const top = s.categories[0];
  return (
    <TimeSeriesChart
      title={title}
      headline={headline}
      summary={`${plural(s.count, 'score')} named ${s.name}${top ? `; the most frequent value is ${top.value} (${formatShare(top.count / s.count)})` : ''}.`}
      rows={rows}
      bucket={data.bucket}
      yFormat={(v) => formatShare(v)}
      yDomain={[0, 1]}
      rightFormat={formatCompact}
      rightInteger
      series={series}
    />
  );
}
