// Time buckets of the insights series: UTC minutes, hours and days, and the default for a
// window's length. Pure and safe for client components: the page computes the same
// buckets and drill-down windows as the API.
import type { OverviewBucket } from './types';

export const OVERVIEW_BUCKETS = ['minute', 'hour', 'day'] as const satisfies readonly OverviewBucket[];

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

// UTC has no DST and neither JavaScript nor PostgreSQL counts leap seconds, so every
// bucket is a fixed number of milliseconds and boundaries are multiples of it since the
// epoch. '24 hours', not '1 day': PostgreSQL adds a day in the session's time zone.
export const BUCKET: Record<OverviewBucket, { ms: number; interval: string }> = {
  minute: { ms: MINUTE_MS, interval: '1 minute' },
  hour: { ms: HOUR_MS, interval: '1 hour' },
  day: { ms: DAY_MS, interval: '24 hours' },
};

/** A window never holds more buckets than this (a requested bucket that would is a 400). */
export const MAX_BUCKETS = 1500;
/** Default bucket: minute for a window up to this long (at most 361 buckets)... */
export const MINUTE_BUCKETS_UP_TO_MS = 6 * HOUR_MS;
/** ...hour up to this long (at most 337), day beyond (a window over ~4 years is a 400). */
export const HOUR_BUCKETS_UP_TO_MS = 14 * DAY_MS;

/** The first instant of the bucket containing `ms`. */
export function bucketStart(ms: number, bucket: OverviewBucket): number {
  const size = BUCKET[bucket].ms;
  return Math.floor(ms / size) * size;
}

/**
 * How many buckets the window [from, to) touches: from the one containing `from` to the one
 * containing the last millisecond before `to`. An empty window (from = to) touches none.
 */
export function bucketCount(from: string, to: string, bucket: OverviewBucket): number {
  const start = Date.parse(from);
  const end = Date.parse(to);
  if (end <= start) return 0;
  return Math.floor((end - 1 - bucketStart(start, bucket)) / BUCKET[bucket].ms) + 1;
}

/** The bucket for a window when the caller names none: the finest that keeps it readable. */
export function defaultBucket(from: string, to: string): OverviewBucket {
  const length = Date.parse(to) - Date.parse(from);
  if (length <= MINUTE_BUCKETS_UP_TO_MS) return 'minute';
  if (length <= HOUR_BUCKETS_UP_TO_MS) return 'hour';
  return 'day';
}

/**
 * The part of the window [from, to) a bucket covers, as ISO instants: the traces a bucket
 * counts are exactly those the list shows for this from/to (first and last buckets of a
 * window that is not aligned to them are partial).
 */
export function bucketWindow(start: string, bucket: OverviewBucket, window: { from: string; to: string }): { from: string; to: string } {
  const begin = Math.max(Date.parse(start), Date.parse(window.from));
  const end = Math.min(Date.parse(start) + BUCKET[bucket].ms, Date.parse(window.to));
  return { from: new Date(begin).toISOString(), to: new Date(end).toISOString() };
}
