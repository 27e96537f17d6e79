// A trace's search words computed where its text already is: in the ingest request, so the
// JSON batch can write each trace's "SearchDoc" in its own statement instead of queueing the
// trace for the indexer (lib/features/search/search-index.ts), which spent 3.6-5.3 ms of database CPU
// a trace reading back and splitting what ingest had just stored.
//
// What has to match is crossroads_trace_words (migration search_words_lowered_once): the
// distinct words, split at spaces and line breaks, of each stored row's text, where payloads
// are printed as PostgreSQL prints jsonb. This module gives the distinct words as written;
// the statement lower-cases, filters and sorts them with the database's own lower()
// (crossroads_search_words), because lower() depends on the database's locale.
//
// jsonb::text, as PostgreSQL prints it (JsonbToCString, escape_json): object keys ordered by
// byte length, then bytewise (UTF-8); the last of duplicate keys kept (as JSON.parse does);
// ", " between items and ": " after keys; strings escaped as JSON.stringify escapes them
// (\" \\ \b \f \n \r \t, other controls as \u00xx, nothing else); numbers as numeric prints
// them: as written, except that an exponent is expanded and a negative zero loses its sign.
// So a payload's words are known here only when each of its numbers is written as JavaScript
// prints it back (plainPayloadNumbers checks the request text); otherwise the trace is left
// to the indexer, as is any value that is not plain JSON data.
import 'server-only';
import { closingQuote } from '@/lib/features/ingest/shared';
import type { TraceInput } from '@/lib/features/ingest/shared';

const ASCII = /^[\x00-\x7f]*$/;
// What JSON.stringify (and jsonb) print otherwise than as the character itself.
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

function compareKeys(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length !== y.length ? x.length - y.length : Buffer.compare(x, y);
}

/** Thrown when a value cannot be printed exactly as PostgreSQL would. */
const INEXACT = Symbol('inexact');

// Values built in code (validateIngestBody) may hold a Date or a class instance, which
// JSON.stringify prints through toJSON: only plain objects are printed here.
const PLAIN = new Set<unknown>([Object.prototype, null]);

/** A printed string value: whole when it has no space, else its text before the first space and after the last. */
type Printed = string | { head: string; tail: string };

/**
 * Collects the distinct words of jsonb texts without building them: the word being built
 * is `pending`, closed at every space the printed text would have. An agent's spans repeat
 * the conversation, so each string value's inner words are split once per trace.
 */
class WordSink {
  readonly words = new Set<string>();
  private pending = '';
  private readonly strings = new Map<string, Printed>();

  close(): void {
    if (this.pending !== '') this.words.add(this.pending);
    this.pending = '';
  }

  /** Words of a plain text field (split at spaces and line breaks). */
  text(value: string | null): void {
    if (!value) return;
    let start = 0;
    for (let k = 0; k <= value.length; k++) {
      const c = k < value.length ? value.charCodeAt(k) : 0x20;
      if (c === 0x20 || c === 0x0a) {
        if (k > start) this.words.add(value.slice(start, k));
        start = k + 1;
      }
    }
  }

  /** Words of a payload as jsonb::text prints it (JSON null: stored as SQL NULL, no words). */
  json(value: unknown): void {
    if (value === null || value === undefined) return;
    this.value(value);
    this.close();
  }

  /** Adds the words of s between `from` and `to`, both at a space (or the ends). */
  private between(s: string, from: number, to: number): void {
    let start = from;
    while (start < to) {
      let space = s.indexOf(' ', start);
      if (space < 0 || space > to) space = to;
      if (space > start) this.words.add(s.slice(start, space));
      start = space + 1;
    }
  }

  private string(value: string): void {
    let printed = this.strings.get(value);
    if (printed === undefined) {
      // Most strings need no escape: their printed form is the value in quotes.
      const s = NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
      const first = s.indexOf(' ');
      if (first < 0) printed = s;
      else {
        const last = s.lastIndexOf(' ');
        printed = { head: s.slice(0, first), tail: s.slice(last + 1) };
        this.between(s, first + 1, last);
      }
      this.strings.set(value, printed);
    }
    if (typeof printed === 'string') this.pending += printed;
    else {
      this.pending += printed.head;
      this.close();
      this.pending = printed.tail;
    }
  }

  private value(value: unknown): void {
    if (value === null) this.pending += 'null';
    else if (typeof value === 'string') this.string(value);
    else if (typeof value === 'number') {
      const text = String(value);
      if (!Number.isFinite(value) || text.includes('e') || Object.is(value, -0)) throw INEXACT;
      this.pending += text;
    } else if (typeof value === 'boolean') this.pending += value ? 'true' : 'false';
    else if (Array.isArray(value)) {
      this.pending += '[';
      for (let k = 0; k < value.length; k++) {
        if (k > 0) {
          this.pending += ',';
          this.close();
        }
        this.value(value[k] === undefined ? null : value[k]);
      }
      this.pending += ']';
    } else if (typeof value === 'object' && PLAIN.has(Object.getPrototypeOf(value))) {
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
      if (keys.length > 1) keys.sort(compareKeys);
      this.pending += '{';
      for (let k = 0; k < keys.length; k++) {
        if (k > 0) {
          this.pending += ',';
          this.close();
        }
        this.string(keys[k]);
        this.pending += ':';
        this.close();
        this.value(obj[keys[k]]);
      }
      this.pending += '}';
    } else {
      throw INEXACT;
    }
  }
}

/**
 * The distinct words as written (space-separated) of what ingest stores for this trace, as
 * crossroads_trace_words reads them back from its rows; undefined when a value cannot be
 * printed exactly here (the trace is then left to the indexer).
 */
export function traceWordsAsWritten(t: TraceInput): string | undefined {
  const sink = new WordSink();
  try {
    sink.text(t.name);
    sink.json(t.metadata);
    for (const s of t.spans) {
      sink.text(s.name);
      sink.json(s.input);
      sink.json(s.output);
      sink.text(s.statusMessage);
      sink.json(s.metadata);
    }
    for (const d of t.decisionPoints) {
      sink.text(d.reasoning);
      sink.json(d.chosen);
      sink.json(d.alternatives);
    }
    for (const e of t.events) {
      sink.text(e.name);
      sink.json(e.metadata);
    }
  } catch (err) {
    if (err === INEXACT) return undefined;
    throw err;
  }
  return [...sink.words].join(' ');
}

// The API's own number fields, which are stored from the validated values, not printed
// from the text: a trace's (depth 3 of the body) and a child's or score's (depth 5).
const NUMBER_FIELDS = new Set(['durationMs', 'costUsd', 'tokenCount', 'totalCost', 'totalTokens', 'totalDuration', 'value']);

/**
 * Whether every number of a POST /api/traces body that may lie in a stored payload is
 * written as JavaScript prints it back (no exponent, no trailing zero after a point, no
 * negative zero, no digits beyond a double's). Numbers that are the value of one of the
 * API's number fields are not looked at. The text must be valid JSON (it passed JSON.parse).
 */
export function plainPayloadNumbers(text: string): boolean {
  let depth = 0;
  let numberField = false;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x22 /* " */) {
      const close = closingQuote(text, k);
      if (close < 0) return false;
      if (depth === 3 || depth === 5) {
        let next = close + 1;
        while (next < text.length && isSpace(text.charCodeAt(next))) next++;
        if (text.charCodeAt(next) === 0x3a /* : */) numberField = NUMBER_FIELDS.has(text.slice(k + 1, close));
      }
      k = close;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let end = k + 1;
      let integer = c !== 0x2d;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (d >= 0x30 && d <= 0x39) continue;
        if (d === 0x2e /* . */ || d === 0x65 /* e */ || d === 0x45 /* E */ || d === 0x2b /* + */ || d === 0x2d /* - */) {
          integer = false;
          continue;
        }
        break;
      }
      const field = numberField && (depth === 3 || depth === 5);
      // Short integers without a leading zero print back as written; anything else is compared.
      if (!field && !(integer && end - k <= 15 && (c !== 0x30 || end - k === 1))) {
        const token = text.slice(k, end);
        if (token.includes('e') || token.includes('E') || String(Number(token)) !== token) return false;
      }
      k = end - 1;
    }
  }
  return true;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

