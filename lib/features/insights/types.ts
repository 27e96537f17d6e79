// What the insights API returns (issue 12). Plain types, safe for client components.
import type { DecisionType, RunStatus } from '@/lib/features/traces/shared';

/**
 * The parameters every insights call takes: a window of trace start times, always set
 * (half-open: `from` <= startedAt < `to`, ISO 8601 UTC), and the trace filters.
 */
export interface InsightsParams {
  from: string;
  to: string;
  name?: string;
  /** Tags the trace carries, all of them. */
  tag?: string[];
  sessionId?: string;
  status?: RunStatus;
}

export interface DecisionTypeStats {
  type: DecisionType;
  /** Decision points of this type. */
  count: number;
  /** Traces with at least one decision point of this type. */
  traces: number;
  /** Mean durationMs of those decision points that have one; null when none has. */
  avgDurationMs: number | null;
  /** Mean costUsd of those decision points that have one; null when none has. */
  avgCostUsd: number | null;
  /** Share (0 to 1) of `traces` whose status is ERROR. */
  errorTraceShare: number;
}

export interface OptionStats {
  type: DecisionType;
  /** The option's label (lib/features/insights/labels.ts). */
  label: string;
  /** Decision points of this type that chose it. */
  chosen: number;
  /** Decision points of this type that offered it (chose it or listed it among the alternatives). */
  offered: number;
  /** Share (0 to 1) of the traces where it was chosen whose status is ERROR; null when it was never chosen. */
  errorTraceShareWhenChosen: number | null;
  /** `decision.correct` scores on decision points of this type that chose it (GET /api/insights/decisions only). */
  reviewed?: number;
  /** How many of those are true. */
  judgedRight?: number;
  /** judgedRight / reviewed; null when nothing was reviewed. */
  judgedRightShare?: number | null;
  /** The `decision.better_option` labels given on those decision points, by count descending, then label. */
  betterOptions?: BetterOption[];
}

export interface BetterOption {
  label: string;
  count: number;
}

/** The scores on the window's traces (and their spans and decisions), per name and data type. */
export interface ScoreSummary {
  name: string;
  dataType: 'NUMERIC' | 'CATEGORICAL' | 'BOOLEAN';
  count: number;
  /** NUMERIC: the mean; BOOLEAN: the share of true; CATEGORICAL: null. */
  average: number | null;
  /** CATEGORICAL: each value's count; BOOLEAN: "true" and "false"; NUMERIC: none. By count descending, then value. */
  categories: Array<{ value: string; count: number }>;
}

export interface TraceNameRates {
  name: string;
  /** Traces of this name in the window. */
  traces: number;
  /** RETRY decision points per 100 of those traces. */
  retryPer100: number;
  /** ESCALATION decision points per 100 of those traces. */
  escalationPer100: number;
}

/** GET /api/insights/decisions. */
export interface DecisionInsights {
  from: string;
  to: string;
  totals: { traces: number; decisionPoints: number };
  /** One row per decision type that occurs; by count, descending. */
  byType: DecisionTypeStats[];
  /** One row per (type, label), at most OPTIONS_PER_TYPE per type; by chosen descending, then type and label. */
  options: OptionStats[];
  /** One row per trace name, at most RATE_NAMES of them (the most frequent); by traces descending, then name. */
  ratesByTraceName: TraceNameRates[];
  /** Per score name and data type, by name (GET /api/insights/decisions only). */
  scores?: ScoreSummary[];
  /** Only when a `bucket` was asked for: the window's buckets, as in the overview. */
  bucket?: OverviewBucket;
  /** Only when a `bucket` was asked for: decision points by type per bucket of their trace's startedAt, every bucket present. */
  buckets?: DecisionBucketStats[];
}

/** Decision points of one type in one bucket (by their trace's startedAt). */
export interface DecisionBucketType {
  type: DecisionType;
  /** Decision points of this type whose trace started in the bucket. */
  count: number;
  /** Traces that started in the bucket with at least one decision point of this type. */
  traces: number;
}

export interface DecisionBucketStats {
  /** The bucket's first instant, ISO 8601 UTC. */
  start: string;
  /** The types that occur in the bucket, by type name; none when it holds no decision. */
  byType: DecisionBucketType[];
}

/** GET /api/insights/decisions: the common parameters, and a bucket when the series by type was asked for. */
export interface DecisionParams extends InsightsParams {
  bucket?: OverviewBucket;
}

/** The width of an overview bucket: a UTC minute, hour or day. */
export type OverviewBucket = 'minute' | 'hour' | 'day';

/** GET /api/insights/overview: the common parameters and the bucket, resolved (never absent). */
export interface OverviewParams extends InsightsParams {
  bucket: OverviewBucket;
}

/** The figures of a set of traces (the window's, or one bucket's). */
export interface OverviewFigures {
  traces: number;
  /** Traces whose status is ERROR. */
  errorTraces: number;
  /** Sum of each trace's totalCost, or of its spans' costUsd when it has none; 0 when none has either. */
  costUsd: number;
  /** Sum of each trace's totalTokens, or of its spans' tokenCount when it has none; 0 when none has either. */
  tokens: number;
  /** Median of endedAt − startedAt (ms) over the traces that ended (percentile_cont); null when none did. */
  p50DurationMs: number | null;
  /** 95th percentile of the same durations (percentile_cont, interpolated); null when none ended. */
  p95DurationMs: number | null;
}

export interface OverviewBucketStats extends OverviewFigures {
  /** The bucket's first instant, ISO 8601 UTC, aligned to a UTC minute, hour or day. */
  start: string;
}

/** GET /api/insights/overview. */
export interface OverviewInsights {
  from: string;
  to: string;
  bucket: OverviewBucket;
  totals: OverviewFigures;
  /** Every bucket the window touches, in order, from the one containing `from`; empty ones are zeros. */
  buckets: OverviewBucketStats[];
}

/** GET /api/insights/scores: the overview's parameters, and optionally one score name. */
export interface ScoreSeriesParams extends OverviewParams {
  /** Only the scores of this name (exact). */
  scoreName?: string;
}

/** One value's count: a category of a CATEGORICAL score, or "true"/"false" of a BOOLEAN one. */
export interface ScoreCategoryCount {
  value: string;
  count: number;
}

/** A score name's figures in one bucket (of its trace's startedAt). */
export interface ScoreBucketStats {
  start: string;
  count: number;
  /** NUMERIC: the mean; BOOLEAN: the share of true; CATEGORICAL, or no score in the bucket: null. */
  average: number | null;
  /** The series' categories (its most frequent in the window) that occur in the bucket, by count descending, then value. */
  categories: ScoreCategoryCount[];
}

/** A score name (and data type) over the window: its totals and every bucket of the window. */
export interface ScoreSeries {
  name: string;
  dataType: 'NUMERIC' | 'CATEGORICAL' | 'BOOLEAN';
  count: number;
  average: number | null;
  /** At most SERIES_CATEGORIES values, the most frequent in the window (count descending, then value). */
  categories: ScoreCategoryCount[];
  buckets: ScoreBucketStats[];
}

/** GET /api/insights/scores. */
export interface ScoreSeriesInsights {
  from: string;
  to: string;
  bucket: OverviewBucket;
  /** At most SERIES_NAMES series, the names with the most scores (then by name and data type). */
  series: ScoreSeries[];
}
