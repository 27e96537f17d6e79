// Where each stored payload lies in an ingest request's JSON text, found in one scan that
// skips strings with indexOf (~10 ms for a 9 MB batch), so ingest can send each table's
// rows with their payloads as written: numbers keep their digits (`1.50`), nothing is
// serialised again, and PostgreSQL never parses the whole request as one jsonb document.
//
// The text must be valid JSON (it passed JSON.parse). As JSON.parse does, the last of
// duplicate keys wins, and a key written with escapes (`"\u0069nput"`) is that key.
import { closingQuote } from './json-depth';

/** [start, end) of a value in the text. */
export type Slice = readonly [start: number, end: number];

/** The payload fields found in one object, by name. */
export type PayloadFields = Map<string, Slice>;

export interface TraceSlices {
  fields: PayloadFields;
  spans: PayloadFields[];
  decisionPoints: PayloadFields[];
  events: PayloadFields[];
}

type ChildArray = 'spans' | 'decisionPoints' | 'events';
const CHILD_ARRAYS = new Set<string>(['spans', 'decisionPoints', 'events']);

// Every field any table stores from the text (ingest.ts TABLES' payloads).
const PAYLOAD_FIELDS = new Set(['input', 'output', 'metadata', 'chosen', 'alternatives', 'contextSnapshot']);

const QUOTE = 0x22;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

class Scan {
  constructor(readonly text: string) {}

  space(k: number): number {
    while (isSpace(this.text.charCodeAt(k))) k++;
    return k;
  }

  /** End of the value starting at k. */
  skip(k: number): number {
    const text = this.text;
    const c = text.charCodeAt(k);
    if (c === QUOTE) return closingQuote(text, k) + 1;
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      let depth = 0;
      for (let p = k; p < text.length; p++) {
        const d = text.charCodeAt(p);
        if (d === QUOTE) p = closingQuote(text, p);
        else if (d === 0x7b || d === 0x5b) depth++;
        else if ((d === 0x7d /* } */ || d === 0x5d) /* ] */ && --depth === 0) return p + 1;
      }
      throw new Error('payloadSlices: unbalanced JSON');
    }
    let p = k;
    for (; p < text.length; p++) {
      const d = text.charCodeAt(p);
      if (d === 0x2c /* , */ || d === 0x7d || d === 0x5d || isSpace(d)) break;
    }
    return p;
  }

  /** Calls member(key, valueStart) for each member of the object at k (member returns the value's end); returns the object's end. */
  object(k: number, member: (key: string, at: number) => number): number {
    const text = this.text;
    k = this.space(k + 1);
    if (text.charCodeAt(k) === 0x7d) return k + 1;
    for (;;) {
      const close = closingQuote(text, k);
      const raw = text.slice(k + 1, close);
      const key = raw.includes('\\') ? (JSON.parse(text.slice(k, close + 1)) as string) : raw;
      k = this.space(this.space(close + 1) + 1); // past the colon
      k = this.space(member(key, k));
      if (text.charCodeAt(k) === 0x7d) return k + 1;
      k = this.space(k + 1); // past the comma
    }
  }

  /** Calls element(start, index) for each element of the array at k; returns the array's end. */
  array(k: number, element: (at: number, index: number) => number): number {
    const text = this.text;
    k = this.space(k + 1);
    if (text.charCodeAt(k) === 0x5d) return k + 1;
    for (let index = 0; ; index++) {
      k = this.space(element(k, index));
      if (text.charCodeAt(k) === 0x5d) return k + 1;
      k = this.space(k + 1);
    }
  }

  isObject(k: number): boolean {
    return this.text.charCodeAt(k) === 0x7b;
  }

  /** The payload fields of the object at k (none when it is not an object). */
  payloads(k: number, into: PayloadFields): number {
    if (!this.isObject(k)) return this.skip(k);
    return this.object(k, (key, at) => {
      const end = this.skip(at);
      if (PAYLOAD_FIELDS.has(key)) into.set(key, [at, end]);
      return end;
    });
  }
}

/** Each trace's payload slices, by position in `traces` (children by position in their arrays). */
export function payloadSlices(text: string): TraceSlices[] {
  const scan = new Scan(text);
  const root = scan.space(0);
  let traces: TraceSlices[] = [];
  if (!scan.isObject(root)) return traces;
  scan.object(root, (key, at) => {
    if (key !== 'traces' || text.charCodeAt(at) !== 0x5b) return scan.skip(at);
    const found: TraceSlices[] = [];
    traces = found; // the last "traces" wins
    return scan.array(at, (start) => {
      const trace: TraceSlices = { fields: new Map(), spans: [], decisionPoints: [], events: [] };
      found.push(trace);
      if (!scan.isObject(start)) return scan.skip(start);
      return scan.object(start, (field, value) => {
        if (CHILD_ARRAYS.has(field)) {
          const children: PayloadFields[] = [];
          trace[field as ChildArray] = children; // the last one wins here too
          if (text.charCodeAt(value) !== 0x5b) return scan.skip(value);
          return scan.array(value, (child) => {
            const fields: PayloadFields = new Map();
            children.push(fields);
            return scan.payloads(child, fields);
          });
        }
        const end = scan.skip(value);
        if (field === 'metadata') trace.fields.set(field, [value, end]);
        return end;
      });
    });
  });
  return traces;
}
