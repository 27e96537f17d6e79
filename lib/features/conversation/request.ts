// What a model call's request holds beside its conversation: its parameters (from the
// request object and from the span metadata the tracing conventions record them in), the
// definitions of the tools it offered, and any other key of the request. The chat shows
// the messages; this is everything else, so that no field of the input is out of view.
// Pure and client-safe.
import type { JsonValue } from '@/lib/core/json';
import { METADATA_PARAMETER_SOURCES, REQUEST_PARAMETER_KEYS, REQUEST_PARAMETERS, REQUEST_TOOL_KEYS } from './parameters';
import { conversationKeys, jsonish, toConversation } from './parse';

export interface Parameter {
  /** As sent (`max_tokens`, `maxOutputTokens`). */
  name: string;
  value: JsonValue;
  /** Where it was read: `input`, `input.value` or the metadata key. */
  from: string;
}

export interface ToolDefinition {
  name: string;
  description: string | null;
  /** Its kind when it is not a plain function (`provider-defined`, `web_search_20250305`). */
  kind: string | null;
  /** The arguments' JSON schema, whichever key it came under. */
  schema: JsonValue | null;
  /** Any other field of the definition (`strict`, `cache_control`, a provider tool's `args`). */
  other: { [key: string]: JsonValue } | null;
}

export interface RequestDetails {
  parameters: Parameter[];
  tools: ToolDefinition[];
  /** The request's keys that are neither conversation, parameter nor tools; null when none. */
  extra: { [key: string]: JsonValue } | null;
}

type Obj = { [key: string]: JsonValue };

const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: JsonValue | undefined): string | null => (typeof v === 'string' && v !== '' ? v : null);

const SCHEMA_KEYS = ['parameters', 'inputSchema', 'input_schema', 'parameters_json_schema'];

/** Sets a key on an object built here: a `__proto__` key from parsed JSON stays a plain key. */
function put(object: Obj, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** One tool as OpenAI chat ({type, function: {...}}), Responses, GenAI, the AI SDK or Anthropic define it. */
function toolDefinition(t: Obj): ToolDefinition {
  const fn = isObj(t.function) ? t.function : t;
  const schemaKey = SCHEMA_KEYS.find((k) => fn[k] !== undefined);
  const type = str(t.type);
  const other: Obj = {};
  for (const [key, value] of Object.entries(fn)) {
    if (key !== 'name' && key !== 'description' && key !== schemaKey && !(fn === t && key === 'type')) put(other, key, value);
  }
  if (fn !== t) for (const [key, value] of Object.entries(t)) if (key !== 'function' && key !== 'type') put(other, key, value);
  const name = str(fn.name) ?? str(t.name);
  return {
    // A built-in tool ({type: 'web_search_preview'}) is named by its type alone.
    name: name ?? type ?? '(unnamed)',
    description: str(fn.description),
    kind: type === 'function' || name === null ? null : type,
    schema: schemaKey ? fn[schemaKey] : null,
    other: Object.keys(other).length ? other : null,
  };
}

/** The tool definitions of a `tools` list; null when it is not a list of objects (then shown as it is). */
export function toolDefinitions(tools: JsonValue | undefined): ToolDefinition[] | null {
  if (!Array.isArray(tools) || !tools.every(isObj)) return null;
  return (tools as Obj[]).map(toolDefinition);
}

/** snake_case of a camelCase name, so `topP` and `top_p` are one parameter. */
const canonical = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const RANK = new Map<string, number>();
REQUEST_PARAMETERS.forEach((name, i) => {
  if (!RANK.has(canonical(name))) RANK.set(canonical(name), i);
});

class ParameterList {
  private readonly list: Parameter[] = [];
  private readonly seen = new Set<string>();

  /** The first value of a parameter wins: the caller adds the request's before the metadata's. */
  add(name: string, value: JsonValue | undefined, from: string): void {
    if (value === undefined || this.seen.has(canonical(name))) return;
    this.seen.add(canonical(name));
    this.list.push({ name, value, from });
  }

  /** The known parameters in their usual order (the model first), then the others by name. */
  sorted(): Parameter[] {
    const rank = (p: Parameter) => RANK.get(canonical(p.name)) ?? Infinity;
    return [...this.list].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  }
}

function metadataParameters(metadata: JsonValue | undefined, into: ParameterList): void {
  if (!isObj(metadata)) return;
  for (const source of METADATA_PARAMETER_SOURCES) {
    if ('prefix' in source) {
      for (const [key, value] of Object.entries(metadata)) {
        if (key.startsWith(source.prefix) && key.length > source.prefix.length) into.add(key.slice(source.prefix.length), jsonish(value), key);
      }
    } else if ('as' in source) {
      into.add(source.as, metadata[source.key] === undefined ? undefined : jsonish(metadata[source.key]), source.key);
    } else {
      const spread = jsonish(metadata[source.key]);
      if (isObj(spread)) for (const [name, value] of Object.entries(spread)) into.add(name, value, source.key);
    }
  }
}

/** Whether a text is already in the conversation (OpenInference's input.value often repeats the prompt). */
function inConversation(textValue: string, value: JsonValue): boolean {
  const t = textValue.trim();
  return (toConversation(value) ?? []).some((m) => m.parts.some((p) => p.kind === 'text' && p.text.trim() === t));
}

interface Found {
  parameters: ParameterList;
  tools: ToolDefinition[];
}

/**
 * A request's keys other than `skip` (its conversation): parameters and tools into `found`,
 * the rest into `extra`. `from` names where they were read; `toolsShown` when the tools
 * are already listed.
 */
function readRequest(request: Obj, read: { skip: string[]; from: string; toolsShown: boolean }, found: Found, extra: Obj): void {
  for (const [key, value] of Object.entries(request)) {
    if (read.skip.includes(key)) continue;
    if (REQUEST_PARAMETER_KEYS.has(key)) {
      found.parameters.add(key, value, read.from);
      continue;
    }
    const defined = (REQUEST_TOOL_KEYS as readonly string[]).includes(key) ? toolDefinitions(value) : null;
    if (defined) {
      if (!read.toolsShown) found.tools.push(...defined);
      continue;
    }
    put(extra, key, value);
  }
}

/**
 * A model call's request beside its conversation. `input` gives parameters, tools and
 * other keys only when it is a request object read as a conversation (any other input is
 * shown whole, as JSON); `metadata` gives the parameters the conventions record there.
 */
export function requestDetails(input: JsonValue | undefined, metadata: JsonValue | undefined): RequestDetails {
  const found: Found = { parameters: new ParameterList(), tools: [] };
  const extra: Obj = {};
  const chatKeys = conversationKeys(input);
  if (chatKeys && isObj(input)) {
    const raw = input.value;
    // OpenInference keeps the raw request (input.value) beside the messages it rebuilt:
    // its parameters are the call's, its messages and tools the ones already shown.
    const rawRequest = Object.hasOwn(input, 'messages') && isObj(raw) ? raw : null;
    const rawPrompt = Object.hasOwn(input, 'messages') && typeof raw === 'string' && inConversation(raw, input);
    readRequest(input, { skip: rawRequest || rawPrompt ? [...chatKeys, 'value'] : chatKeys, from: 'input', toolsShown: false }, found, extra);
    if (rawRequest) {
      const rawExtra: Obj = {};
      const skip = conversationKeys(rawRequest) ?? ['messages'];
      readRequest(rawRequest, { skip, from: 'input.value', toolsShown: found.tools.length > 0 }, found, rawExtra);
      if (Object.keys(rawExtra).length) extra.value = rawExtra;
    }
  }
  metadataParameters(metadata, found.parameters);
  return { parameters: found.parameters.sorted(), tools: found.tools, extra: Object.keys(extra).length ? extra : null };
}

/** A parameter's value as one line: text as it is (quoted when its edges are blank), the rest as JSON. */
export function parameterText(value: JsonValue): string {
  if (typeof value === 'string' && value !== '' && value.trim() === value) return value;
  return JSON.stringify(value);
}
