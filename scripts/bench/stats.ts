// Latency percentiles and throughput. Percentiles interpolate linearly between the
// closest ranks (numpy's default, "type 7"), so p50 of [1, 2] is 1.5 and a one-sample
// run reports that sample for every percentile.

/** The q-quantile (0..1) of an ascending array; NaN when empty. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be within [0, 1], got ${q}`);
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function quantile(values: readonly number[], q: number): number {
  return quantileSorted([...values].sort((a, b) => a - b), q);
}

export interface Summary {
  /** Successful requests measured (warm-up excluded). */
  count: number;
  errors: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Successful requests per second of wall time. */
  perSecond: number;
  /** Records (or rows) per second, when the scenario counts them. */
  recordsPerSecond?: number;
  wallSeconds: number;
}

export function summarize(latenciesMs: readonly number[], wallMs: number, errors = 0, records?: number): Summary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const wallSeconds = wallMs / 1000;
  return {
    count: sorted.length,
    errors,
    medianMs: quantileSorted(sorted, 0.5),
    p95Ms: quantileSorted(sorted, 0.95),
    p99Ms: quantileSorted(sorted, 0.99),
    maxMs: sorted.length ? sorted[sorted.length - 1] : NaN,
    perSecond: wallSeconds > 0 ? sorted.length / wallSeconds : NaN,
    recordsPerSecond: records === undefined ? undefined : wallSeconds > 0 ? records / wallSeconds : NaN,
    wallSeconds,
  };
}
