// What pricing reads and answers. Plain types: no catalog, no I/O.

/**
 * A model call's token usage, as a transport reports it (lib/otlp's usageOf, the JSON
 * API's span metadata). Counts are non-negative; absent means not reported.
 */
export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /**
   * True when inputTokens already counts the cache reads and writes (OpenAI, GenAI
   * attributes, the AI SDK); false when it counts only the uncached input (Anthropic,
   * Langfuse usage_details), so the cache tokens are added to it.
   */
  inputIncludesCache: boolean;
  /** The response model when sent, else the request model. */
  model?: string;
  /** The provider or system the call went to (GenAI gen_ai.provider.name / gen_ai.system, ...). */
  provider?: string;
}

export type { CostSource } from '@/lib/features/traces/shared';

/** A price computed for a model call. */
export interface ModelCallPrice {
  costUsd: number;
  source: 'catalog' | 'custom';
  /** The catalog's model id, or the MODEL_PRICES_FILE entry's model (or pattern), the price was found for. */
  pricedModel: string;
}

export type { CustomPrice } from '@/lib/core/custom-prices';
