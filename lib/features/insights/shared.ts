// lib/features/insights: what the browser may import too (types and pure helpers, no server module).
export { bucketCount, bucketWindow, defaultBucket, MAX_BUCKETS } from './buckets';
export { MAX_LABEL_CHARS, optionLabel } from './labels';
export { type DecisionInsights, type InsightsParams, type OptionStats, type OverviewBucket, type OverviewInsights, type ScoreSeries, type ScoreSeriesInsights } from './types';
export { LABEL_KEYS } from './labels';
