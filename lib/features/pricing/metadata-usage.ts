// The JSON API's model calls: a span's metadata names the model and splits the tokens.
// Metadata is any JSON the client chose, so anything unreadable here means "no usage",
// never a refused batch. Accepted shapes, as data (first match wins):
//   metadata.model, metadata.provider (optional): strings
//   metadata.usage: one of
//     ours / the catalog's: input_tokens (all input, cache included), output_tokens,
//                           cache_read_tokens, cache_write_tokens
//     Anthropic Messages:   input_tokens (uncached only), output_tokens,
//                           cache_read_input_tokens, cache_creation_input_tokens
//     OpenAI Chat:          prompt_tokens (cache included), completion_tokens,
//                           prompt_tokens_details.cached_tokens
//     OpenAI Responses:     input_tokens (cache included), output_tokens,
//                           input_tokens_details.cached_tokens
import type { JsonValue } from '@/lib/core/json';
import type { ModelUsage } from './types';

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A key path into the usage object. */
type Path = readonly string[];

interface UsageShape {
  name: string;
  /** The shape applies when the usage object has one of these. */
  marker: readonly Path[];
  input: Path;
  output: Path;
  /** The first of these present. */
  cacheRead?: readonly Path[];
  cacheWrite?: Path;
  inputIncludesCache: boolean;
}

export const USAGE_SHAPES: readonly UsageShape[] = [
  {
    name: 'anthropic',
    marker: [['cache_read_input_tokens'], ['cache_creation_input_tokens']],
    input: ['input_tokens'],
    output: ['output_tokens'],
    cacheRead: [['cache_read_input_tokens']],
    cacheWrite: ['cache_creation_input_tokens'],
    inputIncludesCache: false,
  },
  {
    name: 'openai chat',
    marker: [['prompt_tokens'], ['completion_tokens']],
    input: ['prompt_tokens'],
    output: ['completion_tokens'],
    cacheRead: [['prompt_tokens_details', 'cached_tokens']],
    inputIncludesCache: true,
  },
  {
    name: 'crossroads / openai responses',
    marker: [['input_tokens'], ['output_tokens'], ['cache_read_tokens'], ['cache_write_tokens']],
    input: ['input_tokens'],
    output: ['output_tokens'],
    cacheRead: [['cache_read_tokens'], ['input_tokens_details', 'cached_tokens']],
    cacheWrite: ['cache_write_tokens'],
    inputIncludesCache: true,
  },
];

function at(obj: Obj, path: Path): JsonValue | undefined {
  let value: JsonValue | undefined = obj;
  for (const key of path) {
    if (!isObj(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

function tokens(obj: Obj, path: Path | undefined): number | undefined {
  if (!path) return undefined;
  const n = at(obj, path);
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

const text = (v: JsonValue | undefined) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The counts of a usage object in one of the shapes above (no model needed), or null. */
export function usageCounts(usage: JsonValue | undefined): Omit<ModelUsage, 'model' | 'provider'> | null {
  if (!isObj(usage)) return null;
  const shape = USAGE_SHAPES.find((s) => s.marker.some((path) => at(usage, path) !== undefined));
  if (!shape) return null;
  return {
    inputTokens: tokens(usage, shape.input),
    outputTokens: tokens(usage, shape.output),
    cacheReadTokens: shape.cacheRead?.map((path) => tokens(usage, path)).find((n) => n !== undefined),
    cacheWriteTokens: tokens(usage, shape.cacheWrite),
    inputIncludesCache: shape.inputIncludesCache,
  };
}

/** The model call a JSON API span's metadata describes, or null when it names no model or tokens. */
export function usageFromMetadata(metadata: JsonValue): ModelUsage | null {
  if (!isObj(metadata)) return null;
  const model = text(metadata.model);
  if (model === undefined) return null;
  const counts = usageCounts(metadata.usage);
  if (!counts) return null;
  const result: ModelUsage = { ...counts, model };
  const provider = text(metadata.provider);
  if (provider !== undefined) result.provider = provider;
  return result;
}
