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
  /** The model's prices when they are fixed per-million-token rates only (see tokenPrice). */
  rates?: TokenRates;
}

/** A model's fixed rates: USD per million tokens, in the order the catalog lists them (its sums run in that order). */
interface TokenRates {
  rates: ReadonlyArray<readonly [key: RateKey, perMillion: number]>;
  /** How many usage units the model prices (the catalog's rounding tolerance scales with it). */
  units: number;
}
type RateKey = 'input_mtok' | 'output_mtok' | 'cache_read_mtok' | 'cache_write_mtok';
const RATE_KEYS: ReadonlySet<string> = new Set<RateKey>(['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok']);

/**
 * Most models have one fixed rate per token kind, plus rates for usage we never report
 * (web searches, audio, 1-hour cache writes), which add exactly 0. The catalog's general
 * computation (tiers, dated prices, a lattice of usage units) costs ~8 us a call; for
 * these models its result is the sum in tokenPrice, done in the same order of operations,
 * so the same double (price.test.ts compares the two over the whole catalog). Anything
 * else (tiered or dated prices, a price per request) goes through the catalog.
 */
function ratesOf(model: Provider['models'][number]): TokenRates | undefined {
  if (Array.isArray(model.prices)) return undefined;
  const rates: Array<readonly [RateKey, number]> = [];
  let units = 0;
  for (const [key, value] of Object.entries(model.prices)) {
    if (value === undefined) continue;
    if (typeof value !== 'number' || key.startsWith('requests')) return undefined;
    units++;
    if (RATE_KEYS.has(key)) rates.push([key as RateKey, value]);
  }
  return { rates, units };
}

/** The catalog's price for fixed rates; undefined when it would refuse the usage. */
export function tokenPrice(usage: CatalogUsage, { rates, units }: TokenRates): number | undefined {
  let read = 0;
  let write = 0;
  for (const [key] of rates) {
    if (key === 'cache_read_mtok') read = usage.cache_read_tokens;
    else if (key === 'cache_write_mtok') write = usage.cache_write_tokens;
  }
  // Cache tokens with a rate of their own are a part of the input; the rest of the input
  // is priced at the input rate (cache tokens without a rate of their own among it).
  const cached = 0 + read + write;
  let uncached = usage.input_tokens - cached;
  if (uncached < 0) {
    if (Math.abs(uncached) > Number.EPSILON * Math.max(1, usage.input_tokens, cached) * (units + 1)) return undefined;
    uncached = 0;
  }
  let input = 0;
  let output = 0;
  for (const [key, perMillion] of rates) {
    if (key === 'output_mtok') output += (perMillion * usage.output_tokens) / 1e6;
    else input += (perMillion * (key === 'input_mtok' ? uncached : key === 'cache_read_mtok' ? read : write)) / 1e6;
  }
  return input + output + 0;
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
        rates: ratesOf(probe.model),
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
  if (found.rates) {
    const costUsd = tokenPrice(usage, found.rates);
    return costUsd === undefined ? null : { costUsd, modelId: found.modelId };
  }
  try {
    const result = calcPrice(usage, model, { provider: found.provider, ...(at && { timestamp: at }) });
    if (!result || !Number.isFinite(result.total_price)) return null;
    return { costUsd: result.total_price, modelId: found.modelId };
  } catch {
    return null;
  }
}
