// One line of text that says what went into a run or what came out of it, for the trace
// list: the latest user message of an input, the assistant's answer of an output, read
// through the conversation parser so that no row shows raw JSON when a message is there.
// Pure and client-safe.
import type { JsonValue } from '@/lib/core/json';
import { toConversation, type Message, type Part, type Side } from './parse';

/** The longest preview, in characters; the list truncates it further to its column. */
export const PREVIEW_CHARS = 160;

// Keys a hand-written input or output commonly carries its text under, most telling first.
const TEXT_KEYS = ['question', 'query', 'prompt', 'input', 'message', 'text', 'content', 'answer', 'output', 'result', 'response', 'summary'];

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function compact(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function partText(p: Part): string | null {
  switch (p.kind) {
    case 'text':
      return p.text;
    case 'tool_call':
      return `${p.name}(${compact(p.arguments)})`;
    case 'tool_result':
      return compact(p.content);
    case 'image':
      return '[image]';
    default:
      return null;
  }
}

function messageText(m: Message): string {
  const texts = m.parts.filter((p) => p.kind === 'text').map((p) => (p as { text: string }).text);
  if (texts.join('').trim()) return texts.join(' ');
  return m.parts.map(partText).filter((t): t is string => !!t).join(' ');
}

/** The message a reader wants on this side: the last one from the user (input) or the model (output). */
function pick(list: Message[], side: Side): Message | undefined {
  const wanted = side === 'input' ? ['user', 'human'] : ['assistant', 'model', 'ai'];
  const said = list.filter((m) => messageText(m).trim() !== '');
  return [...said].reverse().find((m) => wanted.includes(m.role)) ?? said.at(-1);
}

function plainText(value: JsonValue, depth = 0): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return String(value);
  if (isObj(value) && depth < 2) {
    for (const key of TEXT_KEYS) {
      const inner = value[key];
      if (inner === undefined || inner === null) continue;
      const found = typeof inner === 'string' ? inner : plainText(inner, depth + 1);
      if (found) return found;
    }
  }
  return JSON.stringify(value);
}

function oneLine(text: string, max: number): string | null {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return null;
  const chars = Array.from(line);
  return chars.length > max ? `${chars.slice(0, max - 1).join('').trimEnd()}…` : line;
}

/** A value's one-line preview, at most `max` characters; null when it holds nothing to show. */
export function previewOf(value: JsonValue | undefined, side: Side, max = PREVIEW_CHARS): string | null {
  if (value === undefined || value === null) return null;
  const conversation = toConversation(value, side);
  const message = conversation ? pick(conversation, side) : undefined;
  const text = message ? messageText(message) : plainText(value);
  return text === null ? null : oneLine(text, max);
}
