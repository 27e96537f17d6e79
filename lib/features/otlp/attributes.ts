// Reading one span's attributes for the convention tables: typed getters, JSON text
// parsed once and cached, and OpenInference's flattened lists (`llm.input_messages.0.
// message.role`) put back together. Pure; no copies of the attributes themselves.
import { FIELD_LIMITS } from '@/lib/core/limits';
import { nestingDepth } from '@/lib/features/ingest/shared';
import type { JsonValue } from '@/lib/core/json';
import type { AttributeValue, Attributes } from './types';

/** True when PostgreSQL cannot store the text: a U+0000 or an unpaired UTF-16 surrogate. */
export function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

/** The text cut to at most `max` UTF-16 units, never between the two halves of a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * How deep a value parsed out of an attribute's JSON text may nest: it lands a few levels
 * down (input.messages, contextSnapshot.context...), and every stored payload must nest
 * at most FIELD_LIMITS.jsonDepth deep. Deeper text is kept as the text it came as.
 */
export const MAX_PARSED_JSON_DEPTH = FIELD_LIMITS.jsonDepth - 8;

// A \u0000 or surrogate escape is the only way JSON text whose characters are all
// storable can parse into a string that is not (escaped emoji pairs are fine, but only
// a walk can tell them from lone halves).
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

function hasUnstorableString(value: JsonValue): boolean {
  const stack: JsonValue[] = [value];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') {
      if (isUnstorable(node)) return true;
    } else if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node)) {
        if (isUnstorable(key)) return true;
        stack.push(node[key]);
      }
    }
  }
  return false;
}

/**
 * The value of a JSON text, or undefined when the text is not JSON, nests too deep, or
 * would parse into a string PostgreSQL cannot store (its caller then keeps the text).
 */
export function parseJsonText(text: string): JsonValue | undefined {
  // Cheap refusal of plain prose before JSON.parse builds an exception for it.
  const first = text.trimStart().charCodeAt(0);
  const plausible =
    first === 0x7b /* { */ || first === 0x5b /* [ */ || first === 0x22 /* " */ || first === 0x2d /* - */ ||
    (first >= 0x30 && first <= 0x39) || first === 0x74 /* t */ || first === 0x66 /* f */ || first === 0x6e /* n */;
  if (!plausible) return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  if (typeof value === 'object' && value !== null && nestingDepth(text, MAX_PARSED_JSON_DEPTH) > MAX_PARSED_JSON_DEPTH) {
    return undefined;
  }
  if (text.includes('\\u') && SUSPECT_ESCAPE.test(text) && hasUnstorableString(value)) return undefined;
  return value;
}

/** A string attribute as JSON when it is JSON text, else as it was sent. */
export function jsonOrText(value: AttributeValue): JsonValue {
  if (typeof value !== 'string') return value;
  const parsed = parseJsonText(value);
  return parsed === undefined ? value : parsed;
}

/** A number attribute, also from a numeric string (int64 beyond 2^53 arrives as text). */
export function toNumber(value: AttributeValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Sets a key on an object built here: a `__proto__` key stays a plain key, not a prototype. */
export function setKey(object: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/** A span's attributes with the lookups the conventions need; parses are cached. */
export class SpanAttributes {
  private parsed: Map<string, JsonValue> | undefined;
  /** Rebuilt flattened lists by prefix (callers pass the same wrappers for one prefix). */
  private rebuilt: Map<string, JsonValue[]> | undefined;
  /** Flattened list entries by prefix: [rest of the key, value, whole key]. */
  private lists: Map<string, Array<[string, AttributeValue, string]>> | undefined;
  /** Every key's first segment (`langfuse` of `langfuse.observation.input`). */
  private namespaces: Set<string> | undefined;

  constructor(readonly values: Attributes) {}

  has(key: string): boolean {
    return hasOwn.call(this.values, key);
  }

  get(key: string): AttributeValue | undefined {
    return hasOwn.call(this.values, key) ? this.values[key] : undefined;
  }

  string(key: string): string | undefined {
    const value = this.get(key);
    return typeof value === 'string' ? value : undefined;
  }

  /** A non-empty string attribute. */
  text(key: string): string | undefined {
    const value = this.get(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  number(key: string): number | undefined {
    return toNumber(this.get(key));
  }

  /** The attribute, its JSON text parsed when it is JSON (once per span and key). */
  json(key: string): JsonValue | undefined {
    const value = this.get(key);
    if (typeof value !== 'string') return value;
    this.parsed ??= new Map();
    let parsed = this.parsed.get(key);
    if (parsed === undefined) {
      parsed = jsonOrText(value);
      this.parsed.set(key, parsed);
    }
    return parsed;
  }

  /**
   * Whether any key starts with `namespace.`: a convention's table is read only for the
   * spans that carry its namespace, so a span pays for the conventions it uses, not for
   * every one we know.
   */
  hasNamespace(namespace: string): boolean {
    if (this.namespaces === undefined) this.index();
    return this.namespaces!.has(namespace);
  }

  /** The attributes flattened under `prefix.N.`, as [rest of the key, value, whole key], in the order sent. */
  flattened(prefix: string): Array<[string, AttributeValue, string]> | undefined {
    if (this.lists === undefined) this.index();
    return this.lists!.get(prefix);
  }

  /** One pass over the keys: their namespaces, and every `<prefix>.<index>.<rest>` key bucketed by its prefix. */
  private index(): void {
    this.lists = new Map();
    this.namespaces = new Set();
    for (const key of Object.keys(this.values)) {
      const dot = key.indexOf('.');
      if (dot > 0) this.namespaces.add(key.slice(0, dot));
      const at = firstIndexSegment(key);
      if (at < 0) continue;
      const bucket = key.slice(0, at);
      let entries = this.lists.get(bucket);
      if (!entries) this.lists.set(bucket, (entries = []));
      entries.push([key.slice(at + 1), this.values[key], key]);
    }
  }

  /** The keys a flattened list is made of (for metadata to leave out once it is mapped). */
  flattenedKeys(prefix: string): string[] {
    return (this.flattened(prefix) ?? []).map((entry) => entry[2]);
  }

  /**
   * A flattened list put back together: `llm.input_messages.0.message.role` and
   * `...0.message.tool_calls.1.tool_call.function.name` become
   * `[{ role, tool_calls: [ , { function: { name } }] }]`. A segment in `wrappers` that
   * follows an index (OpenInference's `message`, `tool_call`...) is dropped. Indices are
   * compacted in order: a huge index never allocates a huge array.
   */
  list(prefix: string, wrappers: readonly string[]): JsonValue[] | undefined {
    const entries = this.flattened(prefix);
    if (!entries) return undefined;
    // Cached: input/output and the inferred decision both read llm.output_messages.
    this.rebuilt ??= new Map();
    let list = this.rebuilt.get(prefix);
    if (list === undefined) {
      const root = new Tree();
      for (const [rest, value] of entries) root.set(rest.split('.'), 0, value, wrappers);
      this.rebuilt.set(prefix, (list = root.toJson() as JsonValue[]));
    }
    return list;
  }
}

/** True when text[from, to) is one or more ASCII digits (a list index). */
function isDigits(text: string, from = 0, to = text.length): boolean {
  if (from >= to) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Index of the dot before the first all-digit segment of a key that continues after it, or -1. */
function firstIndexSegment(key: string): number {
  let dot = key.indexOf('.');
  while (dot >= 0) {
    const next = key.indexOf('.', dot + 1);
    if (next < 0) return -1;
    if (isDigits(key, dot + 1, next)) return dot;
    dot = next;
  }
  return -1;
}

/** A node of a flattened list being rebuilt: children by segment, arrays where segments are indices. */
class Tree {
  private children = new Map<string, Tree | AttributeValue>();
  private indexed = true;

  set(segments: string[], from: number, value: AttributeValue, wrappers: readonly string[]): void {
    const segment = segments[from];
    const index = isDigits(segment);
    if (!index) this.indexed = false;
    let at = from + 1;
    // After an index, OpenInference repeats the element's kind (`0.message.role`).
    if (index && at < segments.length - 1 && wrappers.includes(segments[at])) at++;
    if (at >= segments.length) {
      this.children.set(segment, value);
      return;
    }
    let child = this.children.get(segment);
    if (!(child instanceof Tree)) this.children.set(segment, (child = new Tree()));
    child.set(segments, at, value, wrappers);
  }

  toJson(): JsonValue {
    const json = (child: Tree | AttributeValue): JsonValue => (child instanceof Tree ? child.toJson() : child);
    if (this.indexed) {
      const keys = [...this.children.keys()];
      // Usually sent in order already: sorted only when not.
      let ordered = true;
      for (let i = 1; i < keys.length && ordered; i++) ordered = Number(keys[i - 1]) <= Number(keys[i]);
      if (!ordered) keys.sort((a, b) => Number(a) - Number(b));
      return keys.map((key) => json(this.children.get(key)!));
    }
    const object: { [key: string]: JsonValue } = {};
    for (const [key, child] of this.children) setKey(object, key, json(child));
    return object;
  }
}
