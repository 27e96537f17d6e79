// Token usage, model and cost, as data. Tokens count on LLM_CALL spans only (the mapper
// asks only for those): a wrapper (an agent span, Vercel's ai.generateText) repeats the
// sum of its model calls, and the trace's total must not count them twice.
//
// usageOf reads a span's attributes, or a stored span's metadata (which keeps every
// attribute below under its own key: none of them is input or output), so pricing can
// read the split the span was sent with, cache tokens included.
import type { JsonValue } from '@/lib/core/json';
import { SpanAttributes, toNumber } from '@/lib/features/otlp/attributes';
import type { Attributes } from '@/lib/features/otlp/types';
import type { ModelUsage } from '@/lib/features/pricing/shared';

export interface UsageTable {
  convention: string;
  /** Read only from spans with a key in this namespace (every name below, or `json`, starts with it). */
  namespace: string;
  /** A JSON-text attribute holding the counts under the names below (Langfuse's usage_details); else the names are attributes. */
  json?: string;
  input?: readonly string[];
  output?: readonly string[];
  /** Used when the span has neither input nor output count. */
  total?: string;
  /**
   * The input tokens not read from or written to the cache (the AI SDK's noCacheTokens):
   * the input when no input count is sent, and what tells whether the input count includes
   * the cache (equal to it: it does not), whatever the provider.
   */
  uncachedInput?: readonly string[];
  cacheRead?: readonly string[];
  cacheWrite?: readonly string[];
  /**
   * Whether the input count includes the cached tokens (OpenAI's prompt_tokens, GenAI's
   * input_tokens by the spec) or not (Anthropic's input_tokens, Langfuse's `input`).
   */
  inputIncludesCache: boolean;
}

/** The GenAI cache attributes: the semantic conventions' names, then OpenLLMetry's older ones. */
const GENAI_CACHE_READ = ['gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_read_input_tokens'];
const GENAI_CACHE_WRITE = ['gen_ai.usage.cache_creation.input_tokens', 'gen_ai.usage.cache_creation_input_tokens'];

/**
 * In priority order; the first table the span has counts for wins. The AI SDK's model calls
 * repeat their counts as gen_ai.usage.* without the cache split, and OpenLLMetry keeps both
 * when it rewrites them: the AI SDK's own tables come before GenAI's.
 */
export const USAGE_TABLES: readonly UsageTable[] = [
  {
    convention: 'openinference',
    namespace: 'llm',
    input: ['llm.token_count.prompt'],
    output: ['llm.token_count.completion'],
    total: 'llm.token_count.total',
    cacheRead: ['llm.token_count.prompt_details.cache_read'],
    cacheWrite: ['llm.token_count.prompt_details.cache_write'],
    inputIncludesCache: true,
  },
  {
    convention: 'vercel-ai',
    namespace: 'ai',
    input: ['ai.usage.inputTokens'],
    output: ['ai.usage.outputTokens'],
    uncachedInput: ['ai.usage.inputTokenDetails.noCacheTokens'],
    cacheRead: ['ai.usage.inputTokenDetails.cacheReadTokens', 'ai.usage.cachedInputTokens'],
    cacheWrite: ['ai.usage.inputTokenDetails.cacheWriteTokens'],
    inputIncludesCache: true,
  },
  { convention: 'vercel-ai (before 5)', namespace: 'ai', input: ['ai.usage.promptTokens'], output: ['ai.usage.completionTokens'], inputIncludesCache: true },
  { convention: 'vercel-ai embeddings', namespace: 'ai', total: 'ai.usage.tokens', inputIncludesCache: true },
  {
    convention: 'gen_ai',
    namespace: 'gen_ai',
    input: ['gen_ai.usage.input_tokens'],
    output: ['gen_ai.usage.output_tokens'],
    cacheRead: GENAI_CACHE_READ,
    cacheWrite: GENAI_CACHE_WRITE,
    inputIncludesCache: true,
  },
  {
    convention: 'gen_ai (before 1.27)',
    namespace: 'gen_ai',
    input: ['gen_ai.usage.prompt_tokens'],
    output: ['gen_ai.usage.completion_tokens'],
    cacheRead: GENAI_CACHE_READ,
    cacheWrite: GENAI_CACHE_WRITE,
    inputIncludesCache: true,
  },
  {
    convention: 'langfuse (OpenAI names)',
    namespace: 'langfuse',
    json: 'langfuse.observation.usage_details',
    input: ['prompt_tokens'],
    output: ['completion_tokens'],
    total: 'total_tokens',
    cacheRead: ['cached_tokens', 'prompt_tokens_details.cached_tokens'],
    inputIncludesCache: true,
  },
  {
    convention: 'langfuse',
    namespace: 'langfuse',
    json: 'langfuse.observation.usage_details',
    input: ['input'],
    output: ['output'],
    total: 'total',
    cacheRead: ['input_cached_tokens', 'cache_read_input_tokens', 'input_cache_read'],
    cacheWrite: ['cache_creation_input_tokens', 'input_cache_creation'],
    inputIncludesCache: false,
  },
];

/** The model that answered, else the model asked for. */
export const RESPONSE_MODEL_KEYS: readonly string[] = ['gen_ai.response.model', 'ai.response.model'];
export const REQUEST_MODEL_KEYS: readonly string[] = ['gen_ai.request.model', 'llm.model_name', 'ai.model.id', 'langfuse.observation.model.name'];
export const PROVIDER_KEYS: readonly string[] = ['gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system', 'ai.model.provider'];
/** Providers whose instrumentations send their own input count, which leaves the cached tokens out. */
const CACHE_EXCLUDED_PROVIDERS = /^(anthropic|aws\.bedrock|gcp\.vertex_ai)\b/;

/** Cost in USD, first present wins; on any span that carries it. `field`: a number inside the JSON text (Langfuse's cost_details). */
export const COST_KEYS: ReadonlyArray<{ key: string; field?: string }> = [
  { key: 'llm.cost.total' },
  { key: 'gen_ai.usage.cost' },
  { key: 'langfuse.observation.cost_details', field: 'total' },
];

/** A call's usage, in the terms pricing reads (lib/features/pricing/types.ts). */
export type Usage = ModelUsage;

type Source = SpanAttributes | Attributes | { readonly [key: string]: JsonValue };
const attributesOf = (source: Source): SpanAttributes =>
  source instanceof SpanAttributes ? source : new SpanAttributes(source as Attributes);

type Reader = (name: string) => number | undefined;
const nonNegative = (n: number | undefined): number | undefined => (n !== undefined && n >= 0 ? n : undefined);

/** Reads counts from attributes, or from a JSON object attribute (nested names by dots). */
function readerFor(attributes: SpanAttributes, table: UsageTable): Reader | undefined {
  if (table.json === undefined) return (name) => nonNegative(attributes.number(name));
  const object = attributes.json(table.json);
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined;
  return (name) => {
    let value: JsonValue | undefined = object;
    for (const part of name.split('.')) {
      value = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, part) ? value[part] : undefined;
    }
    return value === undefined || (typeof value === 'object' && value !== null) ? undefined : nonNegative(toNumber(value));
  };
}

const first = (read: Reader, names: readonly string[] | undefined): number | undefined => {
  for (const name of names ?? []) {
    const n = read(name);
    if (n !== undefined) return n;
  }
  return undefined;
};

const textOf = (attributes: SpanAttributes, keys: readonly string[]): string | undefined => {
  for (const key of keys) {
    const text = attributes.text(key);
    if (text !== undefined) return text;
  }
  return undefined;
};

/** The model asked for (what a duplicate report repeats; the response model may be dated). */
export function requestModelOf(source: Source): string | undefined {
  return textOf(attributesOf(source), REQUEST_MODEL_KEYS);
}

interface Counts {
  table: UsageTable;
  input?: number;
  output?: number;
  total?: number;
  uncached?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

function countsOf(attributes: SpanAttributes): Counts | undefined {
  for (const table of USAGE_TABLES) {
    if (!attributes.hasNamespace(table.namespace)) continue;
    const read = readerFor(attributes, table);
    if (!read) continue;
    const uncached = first(read, table.uncachedInput);
    const cacheRead = first(read, table.cacheRead);
    const cacheWrite = first(read, table.cacheWrite);
    // Without an input count, its parts are the input.
    const input = first(read, table.input) ?? (uncached === undefined ? undefined : uncached + (cacheRead ?? 0) + (cacheWrite ?? 0));
    const output = first(read, table.output);
    const total = table.total === undefined ? undefined : read(table.total);
    if (input === undefined && output === undefined && total === undefined) continue;
    return { table, input, output, total, uncached, cacheRead, cacheWrite };
  }
  return undefined;
}

/**
 * A model call's usage in every convention we know: counts of the first convention that
 * has any (an embedding's lone total is its input), the cache split when it is sent,
 * the model and the provider.
 */
export function usageOf(source: Source): Usage {
  return modelCallOf(attributesOf(source)).usage;
}

/** A model call's usage and its token count (tokenCountOf), from one read of its counts. */
export function modelCallOf(attributes: SpanAttributes): { usage: Usage; tokenCount: number | null } {
  const usage: Usage = { inputIncludesCache: true };
  const model = textOf(attributes, RESPONSE_MODEL_KEYS) ?? textOf(attributes, REQUEST_MODEL_KEYS);
  const provider = textOf(attributes, PROVIDER_KEYS);
  if (model !== undefined) usage.model = model;
  if (provider !== undefined) usage.provider = provider;
  const counts = countsOf(attributes);
  if (!counts) return { usage, tokenCount: null };
  const input = counts.input ?? (counts.output === undefined ? counts.total : undefined);
  if (input !== undefined) usage.inputTokens = input;
  if (counts.output !== undefined) usage.outputTokens = counts.output;
  if (counts.cacheRead !== undefined) usage.cacheReadTokens = counts.cacheRead;
  if (counts.cacheWrite !== undefined) usage.cacheWriteTokens = counts.cacheWrite;
  const cached = (counts.cacheRead ?? 0) + (counts.cacheWrite ?? 0);
  usage.inputIncludesCache =
    counts.uncached !== undefined && input !== undefined && cached > 0
      ? // The uncached part says it: an input count equal to it leaves the cache out.
        input !== counts.uncached
      : counts.table.inputIncludesCache &&
        !(provider !== undefined && CACHE_EXCLUDED_PROVIDERS.test(provider)) &&
        // A count smaller than its own cached part cannot include it.
        !(input !== undefined && cached > input);
  return { usage, tokenCount: tokenCountFrom(counts, usage) };
}

/** Input (with its cached tokens) + output tokens, or the lone total when that is all the call reports. */
function tokenCountFrom(counts: Counts, usage: Usage): number | null {
  if (counts.input === undefined && counts.output === undefined) return counts.total ?? null;
  const cached = usage.inputIncludesCache ? 0 : (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  return (counts.input ?? 0) + cached + (counts.output ?? 0);
}

/** Input (with its cached tokens) + output tokens of a model call, or null when it reports none. */
export function tokenCountOf(attributes: SpanAttributes): number | null {
  return modelCallOf(attributes).tokenCount;
}

export function costOf(attributes: SpanAttributes): number | null {
  for (const { key, field } of COST_KEYS) {
    let cost: number | undefined;
    if (field === undefined) cost = attributes.number(key);
    else {
      const object = attributes.json(key);
      if (typeof object === 'object' && object !== null && !Array.isArray(object) && Object.hasOwn(object, field)) {
        cost = toNumber(object[field]);
      }
    }
    if (cost !== undefined && cost >= 0) return cost;
  }
  return null;
}
