// Decision points from spans, as data.
// - Explicit: a span event named `crossroads.decision` (our convention, usable from any
//   OpenTelemetry SDK) becomes a decision point under its span, at the event's time.
// - Inferred: an LLM call whose output calls tools becomes one TOOL_SELECTION decision:
//   the tool it called, out of the tools it was offered. Each convention says where the
//   calls and the offered tools are; the first convention that has calls wins. A call
//   whose span lists no tools takes those of its nearest ancestor that does (Mastra lists
//   them on the agent's span, above the model steps).
import type { DecisionPointUpsert } from '@/lib/features/ingest/shared';
import { FIELD_LIMITS } from '@/lib/core/limits';
import { DECISION_TYPES, type DecisionType, type JsonValue } from '@/lib/features/traces/shared';
import { jsonOrText, setKey, toNumber, truncate, type SpanAttributes } from '@/lib/features/otlp/attributes';
import type { AttributeValue, Attributes } from '@/lib/features/otlp/types';
import { OPENINFERENCE_WRAPPERS } from './io';

export const DECISION_EVENT = 'crossroads.decision';

export const DECISION_ATTRIBUTES = {
  type: 'crossroads.decision.type',
  chosen: 'crossroads.decision.chosen',
  alternatives: 'crossroads.decision.alternatives',
  reasoning: 'crossroads.decision.reasoning',
  context: 'crossroads.decision.context',
  costUsd: 'crossroads.decision.cost_usd',
  durationMs: 'crossroads.decision.duration_ms',
  // The decision's own id, for scores that name it (crossroads.score.decision_id); else <spanId>:d<event index>.
  id: 'crossroads.decision.id',
} as const;

const KNOWN = new Set<string>(Object.values(DECISION_ATTRIBUTES));
const TYPES = new Set<string>(DECISION_TYPES);

const attr = (attributes: Attributes, key: string): AttributeValue | undefined =>
  Object.hasOwn(attributes, key) ? attributes[key] : undefined;

/**
 * A `crossroads.decision` event as a decision point. JSON text is parsed (a plain
 * string, or a string-array attribute, is taken as it is); alternatives are always an
 * array. A type outside the seven (any case accepted) is CUSTOM, and the declared type is
 * kept in contextSnapshot, as are attributes the convention does not name:
 * `{ context, declaredType, attributes }` then, instead of the bare context.
 */
export function explicitDecision(
  attributes: Attributes,
  id: string,
  spanId: string,
  timestamp: Date,
): DecisionPointUpsert {
  const rawType = attr(attributes, DECISION_ATTRIBUTES.type);
  const upper = typeof rawType === 'string' ? rawType.toUpperCase() : undefined;
  const type = (upper !== undefined && TYPES.has(upper) ? upper : 'CUSTOM') as DecisionType;
  const read = (key: string): JsonValue | undefined => {
    const value = attr(attributes, key);
    return value === undefined ? undefined : jsonOrText(value);
  };
  const alternatives = read(DECISION_ATTRIBUTES.alternatives);
  const context = read(DECISION_ATTRIBUTES.context) ?? null;
  const reasoning = attr(attributes, DECISION_ATTRIBUTES.reasoning);

  let extras: { [key: string]: JsonValue } | undefined;
  for (const key of Object.keys(attributes)) {
    if (!KNOWN.has(key)) setKey((extras ??= {}), key, attributes[key]);
  }
  const declared = rawType !== undefined && !(upper !== undefined && TYPES.has(upper));
  let contextSnapshot: JsonValue = context;
  if (declared || extras) {
    contextSnapshot = { context };
    if (declared) contextSnapshot.declaredType = rawType;
    if (extras) contextSnapshot.attributes = extras;
  }

  const ownId = attr(attributes, DECISION_ATTRIBUTES.id);
  return {
    id: typeof ownId === 'string' && ownId !== '' && ownId.length <= FIELD_LIMITS.idLength && !/[\u0000-\u001f\u007f]/.test(ownId) ? ownId : id,
    type,
    reasoning:
      reasoning === undefined || reasoning === null
        ? null
        : truncate(typeof reasoning === 'string' ? reasoning : JSON.stringify(reasoning), FIELD_LIMITS.textLength),
    chosen: read(DECISION_ATTRIBUTES.chosen) ?? null,
    alternatives: alternatives === undefined ? [] : Array.isArray(alternatives) ? alternatives : [alternatives],
    contextSnapshot,
    durationMs: toNumber(attr(attributes, DECISION_ATTRIBUTES.durationMs)) ?? null,
    costUsd: toNumber(attr(attributes, DECISION_ATTRIBUTES.costUsd)) ?? null,
    parentSpanId: spanId,
    timestamp,
    inferred: false,
  };
}

// ---- Inferred tool selection ----

export interface ToolCall {
  name: string;
  arguments: JsonValue;
  id?: string;
}

export interface ToolCalls {
  calls: ToolCall[];
  /** The text the model wrote with the calls. */
  text?: string;
}

export interface OfferedTool {
  name: string;
  description?: string;
}

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const args = (v: JsonValue | undefined): JsonValue => (v === undefined ? null : jsonOrText(v));
const joined = (texts: string[]): string | undefined => (texts.length > 0 ? texts.join('\n') : undefined);

/** GenAI: `tool_call` parts of gen_ai.output.messages; the text parts beside them (else reasoning parts). */
function genAiCalls(messages: JsonValue | undefined): ToolCalls | undefined {
  if (!Array.isArray(messages)) return undefined;
  const calls: ToolCall[] = [];
  const texts: string[] = [];
  const thoughts: string[] = [];
  for (const message of messages) {
    if (!isObj(message) || !Array.isArray(message.parts)) continue;
    for (const part of message.parts) {
      if (!isObj(part)) continue;
      const name = part.type === 'tool_call' ? str(part.name) : undefined;
      if (name) calls.push({ name, arguments: args(part.arguments), ...(str(part.id) && { id: str(part.id) }) });
      else if (part.type === 'text' && str(part.content)) texts.push(part.content as string);
      else if (part.type === 'reasoning' && str(part.content)) thoughts.push(part.content as string);
    }
  }
  return calls.length > 0 ? { calls, text: joined(texts) ?? joined(thoughts) } : undefined;
}

/** OpenInference: `tool_calls` of the rebuilt llm.output_messages; the messages' content beside them. */
function openInferenceCalls(messages: JsonValue[] | undefined): ToolCalls | undefined {
  if (!messages) return undefined;
  const calls: ToolCall[] = [];
  const texts: string[] = [];
  for (const message of messages) {
    if (!isObj(message)) continue;
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      const fn = isObj(call) ? call.function : undefined;
      const name = isObj(fn) ? str(fn.name) : undefined;
      if (name) calls.push({ name, arguments: args((fn as Obj).arguments), ...(isObj(call) && str(call.id) && { id: str(call.id) }) });
    }
    if (str(message.content)) texts.push(message.content as string);
    for (const part of Array.isArray(message.contents) ? message.contents : []) {
      if (isObj(part) && str(part.text)) texts.push(part.text as string);
    }
  }
  return calls.length > 0 ? { calls, text: joined(texts) } : undefined;
}

/** Vercel AI SDK: ai.response.toolCalls (`input` since v5, `args` before), and ai.response.text. */
function vercelCalls(toolCalls: JsonValue | undefined, text: string | undefined): ToolCalls | undefined {
  if (!Array.isArray(toolCalls)) return undefined;
  const calls: ToolCall[] = [];
  for (const call of toolCalls) {
    const name = isObj(call) ? str(call.toolName) : undefined;
    if (name) calls.push({ name, arguments: args((call as Obj).input ?? (call as Obj).args), ...(str((call as Obj).toolCallId) && { id: str((call as Obj).toolCallId) }) });
  }
  return calls.length > 0 ? { calls, text } : undefined;
}

/** Langfuse: an OpenAI message (`tool_calls`), Anthropic content (`tool_use` blocks), or a list of either, or OpenAI's `choices`. */
function messageCalls(output: JsonValue | undefined): ToolCalls | undefined {
  const calls: ToolCall[] = [];
  const texts: string[] = [];
  const visit = (value: JsonValue | undefined, depth: number): void => {
    if (depth > 3) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isObj(value)) return;
    if (value.type === 'tool_use' && str(value.name)) {
      calls.push({ name: value.name as string, arguments: args(value.input), ...(str(value.id) && { id: str(value.id) }) });
      return;
    }
    if (value.type === 'text' && str(value.text)) {
      texts.push(value.text as string);
      return;
    }
    for (const call of Array.isArray(value.tool_calls) ? value.tool_calls : []) {
      const fn = isObj(call) ? call.function : undefined;
      const name = isObj(fn) ? str(fn.name) : undefined;
      if (name) calls.push({ name, arguments: args((fn as Obj).arguments), ...(isObj(call) && str(call.id) && { id: str(call.id) }) });
    }
    if (str(value.content)) texts.push(value.content as string);
    else if (Array.isArray(value.content)) visit(value.content, depth + 1);
    if (isObj(value.message)) visit(value.message, depth + 1);
    if (Array.isArray(value.choices)) visit(value.choices, depth + 1);
  };
  visit(output, 0);
  return calls.length > 0 ? { calls, text: joined(texts) } : undefined;
}

/** Mastra: a model step's (or generation's) output `{ text, toolCalls: [{ toolCallId, toolName, args }] }`. */
function mastraCalls(output: JsonValue | undefined): ToolCalls | undefined {
  if (!isObj(output)) return undefined;
  return vercelCalls(output.toolCalls, str(output.text));
}

/**
 * A tool definition in the shapes the conventions use: `{name, description}`, OpenAI's
 * `{function: {name, description}}`, or only its name (Mastra's gen_ai.tool.definitions).
 */
function offeredTool(definition: JsonValue): OfferedTool | undefined {
  const def = typeof definition === 'string' ? jsonOrText(definition) : definition;
  if (typeof def === 'string') return def === '' ? undefined : { name: def };
  if (!isObj(def)) return undefined;
  const body = isObj(def.function) ? def.function : def;
  const name = str(body.name);
  if (!name) return undefined;
  const description = str(body.description);
  return description ? { name, description } : { name };
}

function offeredTools(definitions: JsonValue | undefined): OfferedTool[] | undefined {
  if (!Array.isArray(definitions)) return undefined;
  const tools: OfferedTool[] = [];
  for (const definition of definitions) {
    // OpenInference's rebuilt llm.tools: [{ json_schema: "<definition>" }].
    const tool = offeredTool(isObj(definition) && definition.json_schema !== undefined ? definition.json_schema : definition);
    if (tool) tools.push(tool);
  }
  return tools;
}

export interface ToolSelectionTable {
  convention: string;
  /** Where the model's tool calls are. */
  callsKey: string;
  calls: (attributes: SpanAttributes) => ToolCalls | undefined;
  /** Where the tools it was offered are. */
  toolsKey: string;
  tools: (attributes: SpanAttributes) => OfferedTool[] | undefined;
}

const OI_WRAPPERS = OPENINFERENCE_WRAPPERS;

/** In priority order: the first table with calls gives the calls; the first with tools gives the tools. */
export const TOOL_SELECTION_TABLES: readonly ToolSelectionTable[] = [
  {
    convention: 'openinference',
    callsKey: 'llm.output_messages',
    calls: (a) => openInferenceCalls(a.list('llm.output_messages', OI_WRAPPERS)),
    toolsKey: 'llm.tools',
    tools: (a) => offeredTools(a.list('llm.tools', OI_WRAPPERS)),
  },
  {
    convention: 'gen_ai',
    callsKey: 'gen_ai.output.messages',
    calls: (a) => genAiCalls(a.json('gen_ai.output.messages')),
    toolsKey: 'gen_ai.tool.definitions',
    tools: (a) => offeredTools(a.json('gen_ai.tool.definitions')),
  },
  {
    convention: 'vercel-ai',
    callsKey: 'ai.response.toolCalls',
    calls: (a) => vercelCalls(a.json('ai.response.toolCalls'), a.text('ai.response.text')),
    toolsKey: 'ai.prompt.tools',
    tools: (a) => {
      const raw = a.get('ai.prompt.tools');
      return offeredTools(Array.isArray(raw) ? raw : a.json('ai.prompt.tools'));
    },
  },
  {
    convention: 'langfuse',
    callsKey: 'langfuse.observation.output',
    calls: (a) => messageCalls(a.json('langfuse.observation.output')),
    toolsKey: 'langfuse.observation.input',
    tools: (a) => {
      const input = a.json('langfuse.observation.input');
      return isObj(input) ? offeredTools(input.tools) : undefined;
    },
  },
  {
    convention: 'mastra',
    callsKey: 'mastra.model_step.output',
    calls: (a) => mastraCalls(a.json('mastra.model_step.output')),
    toolsKey: 'gen_ai.tool.definitions',
    tools: () => undefined,
  },
];

/** The tools a span lists as offered to its model (the first convention that lists some). */
export function offeredToolsOf(attributes: SpanAttributes): OfferedTool[] | undefined {
  for (const table of TOOL_SELECTION_TABLES) {
    const offered = table.tools(attributes);
    if (offered && offered.length > 0) return offered;
  }
  return undefined;
}

const callJson = (call: ToolCall): Obj => ({ tool: call.name, arguments: call.arguments });

/**
 * The TOOL_SELECTION decision of an LLM call that called tools, or null. When the model
 * called several tools at once, `chosen` is the first call and the others are listed in
 * contextSnapshot.otherCalls; `alternatives` are the offered tools other than the chosen
 * one. contextSnapshot.inferredFrom names the attribute the calls were read from.
 */
export function inferredToolSelection(
  attributes: SpanAttributes,
  spanId: string,
  timestamp: Date,
  /** The tools of the nearest ancestor that lists some, with its span id: asked only when this span lists none. */
  inherited?: () => { spanId: string; tools: OfferedTool[] } | undefined,
): DecisionPointUpsert | null {
  let found: { table: ToolSelectionTable; calls: ToolCalls } | undefined;
  for (const table of TOOL_SELECTION_TABLES) {
    const calls = table.calls(attributes);
    if (calls) {
      found = { table, calls };
      break;
    }
  }
  if (!found) return null;
  let offered = offeredToolsOf(attributes);
  let offeredBy: string | undefined;
  if (!offered && inherited) {
    const from = inherited();
    if (from) {
      offered = from.tools;
      offeredBy = from.spanId;
    }
  }
  const [first, ...others] = found.calls.calls;
  const context: Obj = { inferredFrom: found.table.callsKey };
  if (offeredBy) context.toolsFromSpan = offeredBy;
  if (first.id) context.toolCallId = first.id;
  if (others.length > 0) context.otherCalls = others.map(callJson);
  return {
    id: `${spanId}:tool_selection`,
    type: 'TOOL_SELECTION',
    reasoning: found.calls.text === undefined ? null : truncate(found.calls.text, FIELD_LIMITS.textLength),
    chosen: callJson(first),
    alternatives: (offered ?? [])
      .filter((tool) => tool.name !== first.name)
      .map((tool): Obj => (tool.description ? { tool: tool.name, description: tool.description } : { tool: tool.name })),
    contextSnapshot: context,
    durationMs: null,
    costUsd: null,
    parentSpanId: spanId,
    timestamp,
    inferred: true,
  };
}
