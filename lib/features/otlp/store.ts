// OTLP's verbs: the decoded spans (log records) of one export request, refused record by
// record where they cannot be stored, mapped to the domain's records and upserted. The
// transport (lib/transports/otlp) decodes the wire form and answers the exporter.
import 'server-only';
import { linkStoredRuns } from '@/lib/features/experiments';
import { experimentRunsOf } from './experiment-runs';
import { AppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { upsertSpanBatch } from '@/lib/features/ingest';
import type { SpanRejection } from '@/lib/features/ingest/shared';
import { planLogRecords } from './logs';
import { planOtlpRequest } from './map';
import { markCallsRepeatedAcrossRequests } from './repeated-calls';
import { fillPayloadsFromLogs, storeLogEvents } from './store-log-events';
import type { OtlpLogRecord, OtlpSpan } from './types';
import { ingestWriter } from '@/lib/features/scores/shared';

export interface OtlpReceiveLimits {
  maxSpansPerRequest: number;
  maxChildrenPerTrace: number;
}

export interface OtlpReceipt {
  acceptedSpans: number;
  rejectedSpans: number;
  /** Why spans were rejected, for partial_success.error_message; '' when none were. */
  errorMessage: string;
}

export interface OtlpLogsReceipt {
  acceptedLogRecords: number;
  rejectedLogRecords: number;
  /** Why records were rejected, for partial_success.error_message; '' when none were. */
  errorMessage: string;
}

/** Summarises rejections as "3 spans rejected: 2 invalid trace id (...); 1 ..." ('' when none). */
export function rejectionMessage(rejected: SpanRejection[], what = 'span'): string {
  const total = rejected.reduce((n, r) => n + r.count, 0);
  if (total === 0) return '';
  const reasons = rejected.map((r) => `${r.count} ${r.reason}`).join('; ');
  return `${total} ${what}${total === 1 ? '' : 's'} rejected: ${reasons}`;
}

/** Maps and stores one request's decoded spans; throws AppError for a request refused whole. */
export async function storeOtlpSpans(ctx: ServiceContext, spans: OtlpSpan[], limits: OtlpReceiveLimits): Promise<OtlpReceipt> {
  const actor = requireScope(ctx, 'ingest');
  if (spans.length > limits.maxSpansPerRequest) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `Too many spans in one request: ${spans.length}; at most ${limits.maxSpansPerRequest} are allowed (OTLP_MAX_SPANS_PER_REQUEST)`,
    );
  }
  // Traces are mapped as the store reads them: chunk k+1 while the database stores chunk k.
  const planned = planOtlpRequest(spans);
  // A model call whose content came first as log records gets it from them; one reported
  // twice, its reports in different requests, is counted once.
  const stored = await upsertSpanBatch(ctx.db.sql, planned, limits, {
    completeModelCalls: fillPayloadsFromLogs,
    compareModelCalls: markCallsRepeatedAcrossRequests,
    actor,
    prices: ctx.config.modelPrices,
  });
  const rejected = [...planned.rejected, ...stored.rejected];
  const rejectedSpans = rejected.reduce((n, r) => n + r.count, 0);
  // Experiment runs named by attributes are linked once their traces are stored; a link
  // that cannot be made is reported, never a reason to refuse the spans.
  const runs = experimentRunsOf(spans);
  const linkProblems = [...runs.problems, ...(await linkStoredRuns(ctx.db.sql, runs.links))];
  const errorMessage = [rejectionMessage(rejected), ...linkProblems.map((p) => `experiment run not linked: ${p}`)].filter(Boolean).join('; ');
  return { acceptedSpans: stored.acceptedSpans, rejectedSpans, errorMessage };
}

/** Stores one request's decoded log records as events of the spans they name; throws AppError for a request refused whole. */
export async function storeOtlpLogs(ctx: ServiceContext, records: OtlpLogRecord[], limits: OtlpReceiveLimits): Promise<OtlpLogsReceipt> {
  const actor = requireScope(ctx, 'ingest');
  if (records.length > limits.maxSpansPerRequest) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `Too many log records in one request: ${records.length}; at most ${limits.maxSpansPerRequest} are allowed (OTLP_MAX_SPANS_PER_REQUEST)`,
    );
  }
  const planned = planLogRecords(records);
  const stored = await storeLogEvents(ctx.db.sql, planned, limits, ingestWriter(actor, 'SDK'));
  const rejected = [...planned.rejected, ...stored.rejected];
  return {
    acceptedLogRecords: stored.acceptedLogRecords,
    rejectedLogRecords: rejected.reduce((n, r) => n + r.count, 0),
    errorMessage: rejectionMessage(rejected, 'log record'),
  };
}
