// Option labels: how a decision's `chosen` value and each of its `alternatives` (any
// JSON) become one short text, the same everywhere (insights API, page, SOAP, the list's
// `chosen` filter). This file is the rule in TypeScript; label-sql.ts is the same rule in
// SQL, and label-sql.test.ts checks on both databases that they agree on stored values.
// Safe for client components: no server module is imported.
//
// The rule (issue 12):
// - a string is itself;
// - an object is the value of the first of LABEL_KEYS (in that order, whatever the
//   object's own key order) that holds a string;
// - anything else (an object without such a key, an array, a number, a boolean, null) is
//   its compact JSON text, defined below;
// - a label is cut after MAX_LABEL_CHARS characters (Unicode code points, as PostgreSQL
//   counts them).
// An absent `chosen` is stored as SQL NULL, the same as a JSON null (see ingest.ts), and
// read back as null: both are labelled "null".
//
// Compact JSON text is the text of the value AS STORED in jsonb, without whitespace:
// PostgreSQL does not keep an object's key order (jsonb orders keys by their length in
// UTF-8 bytes, then bytewise) and prints numbers as `numeric` (plain decimal, never an
// exponent), so the label is made from that canonical form, the only one SQL can see:
// - object keys in jsonb's order, no space after ':' or ',';
// - numbers in plain decimal, without trailing fractional zeros (1.50 -> 1.5, 1.0 -> 1,
//   1e21 -> 1000000000000000000000, 1.5e-7 -> 0.00000015), so that a number written as
//   1.0 (Python's json) and the 1 JavaScript reads back have the same label;
// - strings escaped as JSON.stringify and jsonb both do (", \, \b \f \n \r \t, other
//   control characters as \u00xx; everything else as is).
// For example {"tool": 5, "args": {"q": "a b", "k": 2.0}} is labelled {"args":{"k":2,"q":"a b"},"tool":5}.
//
// Known limit: a number written with more significant digits than a double holds
// (12345678901234567890) keeps them all in jsonb, and so in the SQL label, while the
// value JavaScript reads back has lost them; only there can this function, which sees
// the parsed value, differ from the SQL label.
import type { JsonValue } from '@/lib/core/json';

/** The keys that name an object option, in priority order. */
export const LABEL_KEYS = ['tool', 'name', 'id', 'action', 'route', 'agent', 'model'] as const;

/** Labels are cut after this many characters (Unicode code points). */
export const MAX_LABEL_CHARS = 200;

/** The label of one option value (a decision's `chosen`, or one of its `alternatives`). */
export function optionLabel(value: JsonValue | undefined): string {
  if (typeof value === 'string') return cut(value);
  if (isObject(value)) {
    for (const key of LABEL_KEYS) {
      const named = Object.hasOwn(value, key) ? value[key] : undefined;
      if (typeof named === 'string') return cut(named);
    }
  }
  return cut(compactJson(value ?? null, 2 * MAX_LABEL_CHARS));
}

/** The first MAX_LABEL_CHARS code points of the text. */
function cut(text: string): string {
  // Fast path: fewer UTF-16 units than the limit means fewer code points too.
  if (text.length <= MAX_LABEL_CHARS) return text;
  let units = 0;
  let points = 0;
  while (units < text.length && points < MAX_LABEL_CHARS) {
    const c = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1); // NaN past the end
    units += c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    points += 1;
  }
  return text.slice(0, units);
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const encoder = new TextEncoder();

/** jsonb's key order: shorter UTF-8 first, then bytewise. */
function compareKeys(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** A number as PostgreSQL's numeric prints it, without trailing fractional zeros. */
export function plainNumber(n: number): string {
  // String() gives the shortest text that reads back as n, with an exponent outside
  // 1e-7 <= |n| < 1e21; numeric never uses one. -0 prints as "0" in both.
  const text = String(n);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const negative = text.startsWith('-');
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exponent = Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  // Where the decimal point goes, counted in digits from the left.
  const point = (dot < 0 ? mantissa.length : dot) + exponent;
  let plain: string;
  if (point <= 0) plain = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = digits + '0'.repeat(point - digits.length);
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + plain;
}

/**
 * The compact canonical JSON text of a value (see the top of this file), built without
 * recursion (values can nest deeply) and stopped once it holds at least `enough` UTF-16
 * units: the caller keeps only a prefix.
 */
function compactJson(value: JsonValue, enough: number): string {
  let out = '';
  // Each entry is a value still to write, or literal text (closing brackets, separators).
  const stack: Array<{ value: JsonValue } | { text: string }> = [{ value }];
  while (stack.length > 0 && out.length < enough) {
    const item = stack.pop()!;
    if ('text' in item) {
      out += item.text;
      continue;
    }
    const v = item.value;
    if (v === null) out += 'null';
    else if (typeof v === 'boolean') out += v ? 'true' : 'false';
    else if (typeof v === 'number') out += plainNumber(v);
    else if (typeof v === 'string') out += JSON.stringify(v);
    else if (Array.isArray(v)) {
      out += '[';
      stack.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i] });
        if (i > 0) stack.push({ text: ',' });
      }
    } else {
      out += '{';
      stack.push({ text: '}' });
      const keys = Object.keys(v).sort(compareKeys);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: v[keys[i]] });
        stack.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:` });
      }
    }
  }
  return out;
}
