// lib/features/query: the feature's surface; everything else in this folder is private to it.
import 'server-only';
export { dateParam, enumParam, escapeLike, type FilterQuery, invalidParam, parseTraceFilters, textParam, TRACE_FILTER_NAMES, type TraceFilterName, traceFiltersFromValues, traceScoreAverageSql, traceWhereSql } from './filters';
export { offeredLabelsSql, optionLabelSql } from './label-sql';
export { LIST_COLUMNS, type ListRow, toListItem } from './list-row';
export { tracePathSql } from './path-sql';
export { storedTracesOfWindowSql, tracesOfWindowSql } from './window-sql';
export { CHILD_KINDS, MAX_QUERY_CHARS, rowsOfTrace, SEARCH_TABLES, type SearchKind, tableMatches, traceMatchesSql, wordsDecide, wordsMatchSql } from './search-sql';
export { parseListParams, parsePageParams } from './list-params';
