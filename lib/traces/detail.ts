// GET /api/traces/{id}: one trace with every child, in the spec's order.
import { AppError } from '@/lib/errors';
import type { Db } from '@/lib/db';
import { toDecisionPointRecord, toEventRecord, toSpanRecord, toTraceRecord } from './serialize';
import type { TraceDetail } from './types';
import { isValidId } from './validate';

/** Empty, longer than 256 characters, or holding control characters: not an id we could have stored. */
export function isValidTraceId(id: string): boolean {
  return isValidId(id);
}

export async function getTraceOrThrow(db: Db, id: string): Promise<TraceDetail> {
  if (!isValidTraceId(id)) throw new AppError('VALIDATION', 'Invalid trace ID');
  const row = await db.trace.findUnique({
    where: { id },
    include: {
      decisionPoints: { orderBy: [{ timestamp: 'asc' }, { id: 'asc' }] },
      spans: { orderBy: [{ startedAt: 'asc' }, { id: 'asc' }] },
      events: { orderBy: [{ timestamp: 'asc' }, { id: 'asc' }] },
    },
  });
  if (!row) throw new AppError('NOT_FOUND', 'Trace not found');
  const { decisionPoints, spans, events, ...trace } = row;
  return {
    ...toTraceRecord(trace),
    decisionPoints: decisionPoints.map(toDecisionPointRecord),
    spans: spans.map(toSpanRecord),
    events: events.map(toEventRecord),
  };
}
