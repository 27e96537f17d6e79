// lib/features/ingest: the feature's surface; everything else in this folder is private to it.
import 'server-only';
export { closeIdleTraces } from './close-idle';
export { ingestTraces } from './ingest';
export { upsertSpanBatch } from './upsert-spans';
export { type SpanKey, type StoredModelCall, type UncountedCalls } from './upsert-spans';
