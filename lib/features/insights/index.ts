// lib/features/insights: the feature's surface; everything else in this folder is private to it.
import 'server-only';
export { compactInsights, compactInsightsDue } from './compact';
export { decisionInsights, parseDecisionParams } from './decisions';
export { overviewInsights, parseOverviewParams } from './overview';
export { parseInsightsParams } from './params';
export { reviewFigures } from './reviews';
export { edgeCteSql, rollupPlan, rollupRowsSql } from './rollups';
export { parseScoreSeriesParams, scoreSeries } from './score-series';
