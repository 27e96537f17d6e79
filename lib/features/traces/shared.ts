// lib/features/traces: what the browser may import too (types and pure helpers, no server module).
export { chosenConfidence, type DecisionGroup, formatConfidence, groupDecisions, type NotChosenOption, notChosenOptions } from './decision-options';
export { indexToolSpans, type OutcomeSpan, type ToolSpanIndex, toolSpanOf } from './decision-outcome';
export { type ColumnarOutline, outlineFromColumns } from './outline-columns';
export { costSourceNote, spanModelOf, summaryModelOf } from './span-model';
export { axisTicks, barLayout, computeWindow, spanEnd, spanInterval, type TimeWindow, toPercent } from './timeline';
export { clampView, focusWindow, type FocusWindow, panBy, rangeAround, rangeOfDrag, type ViewRange, viewTicks, viewWindow, zoomAt } from './timeline-view';
export { ancestorKeys, buildTraceTree, collapsibleKeys, decisionKey, filteredKeys, flattenTree, spanKey, type SpanNode, type TraceTree, type TreeRow } from './tree';
export { type CostSource, DECISION_TYPES, type DecisionPointRecord, type DecisionType, EVENT_TYPES, type EventRecord, type EventType, type JsonValue, type Judged, JUDGED_VALUES, type ListParams, type ListSort, RUN_STATUSES, type RunStatus, scoreSortName, type SearchMatch, SORT_FIELDS, SORT_ORDERS, type SortField, SUGGEST_FIELDS, type SuggestField, type SortOrder, SPAN_TYPES, type SpanRecord, type SpanSummary, type SpanType, TIME_RANGE_KEYS, TIME_RANGES, type TimeRange, type TraceDetail, type TraceFilterParams, type TraceList, type TraceListItem, type TraceOutline, type TraceRecord, type TraceScoreSummary, type TraceSearchResult } from './types';
export { toTraceRecord } from './serialize';
