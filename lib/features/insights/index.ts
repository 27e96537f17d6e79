// lib/features/insights: the feature's surface; everything else in this folder is private to it.
import 'server-only';
import { parseInsightsParams as parseInsightsQuery } from './params';
import type { InsightsParams } from './types';
export { compactInsights } from './compact';
export { decisionInsights, parseDecisionParams } from './decisions';
export { overviewInsights, parseOverviewParams } from './overview';
export { parseInsightsParams } from './params';
export { reviewFigures } from './reviews';
export { edgeCteSql, rollupPlan, rollupRowsSql } from './rollups';
export { parseScoreSeriesParams, scoreSeries } from './score-series';

/** The names insightsParamsFromValues reads. */
export type InsightsParamName = 'from' | 'to' | 'name' | 'tag' | 'sessionId' | 'status';

/**
 * parseInsightsParams for a transport that has typed values rather than a query string
 * (SOAP's run parameters): the same rules and VALIDATION messages, empty meaning absent.
 */
export function insightsParamsFromValues(values: Partial<Record<InsightsParamName, string>>, now?: Date): InsightsParams {
  const all = (name: string): string[] => {
    const value = values[name as InsightsParamName];
    return value === undefined ? [] : [value];
  };
  return parseInsightsQuery({ get: (name) => all(name)[0] ?? null, getAll: all, keys: () => Object.keys(values)[Symbol.iterator]() as URLSearchParamsIterator<string> }, now);
}
