// A span's row as both ingest paths store it (the JSON batch, OTLP's span batches): the
// registry's columns (lib/db/columns.ts SPAN_TABLE) from the validated span and its cost.
// Its payloads travel apart (each path addresses them its own way).
import type { RowOf, SPAN_TABLE } from '@/lib/db/columns';
import type { SpanCost } from '@/lib/features/pricing';
import type { SpanInput } from './validate';

export const iso = (date: Date | null) => (date === null ? null : date.toISOString());

type SpanFields = Pick<SpanInput, 'id' | 'parentSpanId' | 'name' | 'type' | 'tokenCount' | 'durationMs' | 'status' | 'statusMessage' | 'startedAt' | 'endedAt'>;

export function spanRow(traceId: string, s: SpanFields, cost: Pick<SpanCost, 'costUsd' | 'costSource' | 'pricedModel'>): RowOf<typeof SPAN_TABLE> {
  return {
    traceId,
    id: s.id,
    parentSpanId: s.parentSpanId,
    name: s.name,
    type: s.type,
    tokenCount: s.tokenCount,
    costUsd: cost.costUsd,
    costSource: cost.costSource,
    pricedModel: cost.pricedModel,
    durationMs: s.durationMs,
    status: s.status,
    statusMessage: s.statusMessage,
    startedAt: iso(s.startedAt),
    endedAt: iso(s.endedAt),
  };
}
