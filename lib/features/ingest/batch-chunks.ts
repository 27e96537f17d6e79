// A JSON batch cut into runs of whole traces, each small enough to be stored in a
// statement of its own, with each run's JSON text taken from the request's text as written.
//
// Why: embedded PGlite's WASM memory grows to the largest statement it has run and never
// gives it back, so one 9 MB statement would keep the server ~200 MB larger for good.
import { closingQuote } from './json-depth';

/** Start (inclusive) and end (exclusive) of each element of a body's "traces" array in its text. */
export type TraceRange = readonly [start: number, end: number];

/**
 * Where each trace of a POST /api/traces body lies in its text: the elements of the body's
 * "traces" array (its last "traces" key, the one JSON.parse keeps). The text must be valid
 * JSON (it has passed JSON.parse); strings are skipped whole, as nestingDepth does.
 */
export function traceRanges(text: string): TraceRange[] {
  let depth = 0;
  let key = '';
  let inTraces = false;
  let start = -1;
  let ranges: TraceRange[] = [];
  let current: TraceRange[] = [];
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x22 /* " */) {
      const close = closingQuote(text, k);
      if (depth === 1) {
        let next = close + 1;
        while (isSpace(text.charCodeAt(next))) next++;
        if (text.charCodeAt(next) === 0x3a /* : */) key = keyText(text, k, close);
      } else if (depth === 2 && inTraces && start < 0) {
        start = k;
      }
      k = close;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (depth === 1 && c === 0x5b && key === 'traces') {
        inTraces = true;
        current = [];
      } else if (depth === 2 && inTraces && start < 0) {
        start = k;
      }
      depth++;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
      if (depth === 2 && inTraces && start >= 0) {
        current.push([start, k + 1]);
        start = -1;
      } else if (depth === 1 && inTraces) {
        inTraces = false;
        ranges = current;
      }
    }
  }
  return ranges;
}

// A key as JSON.parse reads it: escapes ("tr\u0061ces") decoded.
function keyText(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  return raw.includes('\\') ? (JSON.parse(text.slice(open, close + 1)) as string) : raw;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A run of consecutive traces: indexes [from, to) of the batch. */
export interface TraceRun {
  from: number;
  to: number;
}

/**
 * Consecutive runs of traces whose texts add up to at most `maxChars` each; a trace
 * longer than that is a run of its own.
 */
export function traceRuns(ranges: readonly TraceRange[], maxChars: number): TraceRun[] {
  const runs: TraceRun[] = [];
  let from = 0;
  let chars = 0;
  ranges.forEach(([start, end], i) => {
    const size = end - start;
    if (i > from && chars + size > maxChars) {
      runs.push({ from, to: i });
      from = i;
      chars = 0;
    }
    chars += size;
  });
  if (ranges.length > from) runs.push({ from, to: ranges.length });
  return runs;
}

/** A run's traces as the JSON text of a body of their own, each trace's text as written. */
export function runText(text: string, ranges: readonly TraceRange[], run: TraceRun): string {
  const parts: string[] = [];
  for (let i = run.from; i < run.to; i++) parts.push(text.slice(ranges[i][0], ranges[i][1]));
  return `{"traces":[${parts.join(',')}]}`;
}
