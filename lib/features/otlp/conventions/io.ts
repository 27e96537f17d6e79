// A span's input and output, as data: per convention, the attributes that hold them.
// The first convention (in this order) that has any of its input fields gives the input,
// and likewise for the output. When one field is present, it is the value; when several
// are (an LLM call's messages and tools), the value is an object keyed by their `as`
// names. Attributes used here leave the span's metadata; every other one stays there.
import type { JsonValue } from '@/lib/core/json';
import { jsonOrText, setKey, type SpanAttributes } from '@/lib/features/otlp/attributes';

export type IoRead =
  /** JSON text parsed (a string that is not JSON is kept as it is). */
  | { kind: 'json' }
  /** Taken as sent. */
  | { kind: 'text' }
  /** JSON text parsed when the mime-type attribute says application/json (OpenInference). */
  | { kind: 'mime'; mimeKey: string }
  /** An array of JSON texts, each parsed (Vercel's ai.prompt.tools). */
  | { kind: 'jsonItems' }
  /**
   * OpenLLMetry's entity input, JSON text of `{ args: [...], kwargs: {...} }`, unwrapped
   * when it holds one thing (see entityValue).
   */
  | { kind: 'entity' }
  /**
   * An OpenInference flattened list (`key.N.wrapper.field`), rebuilt; `parseLeaves` parses
   * its JSON-text leaves, `unwrap` replaces each `{ [unwrap]: x }` item by x.
   */
  | { kind: 'list'; wrappers: readonly string[]; parseLeaves?: boolean; unwrap?: string };

export interface IoField {
  key: string;
  as: string;
  read: IoRead;
}

export interface IoTable {
  convention: string;
  /** Read only from spans with a key in this namespace (every field's key starts with it). */
  namespace?: string;
  input: readonly IoField[];
  output: readonly IoField[];
}

const json: IoRead = { kind: 'json' };
const text: IoRead = { kind: 'text' };
/** The element kinds OpenInference repeats after each index of a flattened list (`llm.input_messages.0.message.role`). */
export const OPENINFERENCE_WRAPPERS = ['message', 'tool_call', 'message_content', 'document', 'tool', 'embedding'] as const;
const OI_WRAPPERS = OPENINFERENCE_WRAPPERS;
const list: IoRead = { kind: 'list', wrappers: OI_WRAPPERS };

export const OPENINFERENCE_IO: IoTable = {
  convention: 'openinference',
  input: [
    { key: 'llm.input_messages', as: 'messages', read: list },
    // llm.tools.N.tool.json_schema: each tool's definition as JSON text.
    { key: 'llm.tools', as: 'tools', read: { kind: 'list', wrappers: OI_WRAPPERS, parseLeaves: true, unwrap: 'json_schema' } },
    { key: 'input.value', as: 'value', read: { kind: 'mime', mimeKey: 'input.mime_type' } },
  ],
  output: [
    { key: 'llm.output_messages', as: 'messages', read: list },
    { key: 'retrieval.documents', as: 'documents', read: list },
    { key: 'output.value', as: 'value', read: { kind: 'mime', mimeKey: 'output.mime_type' } },
  ],
};

export const GENAI_IO: IoTable = {
  convention: 'gen_ai',
  namespace: 'gen_ai',
  input: [
    { key: 'gen_ai.system_instructions', as: 'system', read: json },
    { key: 'gen_ai.input.messages', as: 'messages', read: json },
    { key: 'gen_ai.tool.definitions', as: 'tools', read: json },
    { key: 'gen_ai.tool.call.arguments', as: 'arguments', read: json },
  ],
  output: [
    { key: 'gen_ai.output.messages', as: 'messages', read: json },
    { key: 'gen_ai.tool.call.result', as: 'result', read: json },
  ],
};

// The AI SDK's content attributes. Its response metadata (ai.response.id, model,
// timestamp, finishReason, providerMetadata...) describes the call, not its output: it
// stays in metadata.
export const VERCEL_AI_IO: IoTable = {
  convention: 'vercel-ai',
  namespace: 'ai',
  input: [
    { key: 'ai.prompt', as: 'prompt', read: json },
    { key: 'ai.prompt.messages', as: 'messages', read: json },
    { key: 'ai.prompt.tools', as: 'tools', read: { kind: 'jsonItems' } },
    { key: 'ai.prompt.toolChoice', as: 'toolChoice', read: json },
    { key: 'ai.toolCall.args', as: 'arguments', read: json },
    { key: 'ai.value', as: 'value', read: json },
    { key: 'ai.values', as: 'values', read: { kind: 'jsonItems' } },
    { key: 'ai.documents', as: 'documents', read: { kind: 'jsonItems' } },
  ],
  output: [
    { key: 'ai.response.text', as: 'text', read: text },
    { key: 'ai.response.reasoning', as: 'reasoning', read: text },
    { key: 'ai.response.toolCalls', as: 'toolCalls', read: json },
    { key: 'ai.response.object', as: 'object', read: json },
    { key: 'ai.toolCall.result', as: 'result', read: json },
    { key: 'ai.embedding', as: 'embedding', read: json },
    { key: 'ai.embeddings', as: 'embeddings', read: { kind: 'jsonItems' } },
    { key: 'ai.ranking', as: 'ranking', read: { kind: 'jsonItems' } },
  ],
};

export const LANGFUSE_IO: IoTable = {
  convention: 'langfuse',
  namespace: 'langfuse',
  input: [{ key: 'langfuse.observation.input', as: 'value', read: json }],
  output: [{ key: 'langfuse.observation.output', as: 'value', read: json }],
};

// After GenAI and the AI SDK: OpenLLMetry repeats their tool arguments and results here
// (then kept in metadata); its own decorators' spans have only these.
export const TRACELOOP_IO: IoTable = {
  convention: 'traceloop',
  namespace: 'traceloop',
  input: [{ key: 'traceloop.entity.input', as: 'value', read: { kind: 'entity' } }],
  output: [{ key: 'traceloop.entity.output', as: 'value', read: json }],
};

/** The Mastra span types whose input and output the exporter writes as `mastra.<type>.input` / `.output`. */
export const MASTRA_SPAN_TYPES = [
  'agent_run',
  'model_generation',
  'model_step',
  'model_chunk',
  'workflow_run',
  'workflow_step',
  'workflow_conditional',
  'workflow_conditional_eval',
  'workflow_parallel',
  'workflow_loop',
  'workflow_sleep',
  'workflow_wait_event',
  'processor_run',
  'generic',
] as const;

// Mastra writes a model call's messages as GenAI; every other span's payload as
// `mastra.<span type>.input` / `.output`, e.g. a model step's prompt and tool calls. Before
// GenAI: an agent run's input is the user's message, not the instructions and tools it
// also lists as GenAI attributes (kept in metadata).
export const MASTRA_IO: IoTable = {
  convention: 'mastra',
  namespace: 'mastra',
  input: MASTRA_SPAN_TYPES.map((type) => ({ key: `mastra.${type}.input`, as: 'value', read: json })),
  output: MASTRA_SPAN_TYPES.map((type) => ({ key: `mastra.${type}.output`, as: 'value', read: json })),
};

/** In priority order. */
export const IO_TABLES: readonly IoTable[] = [LANGFUSE_IO, OPENINFERENCE_IO, MASTRA_IO, GENAI_IO, VERCEL_AI_IO, TRACELOOP_IO];

const isObject = (value: JsonValue | undefined): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * OpenLLMetry's `{ args, kwargs }` envelope unwrapped when it holds one thing: the
 * keyword arguments alone (a lone object argument is sent as them), or the one argument.
 */
function entityValue(value: JsonValue | undefined): JsonValue | undefined {
  if (!isObject(value) || !Array.isArray(value.args)) return value;
  if (Object.keys(value).some((key) => key !== 'args' && key !== 'kwargs')) return value;
  const kwargs = value.kwargs ?? {};
  const noKwargs = isObject(kwargs) && Object.keys(kwargs).length === 0;
  if (value.args.length === 0) return noKwargs ? null : kwargs;
  return value.args.length === 1 && noKwargs ? value.args[0] : value;
}

/** A copy with its JSON-text strings parsed (never mutates: leaves may be the decoder's own values). */
function parseLeaves(value: JsonValue): JsonValue {
  if (typeof value === 'string') return jsonOrText(value);
  if (Array.isArray(value)) return value.map(parseLeaves);
  if (value === null || typeof value !== 'object') return value;
  const copy: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value)) setKey(copy, key, parseLeaves(value[key]));
  return copy;
}

const isOnly = (item: JsonValue, key: string): item is { [key: string]: JsonValue } =>
  typeof item === 'object' && item !== null && !Array.isArray(item) && Object.keys(item).length === 1 && Object.hasOwn(item, key);

/** The field's value, or undefined when the span does not have it. */
function readField(attributes: SpanAttributes, field: IoField): JsonValue | undefined {
  const read = field.read;
  switch (read.kind) {
    case 'json':
      return attributes.json(field.key);
    case 'text':
      return attributes.get(field.key);
    case 'mime': {
      const raw = attributes.get(field.key);
      if (typeof raw !== 'string') return raw;
      return attributes.string(read.mimeKey) === 'application/json' ? attributes.json(field.key) : raw;
    }
    case 'entity':
      return entityValue(attributes.json(field.key));
    case 'jsonItems': {
      const raw = attributes.get(field.key);
      return Array.isArray(raw) ? raw.map(jsonOrText) : attributes.json(field.key);
    }
    case 'list': {
      let items = attributes.list(field.key, read.wrappers);
      if (items && read.parseLeaves) items = items.map(parseLeaves);
      const unwrap = read.unwrap;
      if (items && unwrap) items = items.map((item) => (isOnly(item, unwrap) ? item[unwrap] : item));
      return items;
    }
  }
}

function readSide(attributes: SpanAttributes, fields: readonly IoField[], consumed: string[]): JsonValue | undefined {
  let single: JsonValue | undefined;
  let singleAs = '';
  let several: { [key: string]: JsonValue } | undefined;
  for (const field of fields) {
    const value = readField(attributes, field);
    if (value === undefined) continue;
    if (field.read.kind === 'list') consumed.push(...attributes.flattenedKeys(field.key));
    else consumed.push(field.key);
    if (several) several[field.as] = value;
    else if (single !== undefined) several = { [singleAs]: single, [field.as]: value };
    else {
      single = value;
      singleAs = field.as;
    }
  }
  return several ?? single;
}

export interface SpanIo {
  input: JsonValue;
  output: JsonValue;
  /** The attributes now held by input or output. */
  consumed: string[];
}

export function inputOutputOf(attributes: SpanAttributes): SpanIo {
  const consumed: string[] = [];
  let input: JsonValue | undefined;
  let output: JsonValue | undefined;
  for (const table of IO_TABLES) {
    if (table.namespace !== undefined && !attributes.hasNamespace(table.namespace)) continue;
    input ??= readSide(attributes, table.input, consumed);
    output ??= readSide(attributes, table.output, consumed);
    if (input !== undefined && output !== undefined) break;
  }
  return { input: input ?? null, output: output ?? null, consumed };
}
