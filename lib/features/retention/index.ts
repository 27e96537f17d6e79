// lib/features/retention: the feature's surface; everything else in this folder is private to it.
import 'server-only';
export { DELETE_BATCH_SIZE, deleteExpiredBatch, deleteExpiredTraces, deleteSessionTraces, deleteTraceOrThrow, deleteTracesById, parseSessionIdParam } from './delete';
