// Field limits of the ingest contract. The spec leaves them open; these are the
// service's documented choices (docs/api.md "Limits"). Per-request limits (body size,
// traces per batch, children per trace) are configurable in lib/env.ts.
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
