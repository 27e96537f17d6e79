// lib/features/traces: the feature's surface; everything else in this folder is private to it.
import 'server-only';
export { getDecisionPointOrThrow, getEventOrThrow, getSpanOrThrow, queryDecisionPoints, queryEvents, querySpans } from './children';
export { getSavedTraceOrThrow, getTraceOrThrow, isValidTraceId, streamTraceJsonOrThrow } from './detail';
export { EXPORT_CONTENT_TYPES, exportFilename, exportTraces, parseExportParams } from './export/export';
export { checkHealth } from './health';
export { listTraces } from './list';
export { tracePreviews } from './previews';
export { parseSuggestParams, suggestValues } from './suggest';
export { getTraceOutlineJsonOrThrow, getTraceOutlineOrThrow, outlineFormatOrThrow } from './outline';
export { traceErrorCounts } from './error-counts';
export { traceStats, type TraceStatsParams } from './stats';
export { foldTraceStatusCounts } from './status-counts';
