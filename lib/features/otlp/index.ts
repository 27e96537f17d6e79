// lib/features/otlp: OpenTelemetry's spans and log records as Crossroads traces: the
// conventions as data, the mapping, and the verbs that store one export request.
import 'server-only';
export { rejectionMessage, storeOtlpLogs, storeOtlpSpans, type OtlpLogsReceipt, type OtlpReceipt, type OtlpReceiveLimits } from './store';
