// A span's cost as stored, decided once per span on both ingest paths before storage
// (lib/features/ingest/ingest.ts, lib/features/ingest/upsert-spans.ts): the client's cost always wins;
// otherwise a model call (LLM_CALL with a model and tokens) is priced; otherwise none.
import { clampNumber } from '@/lib/core/limits';
import type { JsonValue, SpanType } from '@/lib/features/traces/shared';
import { hasTokens, priceModelCall } from './price';
import type { CostSource, CustomPrice, ModelUsage } from './types';

export interface SpanCostInput {
  type: SpanType;
  /** The cost the client sent, or null. */
  costUsd: number | null;
  usage?: ModelUsage | null;
  startedAt: Date;
  metadata: JsonValue;
}

export interface SpanCost {
  costUsd: number | null;
  costSource: CostSource | null;
  pricedModel: string | null;
  /** A model call with no cost of its own that no price was found for (double reports excluded). */
  unpriced: boolean;
  /** Whether the trace's tokens and cost count this span: false for a double report. */
  counted: boolean;
}

/**
 * A model call reported twice (two instrumentations of one call, e.g. OpenLLMetry's
 * LangChain and OpenAI ones) carries `metadata.duplicateOf` = the span id of the copy
 * that is counted; the trace's totals count the call once.
 */
export function isDuplicateReport(metadata: JsonValue): boolean {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return false;
  const of = metadata.duplicateOf;
  return typeof of === 'string' && of !== '';
}

export function spanCost(span: SpanCostInput, customPrices: readonly CustomPrice[]): SpanCost {
  const counted = !isDuplicateReport(span.metadata);
  // Within the stored bound whichever way it came: OTLP's attributes and a price times a
  // reported token count are not refused, only clamped.
  if (span.costUsd !== null) return { costUsd: clampNumber(span.costUsd, 'cost'), costSource: 'client', pricedModel: null, unpriced: false, counted };
  const usage = span.usage;
  if (span.type !== 'LLM_CALL' || !usage || !usage.model || !hasTokens(usage)) {
    return { costUsd: null, costSource: null, pricedModel: null, unpriced: false, counted };
  }
  const price = priceModelCall(usage, usage.model, usage.provider, customPrices, span.startedAt);
  if (!price) return { costUsd: null, costSource: null, pricedModel: null, unpriced: counted, counted };
  return { costUsd: clampNumber(price.costUsd, 'cost'), costSource: price.source, pricedModel: price.pricedModel, unpriced: false, counted };
}
