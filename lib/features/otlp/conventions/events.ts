// Span events as the domain's events, as data: the first rule whose pattern matches the
// event's name gives its type; others are CUSTOM. (A `crossroads.decision` event is not
// an event: it becomes a decision point, see decisions.ts.)
import type { EventType } from '@/lib/features/traces/shared';
import type { AttributeValue, Attributes } from '@/lib/features/otlp/types';

export const EVENT_TYPE_RULES: ReadonlyArray<readonly [RegExp, EventType]> = [
  // OpenTelemetry's exception event (recordException).
  [/^exception$/, 'ERROR'],
  [/retry/i, 'RETRY'],
  [/fallback/i, 'FALLBACK'],
  // An end user's judgment (user_feedback, user.feedback, feedback): with a score, rating
  // or thumbs it also becomes a FEEDBACK score (lib/features/scores/feedback.ts).
  [/^(user[._-]?)?feedback$/i, 'USER_FEEDBACK'],
];

/** The exception event's attributes (OpenTelemetry semantic conventions). */
export const EXCEPTION = {
  eventName: 'exception',
  type: 'exception.type',
  message: 'exception.message',
  stacktrace: 'exception.stacktrace',
} as const;

export function eventTypeOf(name: string): EventType {
  for (const [pattern, type] of EVENT_TYPE_RULES) if (pattern.test(name)) return type;
  return 'CUSTOM';
}

const stringOf = (attributes: Attributes, key: string): string | undefined => {
  const value: AttributeValue | undefined = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** The name an event is shown under: an exception is named by its type. */
export function eventNameOf(name: string, attributes: Attributes): string {
  if (name === EXCEPTION.eventName) return stringOf(attributes, EXCEPTION.type) ?? EXCEPTION.eventName;
  return name;
}

/** The first exception event's message: a failed span's status message when its status has none. */
export function exceptionMessageOf(events: ReadonlyArray<{ name: string; attributes: Attributes }>): string | undefined {
  for (const event of events) {
    if (event.name === EXCEPTION.eventName) return stringOf(event.attributes, EXCEPTION.message);
  }
  return undefined;
}
