// Pure helpers for showing JSON values: sizes, one-line previews, short summaries of
// a decision's options, and ranges for opening huge containers a slice at a time.
import type { JsonValue } from '@/lib/core/json';

const RANGE = 100;

/**
 * Splits [start, end) into at most 100 ranges of a power-of-100 size, or null when it
 * has 100 entries or fewer (then they are listed directly).
 */
export function chunkRanges(start: number, end: number): Array<[number, number]> | null {
  const n = end - start;
  if (n <= RANGE) return null;
  let size = RANGE;
  while (Math.ceil(n / size) > RANGE) size *= RANGE;
  const out: Array<[number, number]> = [];
  for (let a = start; a < end; a += size) out.push([a, Math.min(end, a + size)]);
  return out;
}

/** Length of the value's compact JSON text (characters; bytes for ASCII). */
export function jsonSize(value: JsonValue): number {
  if (value === null) return 4;
  if (typeof value === 'string') return value.length;
  return (JSON.stringify(value) ?? '').length;
}

/**
 * A one-line preview of at most about `max` characters, built without serialising the
 * whole value (payloads can be megabytes).
 */
export function previewJson(value: JsonValue, max = 80): string {
  let budget = max;
  const out: string[] = [];
  const emit = (s: string) => {
    out.push(s);
    budget -= s.length;
  };
  // Explicit stack of pending tokens: values to render and literal separators.
  type Item = { v: JsonValue } | { s: string };
  const stack: Item[] = [{ v: value }];
  while (stack.length > 0) {
    if (budget <= 0) {
      emit('…');
      break;
    }
    const item = stack.pop()!;
    if ('s' in item) {
      emit(item.s);
      continue;
    }
    const v = item.v;
    if (v === null || typeof v === 'number' || typeof v === 'boolean') {
      emit(String(v));
    } else if (typeof v === 'string') {
      const room = Math.max(8, budget - 2);
      emit(JSON.stringify(v.length > room ? `${v.slice(0, room)}…` : v));
    } else if (Array.isArray(v)) {
      emit('[');
      const pending: Item[] = [];
      const count = Math.min(v.length, Math.max(1, Math.ceil(budget / 2)));
      for (let i = 0; i < count; i++) {
        if (i > 0) pending.push({ s: ', ' });
        pending.push({ v: v[i] });
      }
      if (count < v.length) pending.push({ s: ', …' });
      pending.push({ s: ']' });
      for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]);
    } else {
      emit('{');
      const pending: Item[] = [];
      let i = 0;
      let shown = 0;
      for (const key in v) {
        if (shown >= Math.max(1, Math.ceil(budget / 3))) {
          pending.push({ s: ', …' });
          break;
        }
        if (i++ > 0) pending.push({ s: ', ' });
        pending.push({ s: `${key}: ` });
        pending.push({ v: v[key] });
        shown++;
      }
      pending.push({ s: '}' });
      for (let j = pending.length - 1; j >= 0; j--) stack.push(pending[j]);
    }
  }
  return out.join('');
}

// Fields that usually name an option, in order of preference.
const NAME_FIELDS = [
  'name',
  'tool',
  'toolName',
  'tool_name',
  'action',
  'option',
  'choice',
  'route',
  'label',
  'title',
  'model',
  'agent',
  'strategy',
  'id',
  'value',
  'type',
];

/** What a decision option is called: `web_search` for {tool: "web_search", args: …}. */
export function summarizeJson(value: JsonValue, max = 80): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}…` : value;
  if (typeof value !== 'object') return String(value);
  if (!Array.isArray(value)) {
    for (const field of NAME_FIELDS) {
      const named = value[field];
      if (typeof named === 'string' && named.trim()) return summarizeJson(named, max);
      if (typeof named === 'number') return String(named);
    }
  }
  return previewJson(value, max);
}

/** Deep equality of two JSON values (key order ignored), iterative. */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  const stack: Array<[JsonValue, JsonValue]> = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ya = y as JsonValue[];
      if (x.length !== ya.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], ya[i]]);
      continue;
    }
    const xo = x as Record<string, JsonValue>;
    const yo = y as Record<string, JsonValue>;
    const xk = Object.keys(xo);
    if (xk.length !== Object.keys(yo).length) return false;
    for (const k of xk) {
      if (!Object.prototype.hasOwnProperty.call(yo, k)) return false;
      stack.push([xo[k], yo[k]]);
    }
  }
  return true;
}
