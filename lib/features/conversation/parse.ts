// A model call's input or output as a conversation: the message shapes every ingest path
// stores (OpenAI chat, Anthropic, GenAI semantic-convention parts, OpenInference's rebuilt
// lists, the AI SDK, Langfuse, Mastra) read into one Message[]. Pure and client-safe: the
// trace viewer and the sessions page render what it returns; anything it does not
// recognise is null, and the caller shows the JSON instead.
import type { JsonValue } from '@/lib/core/json';
import { REQUEST_TOOL_KEYS } from './parameters';

export type Part =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  /** `src` is a data: or http(s) URL; null when the image was sent without one (a provider file id). */
  | { kind: 'image'; src: string | null; mediaType: string | null }
  | { kind: 'tool_call'; id: string | null; name: string; arguments: JsonValue }
  | { kind: 'tool_result'; id: string | null; name: string | null; content: JsonValue; isError: boolean }
  /** A part of a kind not known here (a file, audio, a provider's own): shown as JSON. */
  | { kind: 'data'; value: JsonValue };

export interface Message {
  /** As sent: system, developer, user, assistant, tool, function... */
  role: string;
  /** The participant's or function's name, when the message has one. */
  name: string | null;
  parts: Part[];
}

/** Which side of a model call a value is: a bare string is the user's prompt, or the model's answer. */
export type Side = 'input' | 'output';

type Obj = { [key: string]: JsonValue };

const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: JsonValue | undefined): string | null => (typeof v === 'string' ? v : null);
const text = (t: string): Part => ({ kind: 'text', text: t });

/** Tool arguments and results often travel as JSON text: parsed when they are JSON, kept otherwise. */
export function jsonish(v: JsonValue | undefined): JsonValue {
  if (typeof v !== 'string') return v ?? null;
  const t = v.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return v;
  try {
    return JSON.parse(t) as JsonValue;
  } catch {
    return v;
  }
}

function imageSrc(data: string, mediaType: string | null): string {
  if (/^(data:|https?:)/i.test(data)) return data;
  return `data:${mediaType ?? 'image/png'};base64,${data}`;
}

/** One content part or block, whichever API's; null when it is not an object with a type. */
function part(p: JsonValue): Part | null {
  if (typeof p === 'string') return text(p);
  if (!isObj(p)) return null;
  const type = str(p.type);
  switch (type) {
    // OpenAI (text, input_text, output_text), Anthropic, the AI SDK: `text`; GenAI: `content`.
    case 'text':
    case 'input_text':
    case 'output_text': {
      const t = str(p.text) ?? str(p.content);
      return t === null ? { kind: 'data', value: p } : text(t);
    }
    case 'reasoning':
    case 'thinking': {
      const t = str(p.text) ?? str(p.thinking) ?? str(p.content);
      return t === null ? { kind: 'data', value: p } : { kind: 'reasoning', text: t };
    }
    case 'redacted_thinking':
      return { kind: 'reasoning', text: '(redacted)' };
    // OpenAI: {image_url: {url}} or {image_url: "url"}; OpenInference: {image: {url}}; the
    // AI SDK: {image: base64 or URL, mediaType}; Anthropic: {source: {type: base64|url}}.
    case 'image_url':
    case 'input_image':
    case 'image': {
      const mediaType = str(p.mediaType) ?? str(p.mimeType) ?? str(p.media_type);
      const nested = isObj(p.image_url) ? str(p.image_url.url) : str(p.image_url);
      const oi = isObj(p.image) ? str(p.image.url) : null;
      const sdk = str(p.image);
      if (nested ?? oi ?? sdk) return { kind: 'image', src: imageSrc((nested ?? oi ?? sdk)!, mediaType), mediaType };
      if (isObj(p.source)) {
        const sourceType = str(p.source.media_type);
        const data = str(p.source.data) ?? str(p.source.url);
        return { kind: 'image', src: data === null ? null : imageSrc(data, sourceType), mediaType: sourceType };
      }
      return { kind: 'image', src: null, mediaType };
    }
    // The AI SDK's files; images among them are shown as images.
    case 'file': {
      const mediaType = str(p.mediaType) ?? str(p.mimeType);
      const data = str(p.data);
      if (mediaType?.startsWith('image/') && data !== null) return { kind: 'image', src: imageSrc(data, mediaType), mediaType };
      return { kind: 'data', value: p };
    }
    // GenAI: {type: blob, modality: image, mime_type, content} and {type: uri, uri}.
    case 'blob':
    case 'uri': {
      const mediaType = str(p.mime_type);
      const data = str(p.content) ?? str(p.uri);
      const isImage = p.modality === 'image' || mediaType?.startsWith('image/');
      if (isImage && data !== null) return { kind: 'image', src: imageSrc(data, mediaType), mediaType };
      return { kind: 'data', value: p };
    }
    // Anthropic
    case 'tool_use':
      return { kind: 'tool_call', id: str(p.id), name: str(p.name) ?? '(unnamed)', arguments: p.input ?? null };
    case 'tool_result': {
      const content = Array.isArray(p.content) && p.content.every((c) => isObj(c) && c.type === 'text') ? p.content.map((c) => (c as Obj).text).join('\n') : p.content;
      return { kind: 'tool_result', id: str(p.tool_use_id), name: null, content: (content as JsonValue) ?? null, isError: p.is_error === true };
    }
    // The AI SDK (v5 `input`/`output`, v4 `args`/`result`)
    case 'tool-call':
      return { kind: 'tool_call', id: str(p.toolCallId), name: str(p.toolName) ?? '(unnamed)', arguments: jsonish(p.input ?? p.args) };
    case 'tool-result': {
      let output = p.output ?? p.result ?? null;
      // v5 wraps the output: {type: 'json' | 'text' | 'error-text' | ..., value}.
      const wrapped = isObj(output) && typeof output.type === 'string' && 'value' in output;
      const isError = wrapped && String((output as Obj).type).startsWith('error');
      if (wrapped) output = (output as Obj).value;
      return { kind: 'tool_result', id: str(p.toolCallId), name: str(p.toolName), content: output, isError };
    }
    // GenAI
    case 'tool_call':
      return { kind: 'tool_call', id: str(p.id), name: str(p.name) ?? '(unnamed)', arguments: jsonish(p.arguments) };
    case 'tool_call_response':
      return { kind: 'tool_result', id: str(p.id), name: null, content: jsonish(p.response), isError: false };
    // OpenAI Responses items inside a message's content
    case 'function_call':
      return { kind: 'tool_call', id: str(p.call_id) ?? str(p.id), name: str(p.name) ?? '(unnamed)', arguments: jsonish(p.arguments) };
    case 'function_call_output':
      return { kind: 'tool_result', id: str(p.call_id), name: null, content: jsonish(p.output), isError: false };
    case null:
      return null;
    default:
      return { kind: 'data', value: p };
  }
}

/** OpenAI's `tool_calls` (and OpenInference's, rebuilt as {id, function: {name, arguments}}). */
function toolCalls(calls: JsonValue | undefined): Part[] | null {
  if (calls === undefined || calls === null) return [];
  if (!Array.isArray(calls)) return null;
  const out: Part[] = [];
  for (const c of calls) {
    if (!isObj(c)) return null;
    const fn = isObj(c.function) ? c.function : c;
    const name = str(fn.name);
    if (name === null) return null;
    out.push({ kind: 'tool_call', id: str(c.id), name, arguments: jsonish(fn.arguments ?? fn.input ?? fn.args) });
  }
  return out;
}

/** The parts of a `content` (a string, null, or a list of parts); null when a part is not one. */
function contentParts(content: JsonValue | undefined): Part[] | null {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [text(content)];
  // A structured body (GenAI log events' tool results, some SDKs' JSON content).
  if (isObj(content)) return [{ kind: 'data', value: content }];
  if (!Array.isArray(content)) return null;
  const out: Part[] = [];
  for (const p of content) {
    const one = part(p);
    if (!one) return null;
    out.push(one);
  }
  return out;
}

/** One chat message, whichever API's; null when it is not one. */
function message(m: JsonValue): Message | null {
  if (!isObj(m)) return null;
  const role = str(m.role);
  if (role === null || role === '') return null;
  // GenAI `parts`, OpenInference `contents`, everyone else `content`.
  const parts = contentParts(m.parts ?? m.contents ?? m.content);
  if (!parts) return null;
  const calls = toolCalls(m.tool_calls);
  if (!calls) return null;
  parts.push(...calls);
  if (isObj(m.function_call) && typeof m.function_call.name === 'string') {
    parts.push({ kind: 'tool_call', id: null, name: m.function_call.name, arguments: jsonish(m.function_call.arguments) });
  }
  const name = str(m.name);
  // OpenAI's answer of a tool: the whole content is the result of the call it names
  // (`tool_call_id`; GenAI log events name it `id`).
  const callId = str(m.tool_call_id) ?? (role === 'tool' ? str(m.id) : null);
  if ((role === 'tool' || role === 'function') && !parts.some((p) => p.kind === 'tool_result')) {
    const only = parts.length === 1 ? parts[0] : null;
    const content = only?.kind === 'text' ? jsonish(only.text) : only?.kind === 'data' ? only.value : parts.length === 0 ? null : (m.content ?? null);
    return { role, name, parts: [{ kind: 'tool_result', id: callId, name, content, isError: false }] };
  }
  return { role, name, parts };
}

function messages(list: JsonValue[]): Message[] | null {
  if (list.length === 0) return null;
  const out: Message[] = [];
  for (const item of list) {
    const m = message(item) ?? responsesItem(item);
    if (!m) return null;
    out.push(m);
  }
  return out;
}

/** An OpenAI Responses API item that is not a message: a function call or its output. */
function responsesItem(item: JsonValue): Message | null {
  if (!isObj(item)) return null;
  if (item.type === 'function_call') return { role: 'assistant', name: null, parts: [part(item)!] };
  if (item.type === 'function_call_output') return { role: 'tool', name: null, parts: [part(item)!] };
  return null;
}

/** GenAI system instructions (a string or parts) or a system prompt, as a system message. */
function systemMessage(system: JsonValue | undefined): Message | null {
  if (typeof system === 'string') return { role: 'system', name: null, parts: [text(system)] };
  if (Array.isArray(system)) {
    const parts = contentParts(system);
    if (parts && parts.length) return { role: 'system', name: null, parts };
  }
  return null;
}

// Keys an AI SDK or Mastra result carries beside its text and tool calls; never content.
const RESULT_EXTRAS = new Set(['files', 'sources', 'warnings', 'finishReason', 'usage', 'reasoningText', 'object', 'steps', 'response']);

/** The AI SDK's and Mastra's `{text, toolCalls, reasoning}`: one assistant message. */
function resultMessage(v: Obj): Message | null {
  if (!('text' in v) && !('toolCalls' in v)) return null;
  if (Object.keys(v).some((k) => k !== 'text' && k !== 'toolCalls' && k !== 'reasoning' && !RESULT_EXTRAS.has(k))) return null;
  const parts: Part[] = [];
  const reasoning = v.reasoning;
  if (typeof reasoning === 'string' && reasoning) parts.push({ kind: 'reasoning', text: reasoning });
  else if (Array.isArray(reasoning)) {
    for (const r of reasoning) {
      const t = typeof r === 'string' ? r : isObj(r) ? str(r.text) : null;
      if (t) parts.push({ kind: 'reasoning', text: t });
    }
  }
  if (v.text !== undefined && v.text !== null && typeof v.text !== 'string') return null;
  if (v.text) parts.push(text(v.text as string));
  if (v.toolCalls !== undefined && v.toolCalls !== null) {
    if (!Array.isArray(v.toolCalls)) return null;
    for (const c of v.toolCalls) {
      if (!isObj(c)) return null;
      const p = part({ type: 'tool-call', ...c });
      if (!p || p.kind !== 'tool_call') return null;
      parts.push(p);
    }
  }
  return { role: 'assistant', name: null, parts };
}

/**
 * A request object: it names a model or offers tools (every provider's request does). Not
 * any known parameter: `user` or `metadata` beside a prompt may be an app's own record.
 */
function isRequest(v: Obj): boolean {
  return typeof v.model === 'string' || REQUEST_TOOL_KEYS.some((k) => Array.isArray(v[k]));
}

/**
 * {messages, tools, toolChoice, value, system}: OpenInference, GenAI, the AI SDK, Langfuse,
 * Anthropic's request; {system, prompt}: the AI SDK's ai.prompt; {input, instructions}: the
 * Responses API. With the keys the conversation was read from: every other key is shown
 * beside it (request.ts), so a string prompt beside other keys is read only when they make
 * it a request; alone with unknown keys it may be any record, left to the JSON viewer.
 */
function fromRequest(v: Obj): { messages: Message[]; keys: string[] } | null {
  const systemKey = v.system !== undefined && v.system !== null ? 'system' : 'instructions';
  const system = systemMessage(v[systemKey]);
  const keys = system ? [systemKey] : [];
  const withSystem = (out: Message[]) => (system ? [system, ...out] : out);
  const listKey = (['messages', 'input', 'prompt'] as const).find((k) => v[k] !== undefined && v[k] !== null);
  const list = listKey ? v[listKey] : undefined;
  if (Array.isArray(list)) {
    const out = messages(list);
    return out ? { messages: withSystem(out), keys: [...keys, listKey!] } : null;
  }
  const promptKey = typeof v.prompt === 'string' ? 'prompt' : typeof v.input === 'string' ? 'input' : null;
  if (promptKey === null) return null;
  const alone = Object.keys(v).every((k) => k === promptKey || k === (promptKey === 'prompt' ? 'system' : 'instructions'));
  if (!alone && !isRequest(v)) return null;
  return { messages: withSystem([{ role: 'user', name: null, parts: [text(v[promptKey] as string)] }]), keys: [...keys, promptKey] };
}

/**
 * The keys of a request object its conversation is read from (system prompt, messages or
 * prompt), or null when the value is not a request object read as a conversation.
 */
export function conversationKeys(value: JsonValue | undefined): string[] | null {
  if (!isObj(value) || Array.isArray(value.choices) || typeof value.role === 'string') return null;
  return fromRequest(value)?.keys ?? null;
}

/** A value that is not a list of messages: a wrapper around one, or one message, or text. */
function fromObject(v: Obj): Message[] | null {
  // A chat completion response.
  if (Array.isArray(v.choices)) {
    const out = v.choices.map((c) => (isObj(c) ? message(c.message ?? c.delta ?? null) : null));
    return out.length && out.every((m) => m !== null) ? (out as Message[]) : null;
  }
  // One message (Langfuse's and Anthropic's outputs).
  if (typeof v.role === 'string') {
    const m = message(v);
    return m ? [m] : null;
  }
  const request = fromRequest(v);
  if (request) return request.messages;
  // The Responses API's answer: {output: [items]}.
  if (Array.isArray(v.output)) return messages(v.output);
  const result = resultMessage(v);
  return result ? [result] : null;
}

/**
 * The value as a conversation, or null when it is not one. A string is one message: the
 * user's on the input side, the assistant's on the output side.
 */
export function toConversation(value: JsonValue | undefined, side: Side = 'input'): Message[] | null {
  if (value === undefined || value === null) return null;
  let out: Message[] | null = null;
  if (typeof value === 'string') {
    if (value === '') return null;
    out = [{ role: side === 'input' ? 'user' : 'assistant', name: null, parts: [text(value)] }];
  } else if (Array.isArray(value)) {
    out = messages(value);
  } else if (isObj(value)) {
    out = fromObject(value);
    // {message: "..."}: a chat app's turn, the side's one message (the session view reads it).
    const keys = Object.keys(value);
    if (!out && keys.length === 1 && keys[0] === 'message' && typeof value.message === 'string' && value.message !== '') {
      out = [{ role: side === 'input' ? 'user' : 'assistant', name: null, parts: [text(value.message)] }];
    }
  }
  return out ? nameToolResults(out) : null;
}

/** A tool result names its tool when the call it answers (same id) is earlier in the conversation. */
function nameToolResults(list: Message[]): Message[] {
  const names = new Map<string, string>();
  return list.map((m) => {
    let changed = false;
    const parts = m.parts.map((p) => {
      if (p.kind === 'tool_call' && p.id) names.set(p.id, p.name);
      if (p.kind === 'tool_result' && p.name === null && p.id && names.has(p.id)) {
        changed = true;
        return { ...p, name: names.get(p.id)! };
      }
      return p;
    });
    return changed ? { ...m, parts } : m;
  });
}
