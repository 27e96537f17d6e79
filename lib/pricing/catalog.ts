// The bundled price catalog (@pydantic/genai-prices; its data ships with the package, and
// its auto-update is never enabled, so nothing is fetched at run time).
//
// Finding a model costs far more than pricing it (the catalog tries each provider's and
// model's match rules, some of them regular expressions): ~80-130 us a call, against a few
// for a provider holding only the model. So each (provider, model) is resolved once per
// process to a one-model provider, and calls are priced against that.
import { calcPrice, findProvider, type Provider } from '@pydantic/genai-prices';

/** GenAI provider names the catalog's own provider matching does not know. */
const PROVIDER_ALIASES: Readonly<Record<string, string>> = { x_ai: 'x-ai', 'gcp.gen_ai': 'google' };

/** Token counts in the catalog's terms: input_tokens includes the cache reads and writes. */
export interface CatalogUsage extends Record<string, number> {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

interface Resolved {
  /** The provider with only the matched model, matching exactly the model id it was resolved for. */
  provider: Provider;
  modelId: string;
}

// Bounded: model ids come from clients. Past the bound it starts over, which only costs lookups.
const MAX_RESOLVED = 2_000;
const resolved = new Map<string, Resolved | null>();

function catalogProviderId(provider: string | undefined): string | undefined {
  if (provider === undefined) return undefined;
  const name = provider.trim().toLowerCase();
  if (name === '') return undefined;
  const id = PROVIDER_ALIASES[name] ?? name;
  return findProvider({ providerId: id })?.id;
}

const PROBE = { input_tokens: 0 };

function resolve(model: string, provider: string | undefined): Resolved | null {
  const key = `${provider ?? ''}\u0000${model}`;
  const hit = resolved.get(key);
  if (hit !== undefined) return hit;
  // A provider the catalog knows narrows the search to it (and its own fallbacks); an
  // unknown or absent one leaves the model to be matched alone.
  const providerId = catalogProviderId(provider);
  let found: Resolved | null = null;
  try {
    const probe = calcPrice(PROBE, model, providerId ? { providerId } : undefined);
    if (probe) {
      const modelId = model.toLowerCase().trim();
      found = {
        modelId: probe.model.id,
        provider: {
          ...probe.provider,
          fallback_model_providers: undefined,
          models: [{ ...probe.model, match: { equals: modelId } }],
        },
      };
    }
  } catch {
    found = null;
  }
  if (resolved.size >= MAX_RESOLVED) resolved.clear();
  resolved.set(key, found);
  return found;
}

/**
 * The catalog's price of one call, or null: a model (or provider) it does not know, or
 * usage it refuses (e.g. more cache tokens than input tokens). Never throws.
 */
export function catalogPrice(
  usage: CatalogUsage,
  model: string,
  provider: string | undefined,
  at: Date | undefined,
): { costUsd: number; modelId: string } | null {
  const found = resolve(model, provider);
  if (!found) return null;
  try {
    const result = calcPrice(usage, model, { provider: found.provider, ...(at && { timestamp: at }) });
    if (!result || !Number.isFinite(result.total_price)) return null;
    return { costUsd: result.total_price, modelId: found.modelId };
  } catch {
    return null;
  }
}
