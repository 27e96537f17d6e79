// Field limits of the ingest contract. The spec leaves them open; these are the
// service's documented choices (docs/api.md "Limits"). Per-request limits (body size,
// traces per batch, children per trace) are configurable in lib/core/config.ts.
export const FIELD_LIMITS = {
  /** Trace and child ids, sessionId, parentSpanId, spanId. */
  idLength: 256,
  /** Trace, span and event names. */
  nameLength: 1024,
  /** Each tag. */
  tagLength: 256,
  tagsPerTrace: 100,
  /** reasoning and statusMessage. */
  textLength: 100_000,
  /** Nesting depth of any JSON value (metadata, input, output, ...). */
  jsonDepth: 256,
} as const;

/**
 * The largest magnitude of each kind of number stored (docs/api.md "Limits"): far beyond
 * any real run, and small enough that no sum or average over any number of rows can
 * overflow a double. JSON and SOAP ingest refuse a number beyond its bound; OTLP clamps it.
 */
export const NUMBER_LIMITS = {
  /** US dollars: totalCost, costUsd. */
  cost: 1e6,
  /** totalTokens, tokenCount. */
  tokens: 1e12,
  /** Milliseconds (~317 years): totalDuration, durationMs. */
  duration: 1e13,
  /** A NUMERIC score's value (lib/scores). */
  score: 1e9,
} as const;

export type NumberKind = keyof typeof NUMBER_LIMITS;

/** The value within its kind's bound (OTLP keeps a span whose attributes overstate it). */
export function clampNumber(value: number, kind: NumberKind): number {
  const bound = NUMBER_LIMITS[kind];
  return Math.min(Math.max(value, -bound), bound);
}

/** The value within its kind's bound, null kept. */
export function clampOptional(value: number | null, kind: NumberKind): number | null {
  return value === null ? null : clampNumber(value, kind);
}
