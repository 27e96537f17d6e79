// The model an LLM span called, as a reader wants it at a glance: the model its cost was
// priced as, else the one its attributes name (response model before request model, as
// the snapshot that served the call is the more precise). Pure; the viewer uses it.
import type { JsonValue, SpanRecord, SpanSummary } from './types';

/** Attribute keys naming the model, most precise first, across the conventions the ingest paths keep in metadata. */
export const MODEL_KEYS = [
  'gen_ai.response.model',
  'gen_ai.request.model',
  'llm.model_name',
  'ai.response.model',
  'ai.model.id',
  'langfuse.observation.model.name',
  'model',
] as const;

export function spanModelOf(span: Pick<SpanRecord, 'pricedModel' | 'metadata'>): string | null {
  const metadata = span.metadata;
  if (isObject(metadata)) {
    for (const key of MODEL_KEYS) {
      const value = metadata[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
    }
  }
  return span.pricedModel;
}

/** The model of a span summary: the outline's (spanModelOf in SQL, lib/features/traces/outline.ts), else the priced model. */
export function summaryModelOf(span: Pick<SpanSummary, 'model' | 'pricedModel'>): string | null {
  return span.model !== undefined ? span.model : span.pricedModel;
}

/** How the viewer words a span's cost source, for the "estimated" mark's title. */
export function costSourceNote(span: Pick<SpanRecord, 'costSource' | 'pricedModel'>): string | null {
  if (span.costSource === 'catalog') return `Estimated from the tokens at the genai-prices catalog's price for ${span.pricedModel ?? 'the model'}`;
  if (span.costSource === 'custom') return `Estimated from the tokens at MODEL_PRICES_FILE's price for ${span.pricedModel ?? 'the model'}`;
  return null;
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
