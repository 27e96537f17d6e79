// One model call's price: the operator's own prices (MODEL_PRICES_FILE) first, then the
// catalog. Deterministic for given arguments (the catalog is bundled data); the only state
// is the catalog adapter's lookup cache.
import { catalogPrice } from './catalog';
import type { CustomPrice, ModelCallPrice, ModelUsage } from './types';

const count = (n: number | undefined): number => (n !== undefined && Number.isFinite(n) && n >= 0 ? n : 0);

/** True when the usage reports any token count. */
export function hasTokens(usage: ModelUsage): boolean {
  return [usage.inputTokens, usage.outputTokens, usage.cacheReadTokens, usage.cacheWriteTokens].some(
    (n) => n !== undefined && Number.isFinite(n) && n >= 0,
  );
}

// Matched custom entries per price list and model id: a file's patterns are tried once per model.
const customMatches = new WeakMap<readonly CustomPrice[], Map<string, CustomPrice | null>>();

function customPriceFor(model: string, prices: readonly CustomPrice[]): CustomPrice | null {
  if (prices.length === 0) return null;
  let byModel = customMatches.get(prices);
  if (!byModel) customMatches.set(prices, (byModel = new Map()));
  let entry = byModel.get(model);
  if (entry === undefined) {
    const id = model.toLowerCase();
    entry = prices.find((p) => (p.model !== undefined ? p.model === id : p.pattern!.test(model))) ?? null;
    if (byModel.size < 2_000) byModel.set(model, entry);
  }
  return entry;
}

/**
 * The price of a model call, or null when it cannot be priced: no model, no tokens, a model
 * neither the custom prices nor the catalog know, or usage that does not add up (more
 * cache tokens than input tokens). Never throws.
 */
export function priceModelCall(
  usage: ModelUsage,
  model: string | undefined,
  provider: string | undefined,
  customPrices: readonly CustomPrice[],
  at?: Date,
): ModelCallPrice | null {
  if (model === undefined || model.trim() === '' || !hasTokens(usage)) return null;
  const read = count(usage.cacheReadTokens);
  const write = count(usage.cacheWriteTokens);
  const output = count(usage.outputTokens);
  // Input as the catalog counts it: every input token, cached or not.
  const input = usage.inputIncludesCache ? count(usage.inputTokens) : count(usage.inputTokens) + read + write;
  const uncached = input - read - write;
  if (uncached < 0) return null;

  const custom = customPriceFor(model, customPrices);
  if (custom) {
    const costUsd =
      (uncached * custom.inputPerMillion +
        read * custom.cacheReadPerMillion +
        write * custom.cacheWritePerMillion +
        output * custom.outputPerMillion) /
      1e6;
    return { costUsd, source: 'custom', pricedModel: custom.label };
  }
  const found = catalogPrice(
    { input_tokens: input, output_tokens: output, cache_read_tokens: read, cache_write_tokens: write },
    model,
    provider,
    at,
  );
  return found && { costUsd: found.costUsd, source: 'catalog', pricedModel: found.modelId };
}
