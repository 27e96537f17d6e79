// Which spans the OTLP transport refuses, one at a time (the others of the request are
// stored: partial success). Each limit is a named constant so README and tests cite it;
// each reason is the short text the exporter reads in partial_success.error_message.
import { FIELD_LIMITS } from '@/lib/core/limits';
import { isUnstorable } from './attributes';
import type { AttributeValue, Attributes, OtlpResource, OtlpScope, OtlpSpan } from './types';

/** Longest string in any attribute value (span, event, resource or scope), in UTF-16 units. */
export const MAX_ATTRIBUTE_CHARS = 1_048_576;
/** Most events on one span. */
export const MAX_EVENTS_PER_SPAN = 1_000;
/** Deepest nesting of an attribute value (arrays and key-value lists); metadata holds them a few levels down. */
export const MAX_ATTRIBUTE_DEPTH = 128;
/** Longest span name (the domain's name limit). */
export const MAX_SPAN_NAME_CHARS = FIELD_LIMITS.nameLength;
/** Longest status message (the domain's statusMessage limit). */
export const MAX_STATUS_MESSAGE_CHARS = FIELD_LIMITS.textLength;

export const REJECTION_REASONS = {
  traceId: 'invalid trace id (must be 16 bytes, not all zero)',
  spanId: 'invalid span id (must be 8 bytes, not all zero)',
  parentSpanId: 'invalid parent span id (must be empty or 8 bytes)',
  startTime: 'missing start time (0)',
  endBeforeStart: 'end time before start time',
  nameLength: `span name longer than ${MAX_SPAN_NAME_CHARS} characters`,
  statusMessageLength: `status message longer than ${MAX_STATUS_MESSAGE_CHARS} characters`,
  tooManyEvents: `more than ${MAX_EVENTS_PER_SPAN} events on one span`,
  attributeLength: `attribute value longer than ${MAX_ATTRIBUTE_CHARS} characters`,
  attributeDepth: `attribute value nested deeper than ${MAX_ATTRIBUTE_DEPTH} levels`,
  unstorableText: 'text contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored',
} as const;

export type RejectionReason = (typeof REJECTION_REASONS)[keyof typeof REJECTION_REASONS];

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ALL_ZERO = /^0+$/;

/** The span's parent id for the domain: null for a root ('' or all zeros on the wire). */
export function parentIdOf(span: OtlpSpan): string | null {
  const parent = span.parentSpanId;
  return parent === '' || ALL_ZERO.test(parent) ? null : parent;
}

function stringProblem(value: string): RejectionReason | null {
  if (value.length > MAX_ATTRIBUTE_CHARS) return REJECTION_REASONS.attributeLength;
  return isUnstorable(value) ? REJECTION_REASONS.unstorableText : null;
}

/** Why an attribute set cannot be stored, or null. Iterative: values nest. */
export function attributesProblem(attributes: Attributes): RejectionReason | null {
  const stack: Array<[AttributeValue, number]> = [];
  for (const key of Object.keys(attributes)) {
    if (isUnstorable(key)) return REJECTION_REASONS.unstorableText;
    const top = attributes[key];
    // Most values are flat: checked here, without the stack.
    if (typeof top === 'string') {
      const problem = stringProblem(top);
      if (problem) return problem;
      continue;
    }
    if (typeof top !== 'object' || top === null) continue;
    stack.push([top, 1]);
    while (stack.length > 0) {
      const [value, depth] = stack.pop()!;
      if (typeof value === 'string') {
        const problem = stringProblem(value);
        if (problem) return problem;
      } else if (typeof value === 'object' && value !== null) {
        if (depth > MAX_ATTRIBUTE_DEPTH) return REJECTION_REASONS.attributeDepth;
        if (Array.isArray(value)) {
          for (const item of value) stack.push([item, depth + 1]);
        } else {
          for (const k of Object.keys(value)) {
            if (isUnstorable(k)) return REJECTION_REASONS.unstorableText;
            stack.push([value[k], depth + 1]);
          }
        }
      }
    }
  }
  return null;
}

// Resource and scope objects are shared by the spans of one resourceSpans/scopeSpans:
// each is checked once per request.
type SharedChecks = WeakMap<object, RejectionReason | null>;

function sharedProblem(owner: OtlpResource | OtlpScope, checked: SharedChecks): RejectionReason | null {
  let problem = checked.get(owner);
  if (problem === undefined) {
    const unstorableName = 'name' in owner && (isUnstorable(owner.name) || isUnstorable(owner.version));
    problem = unstorableName ? REJECTION_REASONS.unstorableText : attributesProblem(owner.attributes);
    checked.set(owner, problem);
  }
  return problem;
}

/** A checker that remembers what it found for shared resources and scopes. */
export function spanChecker(): (span: OtlpSpan) => RejectionReason | null {
  const checked: SharedChecks = new WeakMap();
  return (span) => {
    if (!TRACE_ID.test(span.traceId) || ALL_ZERO.test(span.traceId)) return REJECTION_REASONS.traceId;
    if (!SPAN_ID.test(span.spanId) || ALL_ZERO.test(span.spanId)) return REJECTION_REASONS.spanId;
    const parent = span.parentSpanId;
    if (parent !== '' && !ALL_ZERO.test(parent) && !SPAN_ID.test(parent)) return REJECTION_REASONS.parentSpanId;
    if (span.startTimeUnixNano <= 0n) return REJECTION_REASONS.startTime;
    if (span.endTimeUnixNano !== 0n && span.endTimeUnixNano < span.startTimeUnixNano) return REJECTION_REASONS.endBeforeStart;
    if (span.name.length > MAX_SPAN_NAME_CHARS) return REJECTION_REASONS.nameLength;
    if (span.status.message.length > MAX_STATUS_MESSAGE_CHARS) return REJECTION_REASONS.statusMessageLength;
    if (span.events.length > MAX_EVENTS_PER_SPAN) return REJECTION_REASONS.tooManyEvents;
    if (isUnstorable(span.name) || isUnstorable(span.status.message)) return REJECTION_REASONS.unstorableText;
    const own = attributesProblem(span.attributes);
    if (own) return own;
    for (const event of span.events) {
      if (isUnstorable(event.name)) return REJECTION_REASONS.unstorableText;
      const problem = attributesProblem(event.attributes);
      if (problem) return problem;
    }
    return sharedProblem(span.resource, checked) ?? sharedProblem(span.scope, checked);
  };
}
