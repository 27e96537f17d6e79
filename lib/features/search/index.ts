// lib/features/search: the feature's surface; everything else in this folder is private to it.
import 'server-only';
export { findMatches, probeMatchingTraceIds, searchTracePage } from './search';
export { indexSearchBacklog, SEARCH_INDEX_SLOTS, searchBacklog, type SearchIndexRun, searchLagMs } from './search-index';
export { searchTraceOrThrow } from './search-trace';
export { plainPayloadNumbers, traceWordsAsWritten } from './trace-words';
