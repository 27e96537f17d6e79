// A span's type, as data: one table per convention, tried in this order, first match
// wins (issue #10). Supporting a new framework is a new table here, not a new branch in
// the mapper. A table that does not recognise the value (OpenInference GUARDRAIL, an
// unknown operation) does not match, and the next one is tried.
import type { SpanType } from '@/lib/features/traces/shared';
import { SPAN_TYPES } from '@/lib/features/traces/shared';
import type { SpanAttributes } from '@/lib/features/otlp/attributes';

export interface SpanTypeTable {
  convention: string;
  /** The attribute naming the span's kind or operation. */
  key: string;
  /** Its values, exactly as sent. */
  values?: Readonly<Record<string, SpanType>>;
  /** Tried in order when `values` has no entry. */
  patterns?: ReadonlyArray<readonly [RegExp, SpanType]>;
  /** The type of any span that carries the attribute at all. */
  any?: SpanType;
}

const OWN_TYPES: Record<string, SpanType> = Object.fromEntries(SPAN_TYPES.map((t) => [t, t]));

export const CROSSROADS_SPAN_TYPE: SpanTypeTable = {
  convention: 'crossroads',
  key: 'crossroads.span.type',
  values: OWN_TYPES,
  // Any case: `llm_call` is as clear as `LLM_CALL`.
  patterns: SPAN_TYPES.map((t) => [new RegExp(`^${t}$`, 'i'), t] as const),
};

export const OPENINFERENCE_SPAN_TYPE: SpanTypeTable = {
  convention: 'openinference',
  key: 'openinference.span.kind',
  values: {
    LLM: 'LLM_CALL',
    EMBEDDING: 'LLM_CALL',
    TOOL: 'TOOL_CALL',
    RETRIEVER: 'MEMORY_OP',
    RERANKER: 'MEMORY_OP',
    AGENT: 'AGENT',
    CHAIN: 'CHAIN',
    PROMPT: 'CHAIN',
  },
};

// Langfuse's observation types. `span` and `event` (its defaults), `evaluator` and
// `guardrail` say nothing of the kind: the later tables are tried.
export const LANGFUSE_SPAN_TYPE: SpanTypeTable = {
  convention: 'langfuse',
  key: 'langfuse.observation.type',
  values: {
    generation: 'LLM_CALL',
    embedding: 'LLM_CALL',
    tool: 'TOOL_CALL',
    agent: 'AGENT',
    chain: 'CHAIN',
    retriever: 'MEMORY_OP',
  },
};

// OpenLLMetry (Traceloop)'s decorators: a workflow is a fixed pipeline, a task one step of it.
// Its instrumentations also send gen_ai.operation.name, which says more where the two
// disagree (a LangChain tool run is a `task` that executes a tool), so GenAI is tried first.
export const TRACELOOP_SPAN_TYPE: SpanTypeTable = {
  convention: 'traceloop',
  key: 'traceloop.span.kind',
  values: { workflow: 'CHAIN', task: 'CHAIN', agent: 'AGENT', tool: 'TOOL_CALL' },
};

export const GENAI_SPAN_TYPE: SpanTypeTable = {
  convention: 'gen_ai',
  key: 'gen_ai.operation.name',
  values: {
    chat: 'LLM_CALL',
    generate_content: 'LLM_CALL',
    text_completion: 'LLM_CALL',
    embeddings: 'LLM_CALL',
    execute_tool: 'TOOL_CALL',
    retrieval: 'MEMORY_OP',
    invoke_agent: 'AGENT',
    create_agent: 'AGENT',
    plan: 'AGENT',
    invoke_workflow: 'CHAIN',
    // OpenLLMetry names its workflow spans' operation so: not a model call.
    workflow: 'CHAIN',
  },
  // create_memory, search_memory, update_memory, delete_memory...
  patterns: [[/_memory$/, 'MEMORY_OP']],
};

// Mastra (@mastra/otel-exporter) names the model call `chat` (GenAI, above); its other
// spans say what they are in mastra.span.type. A model step is one turn of the agent's
// model loop: its prompt and the tools the model called (its usage is on the `chat` span
// inside it, when Mastra emits one); the model generation is the loop around the steps.
export const MASTRA_SPAN_TYPE: SpanTypeTable = {
  convention: 'mastra',
  key: 'mastra.span.type',
  values: {
    agent_run: 'AGENT',
    model_generation: 'AGENT',
    model_step: 'LLM_CALL',
    model_inference: 'LLM_CALL',
    model_chunk: 'CUSTOM',
    tool_call: 'TOOL_CALL',
    mcp_tool_call: 'TOOL_CALL',
    provider_tool_call: 'TOOL_CALL',
    workflow_run: 'CHAIN',
    rag_embedding: 'LLM_CALL',
  },
  patterns: [
    [/^workflow_/, 'CHAIN'],
    [/^rag_/, 'MEMORY_OP'],
  ],
};

export const VERCEL_AI_SPAN_TYPE: SpanTypeTable = {
  convention: 'vercel-ai',
  // The AI SDK names each span by its operation and repeats it in this attribute.
  key: 'ai.operationId',
  values: {
    'ai.toolCall': 'TOOL_CALL',
    // The calls that wrap a run's model and tool calls.
    'ai.generateText': 'CHAIN',
    'ai.streamText': 'CHAIN',
    'ai.generateObject': 'CHAIN',
    'ai.streamObject': 'CHAIN',
    'ai.embed': 'CHAIN',
    'ai.embedMany': 'CHAIN',
    'ai.rerank': 'CHAIN',
  },
  patterns: [
    [/^ai\.\w+\.(doGenerate|doStream|doEmbed)$/, 'LLM_CALL'],
    // A reranking model call, like OpenInference's RERANKER.
    [/^ai\.\w+\.doRerank$/, 'MEMORY_OP'],
  ],
};

export const GENAI_TOOL_SPAN_TYPE: SpanTypeTable = { convention: 'gen_ai tool', key: 'gen_ai.tool.name', any: 'TOOL_CALL' };

export const MODEL_SPAN_TYPES: SpanTypeTable[] = ['gen_ai.request.model', 'gen_ai.response.model', 'llm.model_name', 'langfuse.observation.model.name'].map(
  (key) => ({ convention: 'model', key, any: 'LLM_CALL' }),
);

/** Every table, in priority order. */
export const SPAN_TYPE_TABLES: readonly SpanTypeTable[] = [
  CROSSROADS_SPAN_TYPE,
  LANGFUSE_SPAN_TYPE,
  OPENINFERENCE_SPAN_TYPE,
  GENAI_SPAN_TYPE,
  TRACELOOP_SPAN_TYPE,
  MASTRA_SPAN_TYPE,
  VERCEL_AI_SPAN_TYPE,
  GENAI_TOOL_SPAN_TYPE,
  ...MODEL_SPAN_TYPES,
];

function matchTable(table: SpanTypeTable, attributes: SpanAttributes): SpanType | undefined {
  if (!attributes.has(table.key)) return undefined;
  if (table.any) return table.any;
  const value = attributes.string(table.key);
  if (value === undefined) return undefined;
  const exact = table.values && Object.hasOwn(table.values, value) ? table.values[value] : undefined;
  if (exact) return exact;
  for (const [pattern, type] of table.patterns ?? []) if (pattern.test(value)) return type;
  return undefined;
}

/** The span's type: the first table that matches, else CUSTOM. */
export function spanTypeOf(attributes: SpanAttributes): SpanType {
  for (const table of SPAN_TYPE_TABLES) {
    const type = matchTable(table, attributes);
    if (type) return type;
  }
  return 'CUSTOM';
}

/**
 * Where a tool span names its tool, per convention in priority order, and the span names
 * that only name the operation (a tool span so named is shown under its tool's name
 * instead); `suffix`: the convention names the span `<tool><suffix>` (OpenLLMetry's
 * `get_weather.tool`); `prefix`: a span of this convention named `<prefix><anything>`
 * names only the operation (OpenLLMetry's LangChain tool runs, `execute_tool
 * DynamicStructuredTool`, named by the tool's class).
 */
export const TOOL_NAMES: ReadonlyArray<{ convention: string; key: string; operationNames: readonly string[]; suffix?: string; prefix?: string }> = [
  { convention: 'gen_ai', key: 'gen_ai.tool.name', operationNames: ['execute_tool'] },
  { convention: 'vercel-ai', key: 'ai.toolCall.name', operationNames: ['ai.toolCall'] },
  { convention: 'openinference', key: 'tool.name', operationNames: [] },
  { convention: 'traceloop', key: 'traceloop.entity.name', operationNames: [], suffix: '.tool', prefix: 'execute_tool ' },
];

const OPERATION_NAMES = new Set(TOOL_NAMES.flatMap((t) => t.operationNames));

/** The tool's name when a TOOL_CALL span's own name only names the operation (or is empty): the first convention's that has one. */
export function toolNameFor(spanName: string, attributes: SpanAttributes): string | undefined {
  let first: string | undefined;
  let operation = spanName === '' || OPERATION_NAMES.has(spanName);
  for (const { key, suffix, prefix } of TOOL_NAMES) {
    const name = attributes.text(key);
    if (name === undefined) continue;
    first ??= name;
    if (suffix !== undefined && spanName === name + suffix && !operation) return name;
    if (prefix !== undefined && spanName.startsWith(prefix)) operation = true;
  }
  return operation ? first : undefined;
}
