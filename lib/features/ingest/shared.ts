// lib/features/ingest: what the browser may import too (types and pure helpers, no server module).
export { closingQuote, nestingDepth } from './json-depth';
export { type DecisionPointUpsert, type LazySpanBatch, type RootFields, type SpanBatchTrace, type SpanRejection } from './span-batch';
export { type EventInput, isValidId, parseIngestBody, parseIsoDateTime, type SpanInput, type TraceInput, validateIngestBody } from './validate';
